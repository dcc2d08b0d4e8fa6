import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ClientForm } from "~/components/directory/directory-forms";
import { Dialog } from "~/components/dialog";
import { createClient } from "~/models/client.server";
import { CLIENT_FORM_CONSTRAINT, ClientFormSchema } from "~/schemas/directory";
import { requireCapability } from "~/rules/capabilities.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  return { constraint: CLIENT_FORM_CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ClientFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  // An unticked checkbox posts nothing: the form says "not required" then (docs/decisions/1220).
  const form = {
    ...Object.fromEntries(formData),
    requiresReceivedTicket: formData.get("requiresReceivedTicket") ?? false,
    remindersOff: formData.get("remindersOff") ?? false,
    withholdsVat: formData.get("withholdsVat") ?? false,
  };
  const result = await createClient(user, form, { lenient: true });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to create client: ${result.message}` });
  return redirectWithToast("/clients", { title: "Client created successfully" });
}

export default function NewClient() {
  return (
    <Dialog title="New Client" closeTo="/clients" size="sm">
      <ClientForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={useLoaderData<typeof loader>().constraint}
        submitLabel="Create Client"
      />
    </Dialog>
  );
}

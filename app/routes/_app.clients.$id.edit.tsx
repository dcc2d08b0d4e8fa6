import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { ClientForm } from "~/components/directory/directory-forms";
import { Dialog } from "~/components/dialog";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { clientDetails, getClient, updateClient } from "~/models/client.server";
import { CLIENT_FORM_CONSTRAINT, ClientFormSchema } from "~/schemas/directory";
import { requireCapability } from "~/rules/capabilities.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const client = await getClient(requireIdParam(params.id, "Client not found"));
  invariantResponse(client, "Client not found");
  return {
    client: clientDetails(client),
    constraint: CLIENT_FORM_CONSTRAINT,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = requireIdParam(params.id, "Client not found");
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
  const result = await updateClient(user, id, form, { lenient: true });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to update client: ${result.message}` });
  return redirectWithToast(listUrlOf("/clients", request.url), { title: "Client updated successfully" });
}

export default function EditClient() {
  const { client, constraint } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Edit Client" closeTo={`/clients${listSearch(useLocation().search)}`} size="sm">
      <ClientForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={constraint}
        defaultValue={client}
        submitLabel="Save Changes"
      />
    </Dialog>
  );
}

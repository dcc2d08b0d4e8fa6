import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { ClientForm } from "~/components/directory-forms";
import { Dialog } from "~/components/dialog";
import { createClient } from "~/models/client.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const form = Object.fromEntries(await request.formData());
  const result = await createClient(user, form, { lenient: true });
  if (!result.ok) return data({ message: `Failed to create client: ${result.message}`, fieldErrors: result.fieldErrors, values: form }, { status: result.status });
  return redirectWithToast("/clients", { title: "Client created successfully" });
}

export default function NewClient() {
  return (
    <Dialog title="New Client" closeTo="/clients" size="sm">
      <ClientForm state={useActionData<typeof action>()} submitLabel="Create Client" />
    </Dialog>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ClientForm } from "~/components/directory-forms";
import { Dialog } from "~/components/dialog";
import { getClient, updateClient } from "~/models/client.server";
import { parseId } from "~/utils/params";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const client = await getClient(id);
  invariantResponse(client, "Client not found");
  return { client: { id: client.id, name: client.name, taxRate: client.taxRate, paymentTermsDays: client.paymentTermsDays } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const form = Object.fromEntries(await request.formData());
  const result = await updateClient(user, id, form, { lenient: true });
  if (!result.ok) return data({ message: `Failed to update client: ${result.message}`, fieldErrors: result.fieldErrors, values: form }, { status: result.status });
  return redirectWithToast("/clients", { title: "Client updated successfully" });
}

export default function EditClient() {
  const { client } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Edit Client" closeTo="/clients" size="sm">
      <ClientForm state={useActionData<typeof action>()} defaults={client} submitLabel="Save Changes" />
    </Dialog>
  );
}

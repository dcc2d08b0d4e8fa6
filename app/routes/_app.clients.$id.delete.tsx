import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { deleteClient, getClient } from "~/models/client.server";
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
  return { client: { id: client.id, name: client.name } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const result = await deleteClient(user, id);
  if (!result.ok) return redirectWithToast("/clients", { title: "Failed to delete client", description: result.message, variant: "destructive" });
  return redirectWithToast("/clients", { title: "Client deleted successfully" });
}

export default function DeleteClient() {
  const { client } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <Dialog title="Delete Client" closeTo="/clients" size="sm">
      <p className="text-sm">Are you sure you want to delete &quot;{client.name}&quot;? This action cannot be undone.</p>
      <Form method="post" className="mt-4 flex justify-end gap-2">
        <Link to="/clients" className="btn-outline">Cancel</Link>
        <button type="submit" className="btn-destructive" disabled={busy}>Delete</button>
      </Form>
    </Dialog>
  );
}

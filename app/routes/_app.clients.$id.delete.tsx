import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { DirectoryDeleteDialog } from "~/components/directory/directory-forms";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { deleteClient, getClient } from "~/models/client.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const client = await getClient(requireIdParam(params.id, "Client not found"));
  invariantResponse(client, "Client not found");
  return { client: { id: client.id, name: client.name } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = requireIdParam(params.id, "Client not found");
  const result = await deleteClient(user, id);
  if (!result.ok)
    return redirectWithToast(listUrlOf("/clients", request.url), {
      title: "Failed to delete client",
      description: result.message,
      variant: "destructive",
    });
  return redirectWithToast(listUrlOf("/clients", request.url), { title: "Client deleted successfully" });
}

export default function DeleteClient() {
  const { client } = useLoaderData<typeof loader>();
  return (
    <DirectoryDeleteDialog kind="Client" name={client.name} listPath={`/clients${listSearch(useLocation().search)}`} />
  );
}

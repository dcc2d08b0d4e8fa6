import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { DirectoryDeleteDialog } from "~/components/directory/directory-forms";
import { listSearch, listUrlOf } from "~/components/directory/list-url";
import { deleteAgent, getAgent } from "~/models/agent.server";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse, requireIdParam } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.manage");
  const agent = await getAgent(requireIdParam(params.id, "Agent not found"));
  invariantResponse(agent, "Agent not found");
  return { agent: { id: agent.id, name: agent.name } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const id = requireIdParam(params.id, "Agent not found");
  const result = await deleteAgent(user, id);
  if (!result.ok)
    return redirectWithToast(listUrlOf("/agents", request.url), {
      title: "Failed to delete agent",
      description: result.message,
      variant: "destructive",
    });
  return redirectWithToast(listUrlOf("/agents", request.url), { title: "Agent deleted successfully" });
}

export default function DeleteAgent() {
  const { agent } = useLoaderData<typeof loader>();
  return (
    <DirectoryDeleteDialog kind="Agent" name={agent.name} listPath={`/agents${listSearch(useLocation().search)}`} />
  );
}

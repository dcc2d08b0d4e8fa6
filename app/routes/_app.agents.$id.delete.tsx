import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DirectoryDeleteDialog } from "~/components/directory/directory-forms";
import { deleteAgent, getAgent } from "~/models/agent.server";
import { parseId } from "~/utils/params";
import { requireRole } from "~/utils/auth.server";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const agent = await getAgent(id);
  invariantResponse(agent, "Agent not found");
  return { agent: { id: agent.id, name: agent.name } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const result = await deleteAgent(id);
  if (!result.ok) return redirectWithToast("/agents", { title: "Failed to delete agent", description: result.message, variant: "destructive" });
  return redirectWithToast("/agents", { title: "Agent deleted successfully" });
}

export default function DeleteAgent() {
  const { agent } = useLoaderData<typeof loader>();
  return <DirectoryDeleteDialog kind="Agent" name={agent.name} listPath="/agents" />;
}

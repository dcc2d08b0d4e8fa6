import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { deleteAgent, getAgent } from "~/models/agent.server";
import { parseId } from "~/utils/params";
import { requireCapability } from "~/rules/capabilities.server";
import { invariantResponse } from "~/utils/http.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const agent = await getAgent(id);
  invariantResponse(agent, "Agent not found");
  return { agent: { id: agent.id, name: agent.name } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const result = await deleteAgent(user, id);
  if (!result.ok) return redirectWithToast("/agents", { title: "Failed to delete agent", description: result.message, variant: "destructive" });
  return redirectWithToast("/agents", { title: "Agent deleted successfully" });
}

export default function DeleteAgent() {
  const { agent } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <Dialog title="Delete Agent" closeTo="/agents" size="sm">
      <p className="text-sm">Are you sure you want to delete &quot;{agent.name}&quot;? This action cannot be undone.</p>
      <Form method="post" className="mt-4 flex justify-end gap-2">
        <Link to="/agents" className="btn-outline">Cancel</Link>
        <button type="submit" className="btn-destructive" disabled={busy}>Delete</button>
      </Form>
    </Dialog>
  );
}

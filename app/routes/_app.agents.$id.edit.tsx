import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AgentForm } from "~/components/directory-forms";
import { Dialog } from "~/components/dialog";
import { getAgent, updateAgent } from "~/models/agent.server";
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
  return { agent: { id: agent.id, name: agent.name, contact: agent.contact } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const form = Object.fromEntries(await request.formData());
  const result = await updateAgent(user, id, form);
  if (!result.ok) return data({ message: `Failed to update agent: ${result.message}`, fieldErrors: result.fieldErrors, values: form }, { status: result.status });
  return redirectWithToast("/agents", { title: "Agent updated successfully" });
}

export default function EditAgent() {
  const { agent } = useLoaderData<typeof loader>();
  return (
    <Dialog title="Edit Agent" closeTo="/agents" size="sm">
      <AgentForm state={useActionData<typeof action>()} defaults={agent} submitLabel="Save Changes" />
    </Dialog>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AgentForm } from "~/components/directory-forms";
import { Dialog } from "~/components/dialog";
import { createAgent } from "~/models/agent.server";
import { requireCapability } from "~/rules/capabilities.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.manage");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const form = Object.fromEntries(await request.formData());
  const result = await createAgent(user, form);
  if (!result.ok) return data({ message: `Failed to create agent: ${result.message}`, fieldErrors: result.fieldErrors, values: form }, { status: result.status });
  return redirectWithToast("/agents", { title: "Agent created successfully" });
}

export default function NewAgent() {
  return (
    <Dialog title="Add Agent" closeTo="/agents" size="sm">
      <AgentForm state={useActionData<typeof action>()} submitLabel="Add Agent" />
    </Dialog>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AgentForm } from "~/components/directory-forms";
import { Dialog } from "~/components/dialog";
import { createAgent } from "~/models/agent.server";
import { requireRole } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const form = Object.fromEntries(await request.formData());
  const result = await createAgent(form);
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

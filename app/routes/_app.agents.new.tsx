import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AgentForm } from "~/components/directory/directory-forms";
import { Dialog } from "~/components/dialog";
import { createAgent } from "~/models/agent.server";
import { AGENT_FORM_CONSTRAINT, AgentFormSchema } from "~/schemas/directory";
import { requireCapability } from "~/rules/capabilities.server";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm } from "~/utils/http.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.manage");
  return { constraint: AGENT_FORM_CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: AgentFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return replyInvalid(submission);
  const form = Object.fromEntries(formData);
  const result = await createAgent(user, form);
  if (!result.ok) return replyRefused(submission, result, { formMessage: `Failed to create agent: ${result.message}` });
  return redirectWithToast("/agents", { title: "Agent created successfully" });
}

export default function NewAgent() {
  return (
    <Dialog title="Add Agent" closeTo="/agents" size="sm">
      <AgentForm
        lastResult={useActionData<typeof action>()?.result}
        constraint={useLoaderData<typeof loader>().constraint}
        submitLabel="Add Agent"
      />
    </Dialog>
  );
}

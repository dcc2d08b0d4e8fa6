import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { agentStatementUrl } from "~/components/agent-statement";
import { ReversalDialog } from "~/components/forms/reversal-dialog";
import { getPayoutToReverse } from "~/models/agent-settlement.server";
import { reverseAgentPayout } from "~/services/agents/reverse-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PayoutReversalFormSchema, payoutReversalFormConstraint } from "~/schemas/settlements";
import { formatDate } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Reverse Payout (docs/decisions/0980): takes back a payout recorded in error with a
// reason, over the agent's statement with JavaScript, a page of its own without. Back to the
// statement, its period kept.
export const meta: MetaFunction = () => [{ title: "Reverse Payout · Agents" }];

function ids(params: LoaderFunctionArgs["params"]) {
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const payoutId = parseId(params.payoutId);
  invariantResponse(payoutId, "Payout not found");
  return { id, payoutId };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const { id, payoutId } = ids(params);
  const found = await getPayoutToReverse(user, id, payoutId);
  invariantResponse(found, "Payout not found");
  return {
    ...found,
    agentId: id,
    // One key per opened form: a double tap or a retry records one reversal.
    idempotencyKey: crypto.randomUUID(),
    constraint: payoutReversalFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const { id, payoutId } = ids(params);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: PayoutReversalFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await reverseAgentPayout(user, id, payoutId, input, new Date(), {
    idempotencyKey: keyOf(null, field),
  });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to reverse payout: ${result.message}` });
  return redirectWithToast(agentStatementUrl(id, new URL(request.url).searchParams), {
    title: "Payout reversed",
    description: `${formatNaira(result.payout.amount)} taken back; ${formatNaira(result.owed)} now owed`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function ReversePayoutRoute() {
  const { agentName, agentId, payout, reversedOn, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  return (
    <ReversalDialog
      noun="Payout"
      description={agentName}
      back={agentStatementUrl(agentId, new URLSearchParams(search))}
      backLabel="Back to the statement"
      entry={`#${payout.id}, ${formatDate(payout.payoutDate)}, ${PAYOUT_METHOD_LABELS[payout.method]}${payout.reference ? ` (${payout.reference})` : ""}`}
      amount={payout.amount}
      amountTestId="payout-amount"
      reversedOn={reversedOn}
      explanation="The payout stays on the statement. A reversal dated today adds its amount back to what the agent is owed. This cannot be undone."
      idempotencyKey={idempotencyKey}
      constraint={constraint}
      lastResult={actionData?.result}
    />
  );
}

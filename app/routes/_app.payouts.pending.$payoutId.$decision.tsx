import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, SubmitButton, TextareaField } from "~/components/forms";
import { balanceWords } from "~/components/payouts/balance-words";
import { useIsPending } from "~/hooks/use-is-pending";
import { getPayoutToDecide } from "~/presenters/pending-payouts.server";
import { requireCapability } from "~/rules/capabilities.server";
import {
  PayoutApprovalFormSchema,
  payoutApprovalFormConstraint,
  PayoutRejectionFormSchema,
  payoutRejectionFormConstraint,
} from "~/schemas/settlements";
import { approveAgentPayout, rejectAgentPayout } from "~/services/agents/decide-payout.server";
import { formatAuditTime } from "~/utils/audit-words.server";
import { formatDate } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { PAYOUT_KIND_LABELS, PAYOUT_METHOD_LABELS, PAYOUT_STATUS_LABELS } from "~/utils/payout-methods";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Approve Payout and Reject Payout (docs/decisions/1250): over Pending Approvals with JavaScript,
// a page of its own without. Only another admin than the payout's maker may decide, once; a
// rejection needs a reason. Back to Pending Approvals.
const BACK = "/payouts/pending";
const DECISIONS = {
  approve: {
    title: "Approve Payout",
    reason: "Reason (optional)",
    button: "Approve Payout",
    busy: "Approving...",
    explain: "Once approved, the payout counts as paid on its date. This cannot be undone, only reversed.",
    done: "Payout approved",
  },
  reject: {
    title: "Reject Payout",
    reason: "Reason",
    button: "Reject Payout",
    busy: "Rejecting...",
    explain: "A rejected payout stays on the agent's statement and counts for nothing. This cannot be undone.",
    done: "Payout rejected",
  },
} as const;

type DecisionName = keyof typeof DECISIONS;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? DECISIONS[data.decision].title : "Payout"} · Agents` },
];

function readParams(params: LoaderFunctionArgs["params"]) {
  const payoutId = parseId(params.payoutId);
  invariantResponse(payoutId, "Payout not found");
  const decision = params.decision;
  invariantResponse(decision === "approve" || decision === "reject", "Page not found");
  return { payoutId, decision: decision as DecisionName };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const { payoutId, decision } = readParams(params);
  const payout = await getPayoutToDecide(user, payoutId);
  invariantResponse(payout, "Payout not found");
  return {
    decision,
    payout,
    madeAt: formatAuditTime(payout.createdAt, env().APP_TIME_ZONE),
    own: payout.createdBy === user.id,
    // One key per opened form: a double tap or a retry records one decision.
    idempotencyKey: crypto.randomUUID(),
    constraint: decision === "approve" ? payoutApprovalFormConstraint : payoutRejectionFormConstraint,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const { payoutId, decision } = readParams(params);
  const payout = await getPayoutToDecide(user, payoutId);
  invariantResponse(payout, "Payout not found");
  const words = DECISIONS[decision];
  const formData = await readForm(request);
  const schema = decision === "approve" ? PayoutApprovalFormSchema : PayoutRejectionFormSchema;
  const submission = parseWithZod(formData, { schema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const write = decision === "approve" ? approveAgentPayout : rejectAgentPayout;
  const result = await write(user, payout.agentId, payoutId, input, new Date(), {
    idempotencyKey: keyOf(null, field),
  });
  if (!result.ok) return replyRefused(submission, result, { formMessage: result.message });
  return redirectWithToast(BACK, {
    title: words.done,
    description: `${formatNaira(result.payout.amount)} to ${payout.agentName}`,
  });
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function DecidePayoutRoute() {
  const { decision, payout, madeAt, own, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const words = DECISIONS[decision];
  const pending = useIsPending();
  const [form, fields] = useForm<{ reason: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { idempotencyKey },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  const why =
    payout.status !== "pending"
      ? `This payout was already ${PAYOUT_STATUS_LABELS[payout.status].toLowerCase()}${payout.decidedAt ? ` on ${formatDate(payout.decidedAt.slice(0, 10))}` : ""}.`
      : own
        ? "You recorded this payout: another admin must approve or reject it."
        : null;
  return (
    <Dialog title={words.title} description={payout.agentName} closeTo={BACK} size="sm">
      <dl className="facts rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <div>
          <dt>Payout</dt>
          <dd>
            #{payout.id}, {PAYOUT_KIND_LABELS[payout.kind].split(" (")[0]}, {formatDate(payout.payoutDate)},{" "}
            {PAYOUT_METHOD_LABELS[payout.method]}
            {payout.reference ? ` (${payout.reference})` : ""}
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd data-testid="payout-amount">{formatNaira(payout.amount)}</dd>
        </div>
        <div>
          <dt>Made</dt>
          <dd>
            {madeAt} by {payout.madeBy ?? "—"}
          </dd>
        </div>
        <div>
          <dt>The agent now</dt>
          <dd>{balanceWords(payout.balance)}</dd>
        </div>
      </dl>
      {why ? (
        <div className="mt-4 space-y-4">
          <p role="status" className="text-sm">
            {why}
          </p>
          <Link to={BACK} className="btn-outline w-full" preventScrollReset>
            Back to Pending Approvals
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input {...keyProps} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p className="text-sm">{words.explain}</p>
          <TextareaField meta={fields.reason} label={words.reason} rows={3} />
          <SubmitButton
            pending={pending}
            pendingLabel={words.busy}
            className={(decision === "approve" ? "btn-primary" : "btn-destructive") + " w-full"}
          >
            {words.button}
          </SubmitButton>
        </Form>
      )}
    </Dialog>
  );
}

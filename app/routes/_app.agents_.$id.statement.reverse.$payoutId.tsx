import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { agentStatementUrl } from "~/components/agent-statement";
import { Dialog } from "~/components/dialog";
import { FormErrors, SubmitButton, TextareaField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { getPayoutToReverse, reverseAgentPayout } from "~/models/agent-settlement.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PayoutReversalFormSchema, payoutReversalFormConstraint } from "~/schemas/settlements";
import { formatDayMonthYear } from "~/utils/dates";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";
import { redirectWithToast } from "~/utils/toast.server";

// Reverse Payout (docs/decisions/0980, addendum): takes back a payout recorded in error with a
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
  const formData = await request.formData();
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

export default function ReversePayoutRoute() {
  const { agentName, agentId, payout, reversedOn, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const pending = useIsPending();
  const [form, fields] = useForm<{ reason: string; idempotencyKey: string }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { idempotencyKey },
    shouldValidate: "onSubmit",
    shouldRevalidate: "onSubmit",
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  const back = agentStatementUrl(agentId, new URLSearchParams(search));
  return (
    <Dialog title="Reverse Payout" description={agentName} closeTo={back} size="sm">
      <dl className="facts rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <div>
          <dt>Payout</dt>
          <dd>
            #{payout.id}, {formatDayMonthYear(payout.payoutDate)}, {PAYOUT_METHOD_LABELS[payout.method]}
            {payout.reference ? ` (${payout.reference})` : ""}
          </dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd data-testid="payout-amount">{formatNaira(payout.amount)}</dd>
        </div>
      </dl>
      {reversedOn ? (
        <div className="mt-4 space-y-4">
          <p role="status" className="text-sm">
            This payout was already reversed on {formatDayMonthYear(reversedOn)}.
          </p>
          <Link to={back} className="btn-outline w-full" preventScrollReset>
            Back to the statement
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input {...keyProps} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p className="text-sm">
            The payout stays on the statement. A reversal dated today adds its amount back to what the agent is owed.
            This cannot be undone.
          </p>
          <TextareaField meta={fields.reason} label="Reason" rows={3} />
          <SubmitButton pending={pending} pendingLabel="Reversing..." className="btn-destructive w-full">
            Reverse Payout
          </SubmitButton>
        </Form>
      )}
    </Dialog>
  );
}

import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { agentStatementUrl } from "~/components/agent-statement";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, MoneyField, SelectField, SubmitButton, TextareaField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { getAgentOwed } from "~/models/agent-settlement.server";
import { recordAgentPayout } from "~/services/agents/record-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PayoutFormSchema, payoutFormConstraint } from "~/schemas/settlements";
import { getSettings } from "~/models/settings.server";
import { PAYOUT_KIND_LABELS, PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { replyRefused } from "~/utils/form-reply.server";
import { invariantResponse, readForm } from "~/utils/http.server";
import { keyOf } from "~/utils/idempotency.server";
import { formatNaira, isNegative, sub, toFixed } from "~/utils/money";
import { parseId } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { dialogShouldRevalidate, keepFormWhenUnanswered } from "~/utils/unanswered";

// Record Payout (docs/decisions/0980, 1250): a settlement or an advance, over the agent's
// statement with JavaScript, a page of its own without. Back to the statement, its period kept.
export const meta: MetaFunction = () => [{ title: "Record Payout · Agents" }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const agent = await getAgentOwed(user, id);
  invariantResponse(agent, "Agent not found");
  const today = todayIn(env().APP_TIME_ZONE);
  return {
    agent,
    approvalLimit: (await getSettings()).payoutApprovalLimit,
    today,
    // One key per opened form: a double tap or a retry records one payout.
    idempotencyKey: crypto.randomUUID(),
    constraint: { ...payoutFormConstraint, payoutDate: { required: true, min: EARLIEST_BUSINESS_DATE, max: today } },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: PayoutFormSchema, disableAutoCoercion: true });
  const { idempotencyKey: field, ...input } = Object.fromEntries(formData);
  const result = await recordAgentPayout(user, id, input, new Date(), { idempotencyKey: keyOf(null, field) });
  if (!result.ok)
    return replyRefused(submission, result, { formMessage: `Failed to record payout: ${result.message}` });
  const url = agentStatementUrl(id, new URL(request.url).searchParams);
  if (result.payout.status === "pending")
    return redirectWithToast(url, {
      title: "Payout awaiting approval",
      description: `${formatNaira(result.payout.amount)} is above the approval limit: another admin must approve it`,
    });
  return redirectWithToast(url, {
    title: "Payout recorded",
    description: paidWords(result.payout.amount, result.owed),
  });
}

function paidWords(amount: string, owed: string) {
  return isNegative(owed)
    ? `${formatNaira(amount)} paid; ${formatNaira(toFixed(sub("0", owed)))} advance outstanding`
    : `${formatNaira(amount)} paid; ${formatNaira(owed)} still owed`;
}

// No answer to the post: the dialog stays, with its key (app/utils/unanswered.ts).
export const clientAction = keepFormWhenUnanswered;
export const shouldRevalidate = dialogShouldRevalidate;

export default function RecordPayoutRoute() {
  const { agent, approvalLimit, today, idempotencyKey, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { search } = useLocation();
  const pending = useIsPending();
  const [form, fields] = useForm<{
    kind: string;
    amount: string;
    payoutDate: string;
    method: string;
    reference: string;
    note: string;
    idempotencyKey: string;
  }>({
    lastResult: actionData?.result,
    constraint,
    defaultValue: { kind: "settlement", payoutDate: today, method: "bank_transfer", idempotencyKey },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <Dialog
      title="Record Payout"
      description={agent.name}
      closeTo={agentStatementUrl(agent.id, new URLSearchParams(search))}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input {...keyProps} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          {isNegative(agent.owed) ? (
            <>
              Advance outstanding: <strong data-testid="owed">{formatNaira(toFixed(sub("0", agent.owed)))}</strong>
            </>
          ) : (
            <>
              Owed to the agent: <strong data-testid="owed">{formatNaira(agent.owed)}</strong>
            </>
          )}
          {approvalLimit === null ? null : (
            <span className="mt-1 block text-slate-600 dark:text-slate-300">
              Above {formatNaira(approvalLimit)} a payout waits for another admin&apos;s approval.
            </span>
          )}
        </p>
        <SelectField meta={fields.kind} label="Kind">
          {Object.entries(PAYOUT_KIND_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <MoneyField meta={fields.amount} label="Amount (₦)" />
        <InputField meta={fields.payoutDate} label="Payout date" type="date" />
        <SelectField meta={fields.method} label="Method">
          {Object.entries(PAYOUT_METHOD_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <InputField meta={fields.reference} label="Reference (optional)" />
        <TextareaField meta={fields.note} label="Note (optional)" rows={2} />
        <SubmitButton pending={pending} pendingLabel="Recording..." className="btn-primary w-full">
          Record Payout
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

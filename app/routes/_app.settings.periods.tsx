import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Dialog, NoticeDialog } from "~/components/dialog";
import { ConfirmFooter } from "~/components/forms";
import { PeriodCard } from "~/components/settings/period-card";
import { closeMonth, getPeriodState, monthsClosedBy, reopenMonth, type MonthChoice } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";
import { PeriodFormSchema } from "~/schemas/periods";
import { formatMonth } from "~/utils/dates";
import { replyInvalid, replyRefused } from "~/utils/form-reply.server";
import { redirectWithToast } from "~/utils/toast.server";
import { data } from "@remix-run/node";
import { readForm } from "~/utils/http.server";
import { isYearMonth } from "~/utils/year-month";

// A page route: `?month=yyyy-MM` (the Month Close card's GET form) asks to confirm closing that
// month; a post with errors renders the card with its messages; otherwise it is System Settings.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "period.close");
  const month = new URL(request.url).searchParams.get("month") ?? "";
  if (!isYearMonth(month)) return { confirm: null };
  const state = await getPeriodState(user);
  const closing = monthsClosedBy(state, month);
  return { confirm: { label: formatMonth(month), month, closing, ended: month <= state.latestClosable } };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "period.close");
  const formData = await readForm(request);
  const intent = formData.get("intent") === "reopen" ? ("reopen" as const) : ("close" as const);
  const submission = parseWithZod(formData, { schema: PeriodFormSchema, disableAutoCoercion: true });
  if (submission.status !== "success") {
    const answer = replyInvalid(submission);
    return data({ intent, result: answer.data.result }, { status: 400 });
  }
  const input = Object.fromEntries(formData);
  const result = intent === "reopen" ? await reopenMonth(user, input) : await closeMonth(user, input);
  if (!result.ok) {
    const answer = replyRefused(submission, result);
    return data({ intent, result: answer.data.result }, { status: result.status });
  }
  const through = result.state.closedThroughMonth;
  const now = through ? `closed through ${formatMonth(through)}` : "no month is closed";
  const title =
    intent === "reopen"
      ? `${formatMonth(submission.value.month)} reopened: ${now}`
      : result.changed
        ? `${formatMonth(submission.value.month)} closed: ${now}`
        : `${formatMonth(submission.value.month)} was already closed: ${now}`;
  return redirectWithToast("/settings", { title });
}

/** Rendered by System Settings in place of its Month Close card, with this answer's messages or the confirmation. */
export default function PeriodAnswerRoute() {
  const actionData = useActionData<typeof action>();
  const { confirm } = useLoaderData<typeof loader>();
  return (
    <>
      <PeriodCard answer={actionData} />
      {confirm && !actionData ? <ConfirmClose {...confirm} /> : null}
    </>
  );
}

/**
 * Closing is for everyone and reaches back to the first open month, so it is asked for twice:
 * the card's choice, then this dialog (a page without JavaScript) naming what it closes.
 */
function ConfirmClose({
  label,
  month,
  closing,
  ended,
}: {
  label: string;
  month: string;
  closing: MonthChoice[];
  ended: boolean;
}) {
  if (!ended || closing.length === 0) {
    return (
      <NoticeDialog title={`Close ${label}`} closeTo="/settings">
        {ended
          ? `${label} is already closed.`
          : `Only a month that has ended can be closed: ${label} has not ended yet.`}
      </NoticeDialog>
    );
  }
  const named =
    closing.length === 1
      ? label
      : closing.length <= 4
        ? closing.map((m) => m.label).join(", ")
        : `${closing[0].label} to ${label} (${closing.length} months)`;
  return (
    <Dialog
      title={`Close ${label}?`}
      description="For everyone, until an admin reopens it"
      closeTo="/settings"
      size="sm"
    >
      <Form method="post" action="/settings/periods" className="space-y-3 text-sm" preventScrollReset>
        <input type="hidden" name="intent" value="close" />
        <input type="hidden" name="month" value={month} />
        <p>
          This closes <strong>{named}</strong>
          {closing.length > 1 ? ", every month still open up to it," : ""} and any earlier month.
        </p>
        <p>
          Nobody can then create, change or delete a delivery, invoice, payment, credit note or payout dated in{" "}
          {closing.length === 1 ? "it" : "them"}, and a delivery left to invoice there can no longer be invoiced.
          Reopening needs an admin and a reason, and is recorded in the audit trail.
        </p>
        <ConfirmFooter
          cancelTo="/settings"
          confirmLabel={closing.length === 1 ? `Close ${label}` : `Close ${closing.length} months`}
          pendingLabel="Closing..."
          variant="primary"
          formAction="/settings/periods"
        />
      </Form>
    </Dialog>
  );
}

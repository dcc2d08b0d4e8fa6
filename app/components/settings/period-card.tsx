import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useRouteLoaderData } from "@remix-run/react";
import { FormErrors, SelectField, TextareaField } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import type { PeriodState } from "~/models/period.server";
import type { PERIOD_FORM_CONSTRAINTS } from "~/schemas/periods";

type PeriodConstraints = typeof PERIOD_FORM_CONSTRAINTS;

type PeriodAnswer = { intent: "close" | "reopen"; result: SubmissionResult<string[]> } | null | undefined;

/**
 * Month Close (docs/decisions/0901): the closed-through month, a choice of month to close (and
 * every month before it), which asks to confirm first, and one to reopen with a reason. Both go to
 * /settings/periods; an answer with errors renders this same card there, each message under its field.
 */
export function PeriodCard({ answer }: { answer?: PeriodAnswer }) {
  const settings = useRouteLoaderData<{ period: PeriodState | null; periodConstraints: PeriodConstraints }>(
    "routes/_app.settings",
  );
  const period = settings?.period;
  const busy = useIsPending({ formAction: "/settings/periods" });
  const [closeForm, closeFields] = useForm<{ month: string }>({
    id: "close-month",
    lastResult: answer?.intent === "close" ? answer.result : undefined,
    constraint: settings?.periodConstraints.close,
  });
  const [reopenForm, reopenFields] = useForm<{ month: string; reason: string }>({
    id: "reopen-month",
    lastResult: answer?.intent === "reopen" ? answer.result : undefined,
    constraint: settings?.periodConstraints.reopen,
    defaultValue: { month: period?.closedThroughMonth ?? "" },
  });
  if (!period) return null;
  return (
    <section className="card p-5" aria-labelledby="period-title">
      <h2 id="period-title" className="font-semibold">
        Month Close
      </h2>
      <p className="mt-1 text-sm" data-testid="closed-through">
        {period.closedThroughLabel ? `Closed through ${period.closedThroughLabel}` : "No month is closed"}
      </p>
      <p className="page-subtitle">
        Closing a month also closes every month before it, for everyone: deliveries, invoices and payments dated in them
        can no longer be created, changed or deleted. You will be asked to confirm.
      </p>
      <div className="mt-4 grid gap-6 sm:grid-cols-2">
        {period.closeChoices.length ? (
          // A GET: choosing a month only asks for the confirmation, which does the close.
          <Form method="get" action="/settings/periods" id={closeForm.id} className="space-y-3" preventScrollReset>
            <FormErrors errors={busy ? null : closeForm.errors} id={closeForm.errorId} />
            <MonthField
              meta={closeFields.month}
              label="Month to close"
              description="Months that have ended and are still open."
              busy={busy}
              choices={period.closeChoices}
              placeholder="Choose a month"
            />
            <button type="submit" className="btn-primary" disabled={busy}>
              Close Month
            </button>
          </Form>
        ) : (
          <p className="text-sm">Every month that has ended is closed.</p>
        )}
        {period.reopenChoices.length ? (
          <Form
            method="post"
            action="/settings/periods"
            {...getFormProps(reopenForm)}
            className="space-y-3"
            preventScrollReset
          >
            <input type="hidden" name="intent" value="reopen" />
            <FormErrors errors={busy ? null : reopenForm.errors} id={reopenForm.errorId} />
            <MonthField
              meta={reopenFields.month}
              label="Month to reopen"
              description="Reopens this month and every later closed month."
              busy={busy}
              choices={period.reopenChoices}
            />
            <TextareaField meta={reopenFields.reason} label="Reason" rows={2} maxLength={500} hideErrors={busy} />
            <button type="submit" className="btn-outline" disabled={busy}>
              Reopen Month
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}

/** A month to close or reopen, among the ones the server offers; `placeholder` is a first, empty choice. */
function MonthField({
  meta,
  label,
  description,
  busy,
  choices,
  placeholder,
}: {
  meta: Parameters<typeof SelectField>[0]["meta"];
  label: string;
  description: string;
  busy: boolean;
  choices: PeriodState["closeChoices"];
  placeholder?: string;
}) {
  return (
    <SelectField meta={meta} label={label} description={description} hideErrors={busy}>
      {placeholder ? <option value="">{placeholder}</option> : null}
      {choices.map((m) => (
        <option key={m.month} value={m.month}>
          {m.label}
        </option>
      ))}
    </SelectField>
  );
}

// The dialog that takes back a money entry recorded in error, with a reason: Reverse Payout
// (docs/decisions/0980) and Reverse Payment (docs/decisions/0920). Each
// route supplies its entry's facts and words; the form, its key and the "already reversed" state
// are the same.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Dialog } from "~/components/dialog";
import { useIsPending } from "~/hooks/use-is-pending";
import type { FormConstraint } from "~/schemas/fields";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { FormErrors } from "./error-list";
import { TextareaField } from "./field";
import { SubmitButton } from "./submit-button";

export function ReversalDialog({
  noun,
  description,
  back,
  backLabel,
  entry,
  amount,
  amountTestId,
  reversedOn,
  explanation,
  idempotencyKey,
  constraint,
  lastResult,
}: {
  /** "Payout" or "Payment": the title, the facts and the button name it. */
  noun: string;
  description: string;
  /** Where Close, Back and the redirect go. */
  back: string;
  backLabel: string;
  /** The entry's own facts: number, date, method, reference. */
  entry: ReactNode;
  amount: string;
  amountTestId: string;
  /** The day it was reversed, when it was: the dialog then says so instead of offering the form. */
  reversedOn: string | null;
  explanation: string;
  /** One key per opened form: a double tap or a retry records one reversal. */
  idempotencyKey: string;
  constraint: FormConstraint;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm<{ reason: string; idempotencyKey: string }>({
    lastResult,
    constraint,
    defaultValue: { idempotencyKey },
  });
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <Dialog title={`Reverse ${noun}`} description={description} closeTo={back} size="sm">
      <dl className="facts rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
        <div>
          <dt>{noun}</dt>
          <dd>{entry}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd data-testid={amountTestId}>{formatNaira(amount)}</dd>
        </div>
      </dl>
      {reversedOn ? (
        <div className="mt-4 space-y-4">
          <p role="status" className="text-sm">
            This {noun.toLowerCase()} was already reversed on {formatDate(reversedOn)}.
          </p>
          <Link to={back} className="btn-outline w-full" preventScrollReset>
            {backLabel}
          </Link>
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input {...keyProps} />
          <FormErrors errors={form.errors} id={form.errorId} />
          <p className="text-sm">{explanation}</p>
          <TextareaField meta={fields.reason} label="Reason" rows={3} />
          <SubmitButton pending={pending} pendingLabel="Reversing..." className="btn-destructive w-full">
            {`Reverse ${noun}`}
          </SubmitButton>
        </Form>
      )}
    </Dialog>
  );
}

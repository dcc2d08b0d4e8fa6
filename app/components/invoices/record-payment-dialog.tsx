import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Dialog } from "~/components/dialog";
import { FormErrors, InputField, MoneyField, SubmitButton } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import type { FormConstraint } from "~/schemas/fields";
import { formatNaira } from "~/utils/money";

/** The Record Payment dialog (spec section 2): amount, payment date, optional reference, the remaining balance. */
export function RecordPaymentDialog({
  invoice,
  today,
  idempotencyKey,
  constraint,
  lastResult,
  closeTo,
}: {
  invoice: { invoiceNo: string; clientName: string; balance: string };
  today: string;
  idempotencyKey: string;
  constraint: FormConstraint;
  lastResult?: SubmissionResult<string[]>;
  closeTo: string;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm<{ amount: string; paymentDate: string; reference: string; idempotencyKey: string }>({
    lastResult,
    constraint,
    defaultValue: { paymentDate: today, idempotencyKey },
  });
  // The same key on a retry of this submission, so a double tap records one payment.
  const { key: _key, ...keyProps } = getInputProps(fields.idempotencyKey, { type: "hidden" });
  return (
    <Dialog
      title="Record Payment"
      description={`Invoice #${invoice.invoiceNo} · ${invoice.clientName}`}
      closeTo={closeTo}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input {...keyProps} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          Remaining balance: <strong data-testid="balance">{formatNaira(invoice.balance)}</strong>
        </p>
        <MoneyField meta={fields.amount} label="Amount (₦)" />
        <InputField meta={fields.paymentDate} label="Payment date" type="date" />
        <InputField meta={fields.reference} label="Reference (optional)" />
        <SubmitButton pending={pending} pendingLabel="Recording..." className="btn-primary w-full">
          Record Payment
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

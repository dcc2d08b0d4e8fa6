// The dialogs that take a client credit off an invoice (docs/decisions/0920): Apply Credit moves
// it to another invoice of the client, Refund Credit pays it back. Each route supplies its
// fields and words; the dialog, its form with the request key and errors, and the credit shown
// above the fields are the same.
import { getFormProps, getInputProps, type FieldMetadata, type FormMetadata } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Dialog } from "~/components/dialog";
import { FormErrors, SubmitButton } from "~/components/forms";
import { useIsPending } from "~/hooks/use-is-pending";
import { formatNaira } from "~/utils/money";

export function ClientCreditDialog<Fields extends { idempotencyKey: string }>({
  title,
  invoice,
  credit,
  form,
  keyField,
  note,
  submitLabel,
  pendingLabel,
  children,
}: {
  title: string;
  invoice: { id: number; invoiceNo: string; clientName: string };
  credit: string;
  form: FormMetadata<Fields, string[]>;
  /** The form's request key: one per opened form, so a double tap or a retry lands once. */
  keyField: FieldMetadata<string, Fields, string[]>;
  /** What the write does with the credit, under the amount. */
  note: string;
  submitLabel: string;
  pendingLabel: string;
  children: ReactNode;
}) {
  const pending = useIsPending();
  const { key: _key, ...keyProps } = getInputProps(keyField, { type: "hidden" });
  return (
    <Dialog
      title={title}
      description={`Invoice #${invoice.invoiceNo} · ${invoice.clientName}`}
      closeTo={`/invoices/${invoice.id}`}
      size="sm"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input {...keyProps} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          Client credit: <strong data-testid="client-credit">{formatNaira(credit)}</strong>
          <br />
          {note}
        </p>
        {children}
        <SubmitButton pending={pending} pendingLabel={pendingLabel} className="btn-primary w-full">
          {submitLabel}
        </SubmitButton>
      </Form>
    </Dialog>
  );
}

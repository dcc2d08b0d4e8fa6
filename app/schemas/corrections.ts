// The forms that correct an invoice without rewriting it (docs/decisions/0920): Void and Credit
// Note. The models parse with the same fields and have the last word (limits, states).
import * as z from "zod";
import { formSchema, optionalText, requiredDecimal, requiredText, type FormConstraint } from "./fields";

export const REASON_MAX = 500;

export const reasonField = () => requiredText("Reason", REASON_MAX, { multiline: true });

export const VoidInvoiceSchema = z.object({ reason: reasonField() });

export const VoidInvoiceFormSchema = formSchema(VoidInvoiceSchema);

export const voidInvoiceFormConstraint: FormConstraint = { reason: { required: true, maxLength: REASON_MAX } };

export const CreditNoteSchema = z.object({
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  reason: reasonField(),
});

export const CreditNoteFormSchema = formSchema(
  CreditNoteSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

/** Reverse Credit Note (a credit note issued in error): why, kept as the reversal's reason. */
export const CreditNoteReversalSchema = z.object({ reason: reasonField() });

export const CreditNoteReversalFormSchema = formSchema(
  CreditNoteReversalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const creditNoteReversalFormConstraint: FormConstraint = { reason: { required: true, maxLength: REASON_MAX } };

export const creditNoteFormConstraint: FormConstraint = {
  amount: { required: true },
  reason: { required: true, maxLength: REASON_MAX },
};

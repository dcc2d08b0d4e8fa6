// The reason every correction keeps (docs/decisions/0920), and the payment corrections' forms.
// The invoice's own (void, credit note and its reversal) are in ./invoice.
import * as z from "zod";
import {
  calendarDate,
  formSchema,
  optionalText,
  requiredDecimal,
  requiredId,
  requiredText,
  type FormConstraint,
} from "./fields";

export const REASON_MAX = 500;

export const reasonField = () => requiredText("Reason", REASON_MAX, { multiline: true });

/** Reverse Payment (a payment recorded in error): why, kept with the reversal. */
export const PaymentReversalSchema = z.object({ reason: reasonField() });

export const PaymentReversalFormSchema = formSchema(
  PaymentReversalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const paymentReversalFormConstraint: FormConstraint = { reason: { required: true, maxLength: REASON_MAX } };

/** Refund Credit: money paid back to the client out of the credit an invoice carries. */
export const RefundSchema = z.object({
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  paymentDate: calendarDate("Refund date", { required: false }),
  reference: optionalText("Reference", 200),
  reason: reasonField(),
});

export const RefundFormSchema = formSchema(RefundSchema.extend({ idempotencyKey: optionalText("Request key", 200) }));

export const refundFormConstraint: FormConstraint = {
  amount: { required: true },
  reference: { maxLength: 200 },
  reason: { required: true, maxLength: REASON_MAX },
};

/** Apply Credit: a client credit moved to another invoice of the same client that still owes. */
export const ApplyCreditSchema = z.object({
  toInvoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
});

export const ApplyCreditFormSchema = formSchema(
  ApplyCreditSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const applyCreditFormConstraint: FormConstraint = {
  toInvoiceId: { required: true },
  amount: { required: true },
};

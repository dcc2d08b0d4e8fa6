import * as z from "zod";
import { reasonField } from "./corrections";
import { calendarDate, constraintOf, formSchema, optionalText, requiredDecimal, requiredId } from "./fields";

/** Record Payment's fields: the write parses with this, the form and its constraints derive from it. */
export const PaymentSchema = z.object({
  invoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  paymentDate: calendarDate("Payment date", { required: false }),
  reference: optionalText("Reference", 200),
});

/**
 * The Record Payment form: the write's fields but the invoice (the dialog's address names it),
 * and the form's request key. The write has the last word on them (it words a bad amount as
 * "Please enter a valid payment amount" and checks the date against the invoice), so the action
 * always asks it and answers with its refusal.
 */
export const RecordPaymentFormSchema = formSchema(
  PaymentSchema.omit({ invoiceId: true }).extend({ idempotencyKey: optionalText("Request key", 200) }),
);

/** The dialog shows today's date and requires one: a payment is never dated after today. */
export const recordPaymentFormConstraint = (today: string) =>
  constraintOf(PaymentSchema.omit({ invoiceId: true }), { paymentDate: { required: true, max: today } });

/** Reverse Payment (a payment recorded in error): why, kept with the reversal. */
export const PaymentReversalSchema = z.object({ reason: reasonField() });

export const PaymentReversalFormSchema = formSchema(
  PaymentReversalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const paymentReversalFormConstraint = constraintOf(PaymentReversalSchema);

/** Refund Credit: money paid back to the client out of the credit an invoice carries. */
export const RefundSchema = z.object({
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  paymentDate: calendarDate("Refund date", { required: false }),
  reference: optionalText("Reference", 200),
  reason: reasonField(),
});

export const RefundFormSchema = formSchema(RefundSchema.extend({ idempotencyKey: optionalText("Request key", 200) }));

export const refundFormConstraint = constraintOf(RefundSchema);

/** Apply Credit: a client credit moved to another invoice of the same client that still owes. */
export const ApplyCreditSchema = z.object({
  toInvoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
});

export const ApplyCreditFormSchema = formSchema(
  ApplyCreditSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const applyCreditFormConstraint = constraintOf(ApplyCreditSchema);

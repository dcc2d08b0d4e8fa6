import * as z from "zod";
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

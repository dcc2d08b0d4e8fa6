import * as z from "zod";
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";
import { calendarDate, optionalText, requiredDecimal, formSchema, type FormConstraint } from "./fields";

/**
 * The Record Payment form's fields. The payment model has the last word on them (it words a
 * bad amount as "Please enter a valid payment amount" and checks the date against the invoice),
 * so the action always asks it and answers with its refusal.
 */
export const RecordPaymentFormSchema = formSchema(
  z.object({
    amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
    paymentDate: calendarDate("Payment date", { required: false }),
    reference: optionalText("Reference", 200),
    idempotencyKey: optionalText("Request key", 200),
  }),
);

export const recordPaymentFormConstraint = (today: string): FormConstraint => ({
  amount: { required: true },
  paymentDate: { required: true, min: EARLIEST_BUSINESS_DATE, max: today },
  reference: { maxLength: 200 },
});

// The writes on an invoice: issuing one for a delivery, voiding it, crediting it and taking a
// credit back (docs/decisions/0920). Each write parses with its schema here; its form and the
// form's browser constraints derive from the same schema (decision 0820), the write keeps the
// last word (limits, states).
import * as z from "zod";
import { parseId, parseInvoiceNo } from "~/utils/params";
import { isYearMonth } from "~/utils/year-month";
import { reasonField } from "./corrections";
import { constraintOf, formSchema, optionalId, optionalText, requiredDecimal, requiredId } from "./fields";

const SELECT_DELIVERY = "Please select a delivery";
const INVOICE_NO_NUMERIC = "Invoice number must be numeric";

/**
 * Generate Invoice (the dialog, POST /api/invoices): the delivery, and over the API a number
 * chosen by hand, which must be the next one (decision 0501). Every figure comes from the database.
 */
export const CreateInvoiceSchema = z.object({
  deliveryId: z.unknown().transform((value, ctx) => {
    const id = parseId(value);
    if (id === null) {
      ctx.addIssue({ code: "custom", message: SELECT_DELIVERY });
      return z.NEVER;
    }
    return id;
  }),
  invoiceNo: z.unknown().transform((value, ctx): string | undefined => {
    if (value === undefined || value === null || value === "") return undefined;
    const no = parseInvoiceNo(value);
    if (no === null) {
      ctx.addIssue({ code: "custom", message: INVOICE_NO_NUMERIC });
      return z.NEVER;
    }
    return no;
  }),
});

/**
 * Create Month Invoices (the reconciliation's confirmation): the month, and the first number the
 * confirmation showed, which must still be the next (decision 0501).
 */
export const MonthInvoicesSchema = z.object({
  month: z.unknown().transform((value, ctx) => {
    if (typeof value !== "string" || !isYearMonth(value)) {
      ctx.addIssue({ code: "custom", message: "Choose a month" });
      return z.NEVER;
    }
    return value;
  }),
  expectedNo: z.unknown().transform((value, ctx): string | null => {
    if (value === undefined || value === null) return null;
    const no = parseInvoiceNo(value);
    if (no === null) {
      ctx.addIssue({ code: "custom", message: "The invoice number shown must be a number" });
      return z.NEVER;
    }
    return no;
  }),
});

const requestKey = () => optionalText("Request key", 200);

/** Void: why, kept on the invoice. The invoice is the one the dialog's address names. */
export const VoidInvoiceSchema = z.object({ invoiceId: requiredId("Invoice"), reason: reasonField() });

export const VoidInvoiceFormSchema = formSchema(VoidInvoiceSchema.omit({ invoiceId: true }));

export const voidInvoiceFormConstraint = constraintOf(VoidInvoiceSchema, {}, ["invoiceId"]);

/** Issue Credit Note: how much of the invoice is credited, and why. */
export const CreditNoteSchema = z.object({
  invoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  reason: reasonField(),
});

export const CreditNoteFormSchema = formSchema(
  CreditNoteSchema.omit({ invoiceId: true }).extend({ idempotencyKey: requestKey() }),
);

export const creditNoteFormConstraint = constraintOf(CreditNoteSchema, {}, ["invoiceId"]);

/**
 * Reverse Credit Note (a credit note issued in error): why, kept as the reversal's reason. With
 * `invoiceId` (the dialog's address names both), a credit note of another invoice is not found.
 */
export const CreditNoteReversalSchema = z.object({
  creditNoteId: requiredId("Credit note"),
  invoiceId: optionalId("Invoice"),
  reason: reasonField(),
});

export const CreditNoteReversalFormSchema = formSchema(
  CreditNoteReversalSchema.omit({ creditNoteId: true, invoiceId: true }).extend({ idempotencyKey: requestKey() }),
);

export const creditNoteReversalFormConstraint = constraintOf(CreditNoteReversalSchema, {}, [
  "creditNoteId",
  "invoiceId",
]);

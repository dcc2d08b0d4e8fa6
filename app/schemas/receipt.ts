// Receipts (docs/decisions/1240): one transfer from a client over one or more of its invoices.
// The write, the JSON call and the form parse with these; the form's constraints derive from them.
import * as z from "zod";
import { reasonField } from "./corrections";
import {
  calendarDate,
  constraintOf,
  formSchema,
  optionalText,
  requiredDecimal,
  requiredId,
  requiredText,
} from "./fields";

/** The most invoices one receipt settles by hand: a transfer pays a client's month, not its history. */
export const MAX_ALLOCATIONS = 200;

const AllocationSchema = z.object({
  invoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount settled", precision: 12, positive: true }),
});

export type Allocation = z.output<typeof AllocationSchema>;

/** The invoices and amounts chosen: absent or blank (allocate automatically), or a list. */
const allocationsField = z.unknown().transform((value, ctx): Allocation[] | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  if (!Array.isArray(value)) {
    ctx.addIssue({ code: "custom", message: "Allocations must be a list of invoices and amounts" });
    return z.NEVER;
  }
  // A form's rows left blank are not allocations.
  const rows = value.filter(
    (row) =>
      !(
        row &&
        typeof row === "object" &&
        !(row as { invoiceId?: unknown }).invoiceId &&
        !(row as { amount?: unknown }).amount
      ),
  );
  if (rows.length > MAX_ALLOCATIONS) {
    ctx.addIssue({ code: "custom", message: `A receipt settles at most ${MAX_ALLOCATIONS} invoices` });
    return z.NEVER;
  }
  const out: Allocation[] = [];
  for (const [i, row] of rows.entries()) {
    const parsed = AllocationSchema.safeParse({
      invoiceId: "",
      amount: "",
      ...(row && typeof row === "object" ? row : {}),
    });
    if (!parsed.success) {
      ctx.addIssue({ code: "custom", message: `Allocation ${i + 1}: ${parsed.error.issues[0]?.message}` });
      return z.NEVER;
    }
    out.push(parsed.data);
  }
  const ids = out.map((a) => a.invoiceId);
  if (new Set(ids).size !== ids.length) {
    ctx.addIssue({ code: "custom", message: "Each invoice is allocated at most once" });
    return z.NEVER;
  }
  return out.length ? out : undefined;
});

export const ReceiptSchema = z.object({
  clientId: requiredId("Client"),
  date: calendarDate("Date", { required: false }),
  amount: requiredDecimal({ label: "Amount received", precision: 12, positive: true }),
  reference: optionalText("Bank reference", 200),
  allocations: allocationsField,
});

export type ReceiptInput = z.output<typeof ReceiptSchema>;

export const RecordReceiptFormSchema = formSchema(
  ReceiptSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const recordReceiptFormConstraint = (today: string) =>
  constraintOf(ReceiptSchema.omit({ allocations: true }), { date: { required: true, max: today } });

/** Reverse Receipt (recorded in error): why, kept on the reversal of each of its payments. */
export const ReceiptReversalSchema = z.object({ reason: reasonField() });

export const ReceiptReversalFormSchema = formSchema(
  ReceiptReversalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

/** A withholding's certificate (the client's credit note for it): its number and the day it came. */
export const CertificateSchema = z.object({
  certificateNo: requiredText("Certificate number", 100),
  receivedOn: calendarDate("Date received", { required: true }),
});

export const CertificateFormSchema = formSchema(
  CertificateSchema.extend({
    withholdingId: optionalText("Withholding", 20),
    idempotencyKey: optionalText("Request key", 200),
  }),
);

// The bank statement import (docs/decisions/1241): the account and its column mapping, as the
// form and POST /api/bank-statements send them; a line's match, as Confirm and
// POST /api/bank-lines/{id}/match send it.
import * as z from "zod";
import { constraintOf, formSchema, optionalId, optionalText, requiredId, requiredText } from "./fields";

/** The date formats offered (date-fns' words); app/rules/bank-statement.server.ts reads them. */
export const DATE_FORMAT_CHOICES = [
  "dd/MM/yyyy",
  "MM/dd/yyyy",
  "yyyy-MM-dd",
  "dd-MM-yyyy",
  "dd-MMM-yyyy",
  "dd MMM yyyy",
  "dd-MMM-yy",
  "yyyy/MM/dd",
] as const;

const column = (label: string) => optionalText(label, 100);

const StatementFields = z.object({
  bankAccountId: optionalId("Bank account"),
  accountName: optionalText("New account name", 100),
  accountNo: optionalText("Account number", 30),
  dateColumn: requiredText("Date column", 100),
  dateFormat: z.enum(DATE_FORMAT_CHOICES, {
    error: `Date format must be one of ${DATE_FORMAT_CHOICES.join(", ")}`,
  }),
  narrationColumn: requiredText("Narration column", 100),
  referenceColumn: column("Reference column"),
  amountStyle: z.enum(["signed", "split"], {
    error: 'Amounts must be "signed" (one column) or "split" (credit and debit columns)',
  }),
  amountColumn: column("Amount column"),
  creditColumn: column("Credit column"),
  debitColumn: column("Debit column"),
});

export const StatementMappingSchema = StatementFields.superRefine((v, ctx) => {
  if (!v.bankAccountId && !v.accountName)
    ctx.addIssue({ code: "custom", path: ["bankAccountId"], message: "Choose a bank account or name a new one" });
  if (v.amountStyle === "signed" && !v.amountColumn)
    ctx.addIssue({ code: "custom", path: ["amountColumn"], message: "Amount column is required for signed amounts" });
  if (v.amountStyle === "split" && !v.creditColumn)
    ctx.addIssue({ code: "custom", path: ["creditColumn"], message: "Credit column is required" });
});

export type StatementMappingInput = z.output<typeof StatementMappingSchema>;

export const StatementFormSchema = formSchema(StatementFields);
export const statementFormConstraint = () => constraintOf(StatementFields, {}, ["bankAccountId", "accountName"]);

/** Confirm: the client, and the invoices in the order the cash settles them (none: oldest due first). */
export const BankMatchSchema = z.object({
  clientId: requiredId("Client"),
  invoiceIds: z.unknown().transform((value, ctx): number[] => {
    if (value === undefined || value === null || value === "") return [];
    const list = Array.isArray(value) ? value : String(value).split(",");
    const ids = list.map((x) => Number(typeof x === "string" ? x.trim() : x));
    if (list.length > 50 || ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) {
      ctx.addIssue({ code: "custom", message: "Invoices must be a list of at most 50 invoice ids" });
      return z.NEVER;
    }
    if (new Set(ids).size !== ids.length) {
      ctx.addIssue({ code: "custom", message: "Each invoice is named once" });
      return z.NEVER;
    }
    return ids;
  }),
});

export type BankMatchInput = z.output<typeof BankMatchSchema>;

const LINE_STATUSES = ["unmatched", "matched", "not_receipt"] as const;

/** The lines' filter (`status`), from a page's or a JSON call's query. */
export function parseBankLineFilters(params: URLSearchParams): {
  filters: { status?: (typeof LINE_STATUSES)[number] };
  invalid: string | null;
} {
  const status = params.get("status")?.trim();
  if (!status) return { filters: {}, invalid: null };
  if (!(LINE_STATUSES as readonly string[]).includes(status))
    return { filters: {}, invalid: `status must be one of ${LINE_STATUSES.join(", ")}` };
  return { filters: { status: status as (typeof LINE_STATUSES)[number] }, invalid: null };
}

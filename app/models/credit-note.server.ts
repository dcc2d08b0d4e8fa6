// Credit notes (docs/decisions/0920): the correction of an issued invoice, paid or not, that
// never rewrites it. Each has its own gapless number (CN-1, CN-2, ...) from the one-row
// credit_note_counter, bumped in the creating transaction like the invoice counter (decision
// 0501). Issuing and reversing one are commands under app/services/invoices (decision 0805).
import { eq, sql } from "drizzle-orm";
import { schema, type CreditNote, type Invoice, type Tx } from "~/db.server";
import { statusAfterSettlement } from "~/rules/invoices.server";
import { sub, toFixed } from "~/utils/money";
import { outerColumn } from "./outer-column.server";

const CREDIT_NOTE_PREFIX = "CN-";
export const VOID_INVOICE_CREDIT = "This invoice is void: a void invoice takes no credit note";
export const FULLY_CREDITED = "This invoice is already fully credited";

/** Takes the next CN number, holding the counter row until commit: unique and gapless. */
export async function claimCreditNoteNumber(tx: Tx): Promise<string> {
  const [row] = await tx
    .insert(schema.creditNoteCounter)
    .values({ id: 1, lastNo: 1 })
    .onConflictDoUpdate({
      target: schema.creditNoteCounter.id,
      set: { lastNo: sql`${schema.creditNoteCounter.lastNo} + 1` },
    })
    .returning({ lastNo: schema.creditNoteCounter.lastNo });
  return `${CREDIT_NOTE_PREFIX}${row.lastNo}`;
}

/** A credit note as issued: numbered (only a reversal has no number). */
export type IssuedCreditNote = CreditNote & { creditNoteNo: string };

export const issued = (row: CreditNote): IssuedCreditNote => {
  if (row.creditNoteNo === null) throw new Error(`credit note ${row.id} is a reversal`);
  return { ...row, creditNoteNo: row.creditNoteNo };
};

/**
 * Sets the invoice's credited total to `amountCredited` (a credit note issued or taken back) and
 * its status with it; the invoice row is locked. Returns the invoice as it now is, and what the
 * audit event records of it before and after.
 */
export async function setAmountCredited(tx: Tx, invoice: Invoice, amountCredited: string, now: Date) {
  const paymentStatus = statusAfterSettlement({ ...invoice, amountCredited });
  const [updated] = await tx
    .update(schema.invoices)
    .set({ amountCredited, paymentStatus, updatedAt: now })
    .where(eq(schema.invoices.id, invoice.id))
    .returning();
  return {
    updated,
    before: {
      invoiceNo: invoice.invoiceNo,
      amountCredited: invoice.amountCredited,
      paymentStatus: invoice.paymentStatus,
    },
    after: { invoiceNo: invoice.invoiceNo, amountCredited, paymentStatus },
  };
}

export const CREDIT_NOTE_NOT_FOUND = "Credit note not found";
export const CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE = "A reversal cannot itself be reversed";

/** A column of the outer query's credit_notes row (see outerColumn). */
const outer = (column: string) => outerColumn(schema.creditNotes, column);

/** The number of the credit note a reversal (the row in the outer query) takes back, or null. */
export const reversedCreditNoteNoSql = () =>
  sql<
    string | null
  >`(select r.credit_note_no from ${schema.creditNotes} r where r.id = ${outer("reverses_credit_note_id")})`;

/** The day a credit note (the row in the outer query) was reversed, or null: one probe of credit_notes_reverses_idx. */
export const creditNoteReversedOnSql = () =>
  sql<
    string | null
  >`(select r.issue_date::text from ${schema.creditNotes} r where r.reverses_credit_note_id = ${outer("id")})`;

/** A credit note entry as the invoice page and the credit note lists show it. */
export type CreditNoteEntryView = {
  id: number;
  /** Null on a reversal, which has no number of its own. */
  creditNoteNo: string | null;
  /** Negative on a reversal. */
  amount: string;
  reason: string;
  issueDate: string;
  createdAt: string;
  /** On a reversal: the credit note it takes back, and its number; its reason is `reason`. */
  reversesCreditNoteId: number | null;
  reversesCreditNoteNo: string | null;
  /** On a credit note that was reversed: the day of its reversal. */
  reversedOn: string | null;
};

/** A credit note entry's own columns, as the invoice page and the credit note lists show them. */
export const creditNoteEntryColumns = () => ({
  id: schema.creditNotes.id,
  creditNoteNo: schema.creditNotes.creditNoteNo,
  amount: schema.creditNotes.amount,
  reason: schema.creditNotes.reason,
  issueDate: schema.creditNotes.issueDate,
  createdAt: schema.creditNotes.createdAt,
  reversesCreditNoteId: schema.creditNotes.reversesCreditNoteId,
  reversesCreditNoteNo: reversedCreditNoteNoSql(),
  reversedOn: creditNoteReversedOnSql(),
});

/** What remains creditable on an invoice (amount less earlier credits), for the dialog. */
export const creditableOf = (invoice: Pick<Invoice, "amount" | "amountCredited">) =>
  toFixed(sub(invoice.amount, invoice.amountCredited));

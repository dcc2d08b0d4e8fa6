// Credit notes as pages and the API list them: GET /api/credit-notes (newest first, keyset-paged
// on id like invoices), the CSV's batches, and the one the Reverse Credit Note dialog shows.
import { and, eq } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { creditNoteEntryColumns, creditNoteReversedOnSql, type CreditNoteEntryView } from "~/models/credit-note.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export type CreditNoteToReverse = {
  creditNote: { id: number; creditNoteNo: string; amount: string; issueDate: string; reason: string };
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  /** The day it was reversed, when it was. */
  reversedOn: string | null;
};

/** A credit note as the Reverse Credit Note dialog shows it; null for none, a reversal, or one of another invoice. */
export async function getCreditNoteToReverse(
  actor: Actor,
  creditNoteId: number,
  invoiceId?: number,
): Promise<CreditNoteToReverse | null> {
  assertCan(actor, "credit_note.reverse", `credit_note/${creditNoteId}`);
  const c = schema.creditNotes;
  const db = await getDb();
  const [row] = await db
    .select({
      creditNote: {
        id: c.id,
        creditNoteNo: c.creditNoteNo,
        amount: c.amount,
        issueDate: c.issueDate,
        reason: c.reason,
      },
      invoiceId: c.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
      reversedOn: creditNoteReversedOnSql(),
    })
    .from(c)
    .innerJoin(schema.invoices, eq(schema.invoices.id, c.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(eq(c.id, creditNoteId));
  if (!row || row.creditNote.creditNoteNo === null) return null;
  if (invoiceId !== undefined && row.invoiceId !== invoiceId) return null;
  return { ...row, creditNote: { ...row.creditNote, creditNoteNo: row.creditNote.creditNoteNo } };
}

export const CREDIT_NOTE_PAGE_SIZE = 50;
const KEYSET = { id: schema.creditNotes.id };

export type CreditNoteFilters = { invoiceId?: number };

/** A credit note as the list shows it: its entry and the invoice it is on. */
export type CreditNoteView = CreditNoteEntryView & { invoiceId: number; invoiceNo: string; clientName: string };

export async function listCreditNotes(
  actor: Actor,
  filters: CreditNoteFilters = {},
  { limit = CREDIT_NOTE_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<CreditNoteView>> {
  assertCan(actor, "credit_note.create", "credit-notes");
  const rows = await creditNotePageQuery(await getDb(), filters, page, limit);
  const result = toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
  return { ...result, items: result.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

export function creditNotePageQuery(db: Executor, filters: CreditNoteFilters, page: PageRequest, limit: number) {
  const c = schema.creditNotes;
  return db
    .select({
      ...creditNoteEntryColumns(),
      invoiceId: c.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
    })
    .from(c)
    .innerJoin(schema.invoices, eq(schema.invoices.id, c.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(filters.invoiceId ? eq(c.invoiceId, filters.invoiceId) : undefined, keysetWhere(KEYSET, page)))
    .orderBy(...keysetOrder(KEYSET, page))
    .limit(limit + 1);
}

/** Every matching credit note, newest first, in keyset batches; the capability is checked when called. */
export function creditNoteBatches(
  actor: Actor,
  filters: CreditNoteFilters = {},
  batchSize = 1000,
): AsyncGenerator<CreditNoteView[]> {
  assertCan(actor, "credit_note.create", "credit-notes");
  return keysetBatches(
    (page) => listCreditNotes(actor, filters, { limit: batchSize, page }),
    (last) => ({ key: null, id: last.id }),
  );
}

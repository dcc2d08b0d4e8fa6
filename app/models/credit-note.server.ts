// Credit notes (issue 14, docs/decisions/0920): the correction of an issued invoice, paid or
// not, that never rewrites it. Each has its own gapless number (CN-1, CN-2, ...) from the one-row
// credit_note_counter, bumped in the creating transaction like the invoice counter (decision 0501).
import { and, eq, sql } from "drizzle-orm";
import { parseFields } from "~/schemas/parse-fields.server";
import { getDb, schema, type CreditNote, type Executor, type Invoice, type Tx } from "~/db.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { isVoid, statusAfterSettlement } from "~/rules/invoices.server";
import { CreditNoteReversalSchema, CreditNoteSchema } from "~/schemas/corrections";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import {
  claimKey,
  completeKey,
  deleteOldKeys,
  idempotencyFailure,
  INVALID_KEY_MESSAGE,
  requestHash,
} from "~/utils/idempotency.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { add, compare, formatNaira, sub, toFixed } from "~/utils/money";
import { type Page, type PageRequest } from "~/utils/params";
import { fail, type Failure, Refusal } from "~/utils/result";
import { recordAudit } from "./audit.server";
import { outerColumn } from "./outer-column.server";
import { assertPeriodOpen, checkPeriodOpen, isPeriodClosed } from "./period.server";

export const CREDIT_NOTE_PREFIX = "CN-";
export const VOID_INVOICE_CREDIT = "This invoice is void: a void invoice takes no credit note";
export const FULLY_CREDITED = "This invoice is already fully credited";

/** Takes the next CN number, holding the counter row until commit: unique and gapless. */
async function claimCreditNoteNumber(tx: Tx): Promise<string> {
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

const issued = (row: CreditNote): IssuedCreditNote => {
  if (row.creditNoteNo === null) throw new Error(`credit note ${row.id} is a reversal`);
  return { ...row, creditNoteNo: row.creditNoteNo };
};

export type CreateCreditNoteResult =
  { ok: true; creditNote: IssuedCreditNote; invoice: Invoice; replayed: boolean } | Failure;

/**
 * Issues a credit note of `amount` against an invoice that is not void: at most the invoice
 * amount less earlier credits (a credit beyond what is unpaid leaves the client a credit
 * balance). The invoice row is locked first, as payments lock it, so credits and payments
 * racing on one invoice queue and each sees what the others settled.
 */
export async function createCreditNote(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: { idempotencyKey?: string | null } = {},
): Promise<CreateCreditNoteResult> {
  const refused = refuse(actor, "credit_note.create", `invoice/${invoiceId}/credit-notes`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const parsed = parseFields(CreditNoteSchema, input);
  if (!parsed.ok) return parsed;
  const { amount, reason } = parsed.data;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<CreateCreditNoteResult> => {
      // The key is claimed first: a duplicate waits for the first to commit, then replays it.
      if (idempotencyKey) {
        const hash = requestHash({ invoiceId, amount, reason });
        const existing = await claimKey(tx, {
          userId: actor.id,
          key: idempotencyKey,
          scope: "credit_note.create",
          hash,
        });
        if (existing) {
          const [creditNote] = await tx
            .select()
            .from(schema.creditNotes)
            .where(eq(schema.creditNotes.id, Number(existing)));
          const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
          if (!creditNote || !invoice) throw new Refusal(fail(409, "This credit note was already issued"));
          return { ok: true, creditNote: issued(creditNote), invoice, replayed: true };
        }
      }
      const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
      if (!invoice) throw new Refusal(fail(404, "Invoice not found"));
      if (isVoid(invoice)) throw new Refusal(fail(409, VOID_INVOICE_CREDIT));
      const limit = sub(invoice.amount, invoice.amountCredited);
      if (compare(amount, limit) > 0) {
        const message =
          compare(limit, "0") <= 0
            ? FULLY_CREDITED
            : `A credit note can be at most ${formatNaira(limit)} (the invoice amount less earlier credits)`;
        throw new Refusal(fail(409, message, { amount: [message] }));
      }
      // A credit note is dated the day it is issued: not in a closed month (decision 0901).
      const issueDate = todayIn(env().APP_TIME_ZONE, now);
      await assertPeriodOpen(tx, issueDate);
      const creditNoteNo = await claimCreditNoteNumber(tx);
      const [creditNote] = await tx
        .insert(schema.creditNotes)
        .values({
          creditNoteNo,
          invoiceId,
          amount,
          reason,
          issueDate,
          createdBy: actor.id,
        })
        .returning();
      const amountCredited = toFixed(add(invoice.amountCredited, amount));
      const paymentStatus = statusAfterSettlement({ ...invoice, amountCredited });
      const [updated] = await tx
        .update(schema.invoices)
        .set({ amountCredited, paymentStatus, updatedAt: now })
        .where(eq(schema.invoices.id, invoiceId))
        .returning();
      await recordAudit(tx, {
        actor,
        action: "credit_note.create",
        entityType: "credit_note",
        entityId: creditNote.id,
        before: {
          invoiceId,
          invoiceNo: invoice.invoiceNo,
          amountCredited: invoice.amountCredited,
          paymentStatus: invoice.paymentStatus,
        },
        after: { ...creditNote, invoiceNo: invoice.invoiceNo, amountCredited, paymentStatus },
      });
      if (idempotencyKey) {
        await completeKey(tx, { userId: actor.id, key: idempotencyKey, resourceId: String(creditNote.id) });
        await deleteOldKeys(tx, now);
      }
      return { ok: true, creditNote: issued(creditNote), invoice: updated, replayed: false };
    });
  } catch (error) {
    // A refusal rolls the transaction back: its number and its key are free again.
    if (error instanceof Refusal) return error.failure;
    if (isPeriodClosed(error)) return error.failure;
    return idempotencyFailure(error);
  }
}

export const CREDIT_NOTE_NOT_FOUND = "Credit note not found";
export const CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE = "A reversal cannot itself be reversed";

export type ReverseCreditNoteResult =
  | {
      ok: true;
      reversal: CreditNote;
      creditNote: IssuedCreditNote;
      invoice: Invoice;
      replayed: boolean;
    }
  | Failure;

/**
 * Takes back a credit note issued in error (the wrong amount, the wrong invoice). The credit note
 * stays as it was, number and all; a reversal row of the opposite amount, without a number of its
 * own, dated today (APP_TIME_ZONE) and naming the credit note, is added, and the invoice's
 * credited total and status follow in the same transaction, so the invoice is owed the amount
 * again and can take a corrected credit note. A credit note is reversed at most once: the invoice
 * row is locked first, as credit notes and payments lock it, and a unique index backs it. The
 * reason is required. Idempotent under `idempotencyKey`, refused when today's month is closed,
 * audited in the same transaction (docs/decisions/0920, addendum). With `invoiceId`, a credit
 * note of another invoice is not found (the dialog's address names both).
 */
export async function reverseCreditNote(
  actor: Actor,
  creditNoteId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey, invoiceId }: { idempotencyKey?: string | null; invoiceId?: number } = {},
): Promise<ReverseCreditNoteResult> {
  const refused = refuse(actor, "credit_note.reverse", `credit_note/${creditNoteId}/reversal`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const parsed = parseFields(CreditNoteReversalSchema, input);
  if (!parsed.ok) return parsed;
  const { reason } = parsed.data;
  const today = todayIn(env().APP_TIME_ZONE, now);
  const c = schema.creditNotes;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<ReverseCreditNoteResult> => {
      if (idempotencyKey) {
        const existing = await claimKey(tx, {
          userId: actor.id,
          key: idempotencyKey,
          scope: "credit_note.reverse",
          hash: requestHash({ creditNoteId, reason }),
        });
        if (existing) {
          const [reversal] = await tx
            .select()
            .from(c)
            .where(eq(c.id, Number(existing)));
          const [creditNote] = reversal
            ? await tx.select().from(c).where(eq(c.id, reversal.reversesCreditNoteId!))
            : [];
          const [invoice] = creditNote
            ? await tx.select().from(schema.invoices).where(eq(schema.invoices.id, creditNote.invoiceId))
            : [];
          if (!reversal || !creditNote || !invoice) throw new Refusal(fail(409, "This reversal was already recorded"));
          return { ok: true, reversal, creditNote: issued(creditNote), invoice, replayed: true };
        }
      }
      // Read once: a credit note never changes (append-only, migration 0014).
      const [creditNote] = await tx.select().from(c).where(eq(c.id, creditNoteId));
      if (!creditNote || (invoiceId !== undefined && creditNote.invoiceId !== invoiceId)) {
        throw new Refusal(fail(404, CREDIT_NOTE_NOT_FOUND));
      }
      // Locked next: two reversals of one credit note queue here, and the second finds the first.
      const [invoice] = await tx
        .select()
        .from(schema.invoices)
        .where(eq(schema.invoices.id, creditNote.invoiceId))
        .for("update");
      if (creditNote.reversesCreditNoteId !== null) throw new Refusal(fail(409, CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE));
      const [earlier] = await tx.select().from(c).where(eq(c.reversesCreditNoteId, creditNoteId));
      if (earlier) {
        throw new Refusal(
          fail(409, `Credit note ${creditNote.creditNoteNo} was already reversed on ${formatDate(earlier.issueDate)}`),
        );
      }
      const closed = await checkPeriodOpen(tx, today);
      if (closed) throw new Refusal(closed);
      const [reversal] = await tx
        .insert(c)
        .values({
          creditNoteNo: null,
          invoiceId: creditNote.invoiceId,
          amount: toFixed(sub("0", creditNote.amount)),
          reason,
          issueDate: today,
          reversesCreditNoteId: creditNote.id,
          createdBy: actor.id,
        })
        .returning();
      const amountCredited = toFixed(sub(invoice.amountCredited, creditNote.amount));
      const paymentStatus = statusAfterSettlement({ ...invoice, amountCredited });
      const [updated] = await tx
        .update(schema.invoices)
        .set({ amountCredited, paymentStatus, updatedAt: now })
        .where(eq(schema.invoices.id, invoice.id))
        .returning();
      await recordAudit(tx, {
        actor,
        action: "credit_note.reverse",
        entityType: "credit_note",
        entityId: creditNote.id,
        before: {
          ...creditNote,
          invoiceNo: invoice.invoiceNo,
          amountCredited: invoice.amountCredited,
          paymentStatus: invoice.paymentStatus,
        },
        after: { ...reversal, invoiceNo: invoice.invoiceNo, amountCredited, paymentStatus },
      });
      if (idempotencyKey) {
        await completeKey(tx, { userId: actor.id, key: idempotencyKey, resourceId: String(reversal.id) });
        await deleteOldKeys(tx, now);
      }
      return { ok: true, reversal, creditNote: issued(creditNote), invoice: updated, replayed: false };
    });
  } catch (error) {
    // A refusal rolls the transaction back, so its key is free for a corrected retry.
    if (error instanceof Refusal) return error.failure;
    return idempotencyFailure(error);
  }
}

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

/** What remains creditable on an invoice (amount less earlier credits), for the dialog. */
export const creditableOf = (invoice: Pick<Invoice, "amount" | "amountCredited">) =>
  toFixed(sub(invoice.amount, invoice.amountCredited));

// ---- GET /api/credit-notes: newest first, keyset-paged on id like invoices.

export const CREDIT_NOTE_PAGE_SIZE = 50;
const KEYSET = { id: schema.creditNotes.id };

export type CreditNoteFilters = { invoiceId?: number };

export type CreditNoteView = {
  id: number;
  /** Null on a reversal, which has no number of its own. */
  creditNoteNo: string | null;
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
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

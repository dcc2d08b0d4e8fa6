// The payments as pages show them (decision 0300): the Payments list with its totals and its
// export batches, the Reverse Payment dialog's entry, and Apply Credit's choice of invoices.
// Reads only; the writes are commands in app/services/payments/ (decision 0805).
import { and, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { paymentLinkColumns, reversedOnSql, type Payment, type ReversedKind } from "~/models/payment.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { balanceOf, owedSql } from "~/rules/invoices.server";
import type { PaymentFilters } from "~/schemas/payment-filters";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

/** A payments row as /api answers it: its creation time in ISO 8601. */
export const entryJson = (entry: Payment) => ({ ...entry, createdAt: entry.createdAt.toISOString() });

/** An entry and its invoice after it, as /api answers a reversal or a refund. */
export const entryOnInvoiceJson = (
  entry: Payment,
  { invoiceNo, paymentStatus, amountPaid }: { invoiceNo: string; paymentStatus: string; amountPaid: string },
) => ({ ...entryJson(entry), invoiceNo, paymentStatus, amountPaid });

export type CreditMoveTarget = { id: number; invoiceNo: string; balance: string; expectedPaymentDate: string };

export const CREDIT_MOVE_TARGETS = 50;

/**
 * The invoices of `clientId` that still owe, oldest due first, for Apply Credit's choice: at most
 * CREDIT_MOVE_TARGETS, read through invoices_client_owed_due_idx.
 */
export async function listCreditMoveTargets(actor: Actor, clientId: number, exceptInvoiceId: number) {
  assertCan(actor, "payment.record", `client/${clientId}/owed-invoices`);
  const rows = await creditMoveTargetsQuery(await getDb(), clientId, exceptInvoiceId);
  return rows.map<CreditMoveTarget>((r) => ({
    id: r.id,
    invoiceNo: r.invoiceNo,
    balance: balanceOf(r),
    expectedPaymentDate: r.expectedPaymentDate,
  }));
}

/** The query itself (the scale test EXPLAINs it). */
export function creditMoveTargetsQuery(db: Executor, clientId: number, exceptInvoiceId: number) {
  const i = schema.invoices;
  return db
    .select({
      id: i.id,
      invoiceNo: i.invoiceNo,
      amount: i.amount,
      amountPaid: i.amountPaid,
      amountCredited: i.amountCredited,
      amountWithheld: i.amountWithheld,
      paymentStatus: i.paymentStatus,
      expectedPaymentDate: i.expectedPaymentDate,
    })
    .from(i)
    .where(and(eq(i.clientId, clientId), owedSql(), sql`${i.id} <> ${exceptInvoiceId}`))
    .orderBy(i.expectedPaymentDate, i.id)
    .limit(CREDIT_MOVE_TARGETS);
}

export type PaymentToReverse = {
  /**
   * `refund` marks a refund to the client (negative): its reversal gives the client the credit
   * back. On half of a credit move, the other invoice's number: the move is reversed as a whole.
   */
  payment: {
    id: number;
    amount: string;
    paymentDate: string;
    reference: string | null;
    refund: boolean;
    creditMovedToInvoiceNo: string | null;
    creditFromInvoiceNo: string | null;
  };
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  /** The day it was reversed, when it was. */
  reversedOn: string | null;
};

/** A payment as the Reverse Payment dialog shows it; null for none (or a reversal). */
export async function getPaymentToReverse(actor: Actor, paymentId: number): Promise<PaymentToReverse | null> {
  assertCan(actor, "payment.reverse", `payment/${paymentId}`);
  const p = schema.payments;
  const db = await getDb();
  const [row] = await db
    .select({
      payment: {
        id: p.id,
        amount: p.amount,
        paymentDate: p.paymentDate,
        reference: p.reference,
        refund: p.refund,
        ...paymentLinkColumns(),
      },
      reversesPaymentId: p.reversesPaymentId,
      invoiceId: p.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
      reversedOn: reversedOnSql(),
    })
    .from(p)
    .innerJoin(schema.invoices, eq(schema.invoices.id, p.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(eq(p.id, paymentId));
  if (!row || row.reversesPaymentId !== null) return null;
  const { reversesPaymentId: _r, ...shown } = row;
  return shown;
}

export const PAYMENT_PAGE_SIZE = 50;

const invoiceIdOfNumber = (no: string) =>
  sql`(select ${schema.invoices.id} from ${schema.invoices} where ${schema.invoices.invoiceNo} = ${no})`;

function paymentWhere(f: PaymentFilters): SQL[] {
  const where: SQL[] = [];
  if (f.from) where.push(gte(schema.payments.paymentDate, f.from));
  if (f.to) where.push(lte(schema.payments.paymentDate, f.to));
  if (f.clientId) where.push(eq(schema.invoices.clientId, f.clientId));
  if (f.invoiceNo) where.push(sql`${schema.payments.invoiceId} = ${invoiceIdOfNumber(f.invoiceNo)}`);
  if (f.reference) where.push(referenceStartsWith(f.reference));
  return where;
}

/**
 * A reference search matches the start of the reference, ignoring case: `lower(reference) like
 * 'trf-12%'`, which the index on lower(reference) text_pattern_ops answers with the payments it
 * matches, however many payments there are. A match anywhere in the text (`%trf%`) had no index
 * to use and read every payment (decision 0502).
 */
function referenceStartsWith(text: string): SQL {
  const prefix = text.replace(/[\\%_]/g, (c) => "\\" + c) + "%";
  return sql`lower(${schema.payments.reference}) like lower(${prefix})`;
}

const PAYMENT_KEYSET = { key: schema.payments.paymentDate, id: schema.payments.id };

export type PaymentView = {
  id: number;
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  amount: string;
  paymentDate: string;
  reference: string | null;
  createdAt: string;
  /** On a reversal: the payment it takes back; its reason is `note`. */
  reversesPaymentId: number | null;
  note: string | null;
  /** On a payment that was reversed: the day of its reversal. */
  reversedOn: string | null;
  /** A refund to the client (negative, its reason in `note`). */
  refund: boolean;
  /** On a credit moved between invoices: the other invoice's number (decision 0920). */
  creditMovedToInvoiceNo: string | null;
  creditFromInvoiceNo: string | null;
  /** On a reversal: what it takes back. */
  reversesKind: ReversedKind | null;
};

/** One page of payments, newest payment date first, keyset-paged on (payment date, id). */
export async function listPayments(
  actor: Actor,
  filters: PaymentFilters = {},
  { limit = PAYMENT_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<PaymentView>> {
  assertCan(actor, "payment.record", "payments");
  const rows = await paymentPageQuery(await getDb(), filters, page, limit);
  const result = toPage(rows, limit, page, (r) => ({ key: r.paymentDate, id: r.id }));
  return { ...result, items: result.items.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

/** The page query itself (the scale tests EXPLAIN it). */
export function paymentPageQuery(db: Executor, filters: PaymentFilters, page: PageRequest, limit: number) {
  return db
    .select({
      id: schema.payments.id,
      invoiceId: schema.payments.invoiceId,
      invoiceNo: schema.invoices.invoiceNo,
      clientName: schema.clients.name,
      amount: schema.payments.amount,
      paymentDate: schema.payments.paymentDate,
      reference: schema.payments.reference,
      createdAt: schema.payments.createdAt,
      reversesPaymentId: schema.payments.reversesPaymentId,
      note: schema.payments.note,
      reversedOn: reversedOnSql(),
      refund: schema.payments.refund,
      ...paymentLinkColumns(),
    })
    .from(schema.payments)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.payments.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(...paymentWhere(filters), keysetWhere(PAYMENT_KEYSET, page)))
    .orderBy(...keysetOrder(PAYMENT_KEYSET, page))
    .limit(limit + 1);
}

/** Every matching payment, newest first, in keyset batches; the capability is checked when called. */
export function paymentBatches(
  actor: Actor,
  filters: PaymentFilters = {},
  batchSize = 1000,
): AsyncGenerator<PaymentView[]> {
  assertCan(actor, "payment.record", "payments");
  return keysetBatches(
    (page) => listPayments(actor, filters, { limit: batchSize, page }),
    (last) => ({ key: last.paymentDate, id: last.id }),
  );
}

/**
 * Total Payments (count) and Total Amount (exact sum) for the current filter, in SQL. Date and
 * client filters read the per-day, per-client totals the payment trigger keeps (one row a day
 * a client); an invoice number reads that invoice's payments through their index; only a
 * reference search has to look at the payments themselves (docs/decisions/0500). The count is of
 * payments received that stand: not reversals, refunds or credits moved, nor a payment reversed
 * (decision 0300, "Total Payments").
 */
export async function paymentTotals(actor: Actor, filters: PaymentFilters = {}) {
  assertCan(actor, "payment.record", "payments/totals");
  const [row] = await paymentTotalsQuery(await getDb(), filters);
  return row;
}

export function paymentTotalsQuery(db: Executor, filters: PaymentFilters) {
  if (filters.invoiceNo || filters.reference) {
    // The payments matched, through the invoice's or the reference's index; their invoices only
    // for a client filter.
    const p = schema.payments;
    const matched = db
      .select({
        // Payments received that stand, as payment_day_totals.received counts them (migration 0032);
        // the reversal is looked up through payments_reverses_idx (the outer row named in full:
        // drizzle writes a bare "id" here, which would be the inner row's).
        count: sql<number>`(count(*) filter (where ${p.reversesPaymentId} is null and not ${p.refund}
          and ${p.creditMovedToInvoiceId} is null and ${p.creditFromPaymentId} is null
          and not exists (select 1 from ${p} r where r.reverses_payment_id = "payments"."id")))::int`,
        total: sql<string>`coalesce(sum(${schema.payments.amount}), 0)::numeric(18,2)::text`,
      })
      .from(schema.payments)
      .$dynamic();
    const scoped = filters.clientId
      ? matched.innerJoin(schema.invoices, eq(schema.invoices.id, schema.payments.invoiceId))
      : matched;
    return scoped.where(and(...paymentWhere(filters)));
  }
  const t = schema.paymentDayTotals;
  const where: SQL[] = [];
  if (filters.from) where.push(gte(t.paymentDate, filters.from));
  if (filters.to) where.push(lte(t.paymentDate, filters.to));
  if (filters.clientId) where.push(eq(t.clientId, filters.clientId));
  return db
    .select({
      count: sql<number>`coalesce(sum(${t.received}), 0)::int`,
      total: sql<string>`coalesce(sum(${t.amount}), 0)::numeric(18,2)::text`,
    })
    .from(t)
    .where(and(...where));
}

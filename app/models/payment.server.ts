// Payments as every money write and read sees them (decision 0300): the entry types, the credit
// move's two halves, the lock a write of two invoices takes, and the SQL that links an entry to
// what it reverses or moved. The writes are commands in app/services/payments/ (decision 0805);
// the Payments list and the dialogs' reads are in app/presenters/payments.server.ts.
import { eq, sql, type SQL } from "drizzle-orm";
import { schema, type Executor } from "~/db.server";
import { outerColumn } from "./outer-column.server";

export type Payment = typeof schema.payments.$inferSelect;

/** An invoice's state after a reversal, with the reversal written on it. */
export type ReversedOn = {
  reversal: Payment;
  invoiceNo: string;
  paymentStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  amountPaid: string;
};

/**
 * A write that changes two invoices (a credit move, or its reversal, or a month's batch of new
 * invoices) updates the kept totals of each (decision 0508), through the triggers, and so would
 * take their rows in another order than a write of one invoice takes them: a deadlock. It takes
 * the totals' tables whole instead, after its invoice rows and before it writes:
 * payment_day_totals first, as every write of one invoice takes its payment row first. Writes of
 * one invoice queue behind it for as long as it takes.
 */
export async function lockKeptTotals(tx: Executor) {
  await tx.execute(
    sql`lock table payment_day_totals, client_owed_totals, client_balances, invoice_status_totals, invoice_status_rollup in share row exclusive mode`,
  );
}

/** On a replay: the reversal of a credit move's other entry and its invoice now, or null. */
export async function reversedPartner(tx: Executor, entry: Payment): Promise<ReversedOn | null> {
  const partner = await creditMovePartner(tx, entry);
  if (!partner) return null;
  const p = schema.payments;
  const [reversal] = await tx.select().from(p).where(eq(p.reversesPaymentId, partner.id));
  const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, partner.invoiceId));
  if (!reversal || !invoice) return null;
  return {
    reversal,
    invoiceNo: invoice.invoiceNo,
    paymentStatus: invoice.paymentStatus,
    amountPaid: invoice.amountPaid,
  };
}

/** The other half of a credit moved between invoices (migration 0017), or null for any other entry. */
export async function creditMovePartner(tx: Executor, entry: Payment): Promise<Payment | null> {
  const p = schema.payments;
  if (entry.creditMovedToInvoiceId !== null) {
    const [moveIn] = await tx.select().from(p).where(eq(p.creditFromPaymentId, entry.id));
    return moveIn ?? null;
  }
  if (entry.creditFromPaymentId !== null) {
    const [moveOut] = await tx.select().from(p).where(eq(p.id, entry.creditFromPaymentId));
    return moveOut ?? null;
  }
  return null;
}

const outerPayment = (column: string) => outerColumn(schema.payments, column);

/** The day a payment (the row in the outer query) was reversed, or null: one probe of payments_reverses_idx. */
export const reversedOnSql = () =>
  sql<
    string | null
  >`(select r.payment_date::text from ${schema.payments} r where r.reverses_payment_id = ${outerPayment("id")})`;

/** What a reversal takes back: a payment, a refund, or half of a credit move. */
export type ReversedKind = "payment" | "refund" | "credit move";

/**
 * What an entry links to. On a credit moved between invoices (migration 0017), the other
 * invoice's number: where a credit moved out went, and where a credit moved in came from. On a
 * reversal, the kind of entry it takes back. Null on other entries.
 */
export const paymentLinkColumns = () =>
  paymentLinksSql({
    reversesPaymentId: outerPayment("reverses_payment_id"),
    creditMovedToInvoiceId: outerPayment("credit_moved_to_invoice_id"),
    creditFromPaymentId: outerPayment("credit_from_payment_id"),
  });

/**
 * The lookups of `paymentLinkColumns`, over a payments row's three link columns as SQL (the
 * client statement passes its own alias). Each subquery runs only on the entries it concerns (a
 * case is evaluated lazily): most rows are plain payments and cost nothing here.
 */
export const paymentLinksSql = (row: {
  reversesPaymentId: SQL;
  creditMovedToInvoiceId: SQL;
  creditFromPaymentId: SQL;
}) => ({
  reversesKind: sql<ReversedKind | null>`(case when ${row.reversesPaymentId} is not null then
    (select case when r.refund then 'refund'
        when r.credit_moved_to_invoice_id is not null or r.credit_from_payment_id is not null then 'credit move'
        else 'payment' end
      from ${schema.payments} r where r.id = ${row.reversesPaymentId}) end)`,
  creditMovedToInvoiceNo: sql<string | null>`(case when ${row.creditMovedToInvoiceId} is not null then
    (select x.invoice_no from ${schema.invoices} x where x.id = ${row.creditMovedToInvoiceId}) end)`,
  creditFromInvoiceNo: sql<string | null>`(case when ${row.creditFromPaymentId} is not null then
    (select x.invoice_no from ${schema.payments} y join ${schema.invoices} x on x.id = y.invoice_id
      where y.id = ${row.creditFromPaymentId}) end)`,
});

// The invoice lists: the page and GET /api/invoices (keyset-paged, newest first), the CSV's
// batches, the status summary and the dashboard's most urgent invoices. Reads only.
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import {
  balanceOf,
  clientCreditSql,
  effectiveStatus,
  overdueSql,
  owedSql,
  taxContained,
} from "~/rules/invoices.server";
import type { InvoiceFilters } from "~/schemas/invoice-filters";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export type InvoiceView = {
  id: number;
  invoiceNo: string;
  deliveryId: number;
  clientId: number;
  clientName: string;
  amount: string;
  amountPaid: string;
  amountCredited: string;
  amountWithheld: string;
  /** amount - paid - credited; negative is the client's credit; 0 when void. */
  balance: string;
  taxRate: string;
  /** The tax contained in the (tax-inclusive) amount, to the kobo. */
  taxAmount: string;
  profit: string;
  expectedPaymentDate: string;
  paymentStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  storedStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  voidReason: string | null;
  voidedAt: string | null;
  /** The business date it was issued (decision 0990): the date its document carries. */
  issueDate: string;
  createdAt: string;
};

export const INVOICE_PAGE_SIZE = 50;

const owed = owedSql();

function invoiceWhere(filters: InvoiceFilters, today: string): SQL[] {
  const where: SQL[] = [];
  const overdue = overdueSql(today);
  if (filters.status === "overdue") where.push(overdue);
  else if (filters.status === "pending" || filters.status === "partial") {
    where.push(eq(schema.invoices.paymentStatus, filters.status), sql`not ${overdue}`);
  } else if (filters.status === "paid" || filters.status === "void")
    where.push(eq(schema.invoices.paymentStatus, filters.status));
  else if (filters.status === "credit") where.push(clientCreditSql());
  if (filters.clientId) where.push(eq(schema.invoices.clientId, filters.clientId));
  if (filters.from) where.push(gte(schema.invoices.expectedPaymentDate, filters.from));
  if (filters.to) where.push(lte(schema.invoices.expectedPaymentDate, filters.to));
  if (filters.invoiceNo) where.push(eq(schema.invoices.invoiceNo, filters.invoiceNo));
  if (filters.invoiceIds) where.push(inArray(schema.invoices.id, filters.invoiceIds));
  return where;
}

export const invoiceColumns = {
  id: schema.invoices.id,
  invoiceNo: schema.invoices.invoiceNo,
  deliveryId: schema.invoices.deliveryId,
  clientId: schema.invoices.clientId,
  clientName: schema.clients.name,
  amount: schema.invoices.amount,
  amountPaid: schema.invoices.amountPaid,
  amountCredited: schema.invoices.amountCredited,
  amountWithheld: schema.invoices.amountWithheld,
  taxRate: schema.invoices.taxRate,
  profit: schema.invoices.profit,
  expectedPaymentDate: schema.invoices.expectedPaymentDate,
  paymentStatus: schema.invoices.paymentStatus,
  voidReason: schema.invoices.voidReason,
  voidedAt: schema.invoices.voidedAt,
  issueDate: schema.invoices.issueDate,
  createdAt: schema.invoices.createdAt,
};
type InvoiceRow = Omit<
  { [K in keyof typeof invoiceColumns]: (typeof invoiceColumns)[K]["_"]["data"] },
  "voidReason" | "voidedAt"
> & { voidReason: string | null; voidedAt: Date | null };

export function toInvoiceView(row: InvoiceRow, today: string): InvoiceView {
  return {
    id: row.id,
    invoiceNo: row.invoiceNo,
    deliveryId: row.deliveryId,
    clientId: row.clientId,
    clientName: row.clientName,
    amount: row.amount,
    amountPaid: row.amountPaid,
    amountCredited: row.amountCredited,
    amountWithheld: row.amountWithheld,
    balance: balanceOf(row),
    taxRate: row.taxRate,
    taxAmount: taxContained(row.amount, row.taxRate),
    profit: row.profit,
    expectedPaymentDate: row.expectedPaymentDate,
    paymentStatus: effectiveStatus(row, today),
    storedStatus: row.paymentStatus,
    voidReason: row.voidReason,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    issueDate: row.issueDate,
    createdAt: row.createdAt.toISOString(),
  };
}

const INVOICE_KEYSET = { id: schema.invoices.id };

/**
 * One page of invoices, newest first (id descending), keyset-paged: each filter has an index
 * that yields its rows in that order, so a page reads about `limit` rows however many
 * invoices there are (docs/decisions/0500).
 */
export async function listInvoices(
  actor: Actor,
  filters: InvoiceFilters = {},
  { limit = INVOICE_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
  now = new Date(),
): Promise<Page<InvoiceView>> {
  assertCan(actor, "invoice.manage", "invoices");
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await invoicePageQuery(db, filters, page, limit, today);
  const result = toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
  return { ...result, items: result.items.map((r) => toInvoiceView(r, today)) };
}

/** The page query itself (the scale tests EXPLAIN it). */
export function invoicePageQuery(
  db: Executor,
  filters: InvoiceFilters,
  page: PageRequest,
  limit: number,
  today: string,
) {
  return db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(...invoiceWhere(filters, today), keysetWhere(INVOICE_KEYSET, page)))
    .orderBy(...(filters.from || filters.to ? dueRangeOrder(page) : keysetOrder(INVOICE_KEYSET, page)))
    .limit(limit + 1);
}

/**
 * The same order for a due-date range, written so the primary key cannot serve it: the range's
 * own invoices are read through invoices_due_id_idx, then sorted. The planner cannot know that
 * due dates follow ids, so it took the key newest first, expecting the range's invoices to turn
 * up evenly, and walked every invoice newer than the range to find them (docs/decisions/0502).
 */
function dueRangeOrder(page: PageRequest): SQL[] {
  const id = sql`(${schema.invoices.id} + 0)`;
  return [page.direction === "newer" ? asc(id) : desc(id)];
}

/**
 * Every matching invoice, newest first, read in keyset batches: memory stays one batch. The
 * capability is checked when called, before the response starts, not at the first batch.
 */
export function invoiceBatches(
  actor: Actor,
  filters: InvoiceFilters = {},
  batchSize = 1000,
  now = new Date(),
): AsyncGenerator<InvoiceView[]> {
  assertCan(actor, "invoice.manage", "invoices");
  return keysetBatches(
    (page) => listInvoices(actor, filters, { limit: batchSize, page }, now),
    (last) => ({ key: null, id: last.id }),
  );
}

export async function getInvoice(actor: Actor, id: number, now = new Date()) {
  const { items } = await listInvoices(actor, { invoiceIds: [id] }, { limit: 1 }, now);
  return items[0] ?? null;
}

/**
 * Pending, Partial, Overdue and Paid counts for the whole table, and its money, in the same
 * cost at any size (docs/decisions/0508): the invoice triggers keep the totals per status and
 * owed flag (invoice_status_rollup, a few rows) and per status, due date and owed flag
 * (invoice_status_totals). Overdue is money owed past its due date, so what is owed and not
 * overdue is the owed rows due from today on (through their index, a payment term's worth of
 * dates); overdue is the rest of what is owed. Pending and Partial are the rest of each status.
 */
export async function invoiceSummary(actor: Actor, now = new Date()) {
  assertCan(actor, "invoice.manage", "invoices/summary");
  const [row] = await invoiceSummaryQuery(await getDb(), todayIn(env().APP_TIME_ZONE, now));
  return row;
}

export function invoiceSummaryQuery(db: Executor, today: string) {
  const r = schema.invoiceStatusRollup;
  const t = schema.invoiceStatusTotals;
  // Owed and not overdue: overdueSql's complement among owed rows (owed and due >= today).
  const notYetDue = db.$with("not_yet_due").as(
    db
      .select({
        pending: sql<number>`coalesce(sum(${t.n}) filter (where ${t.paymentStatus} = 'pending'), 0)`.as(
          "pending_not_due",
        ),
        partial: sql<number>`coalesce(sum(${t.n}) filter (where ${t.paymentStatus} = 'partial'), 0)`.as(
          "partial_not_due",
        ),
        owed: sql<number>`coalesce(sum(${t.n}), 0)`.as("owed_not_due"),
      })
      .from(t)
      .where(and(t.owed, gte(t.dueDate, today))),
  );
  const count = (where: SQL) => sql`coalesce(sum(${r.n}) filter (where ${where}), 0)`;
  const money = (value: SQL, where: SQL = sql`true`) =>
    sql<string>`coalesce(sum(${value}) filter (where ${where}), 0)::numeric(18,2)::text`;
  return db
    .with(notYetDue)
    .select({
      pending: sql<number>`(${count(sql`${r.paymentStatus} = 'pending' and not ${r.owed}`)} + max(${notYetDue.pending}))::int`,
      partial: sql<number>`(${count(sql`${r.paymentStatus} = 'partial' and not ${r.owed}`)} + max(${notYetDue.partial}))::int`,
      overdue: sql<number>`(${count(sql`${r.owed}`)} - max(${notYetDue.owed}))::int`,
      paid: sql<number>`${count(sql`${r.paymentStatus} = 'paid'`)}::int`,
      invoiced: money(sql`${r.amount}`),
      paidAmount: money(sql`${r.amountPaid}`),
      creditedAmount: money(sql`${r.amountCredited}`),
      withheldAmount: money(sql`${r.amountWithheld}`),
      // Void invoices have no rows here (the trigger leaves them out): they count in no total.
      outstanding: money(
        sql`${r.amount} - ${r.amountPaid} - ${r.amountWithheld} - ${r.amountCredited}`,
        sql`${r.owed}`,
      ),
    })
    .from(notYetDue)
    .leftJoin(r, sql`true`);
}

/** The most urgent unpaid invoices (earliest due first), through the owed-by-due-date index. */
export async function urgentInvoices(actor: Actor, limit: number, now = new Date()): Promise<InvoiceView[]> {
  assertCan(actor, "invoice.manage", "invoices/urgent");
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await urgentInvoicesQuery(await getDb(), limit);
  return rows.map((r) => toInvoiceView(r, today));
}

export function urgentInvoicesQuery(db: Executor, limit: number) {
  return db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(owed)
    .orderBy(asc(schema.invoices.expectedPaymentDate), asc(schema.invoices.id))
    .limit(limit);
}

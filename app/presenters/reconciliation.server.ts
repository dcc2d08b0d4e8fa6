import { and, asc, desc, eq, gt, gte, lt, lte, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { firstDayOfMonth, isYearMonth, lastDayOfMonth } from "~/utils/year-month";
import { deliveryRevenue, eligibleSql, invoiceAmountSql, invoiceableSql, kobo } from "~/rules/deliveries.server";
import { keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";
import { highestInvoiceNumber } from "~/models/invoice.server";
import { isInClosedMonth, readClosedThrough } from "~/models/period.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";

// Invoice numbers are handed out in the order invoices are made, whichever month (decision
// 0501): the page promises one number, the next, not one per month.
export const MONTHS_PER_PAGE = 12;
export const DETAILS_PER_PAGE = 50;

export type MonthSummary = {
  month: string;
  count: number;
  confirmedCount: number;
  invoicedCount: number;
  totalTons: string;
  revenue: string;
  invoiceCount: number;
  firstInvoiceNo: string | null;
  lastInvoiceNo: string | null;
  invoiced: boolean;
  /** In a closed month (decision 0901): nothing in it can be invoiced. */
  closed: boolean;
  canGenerate: boolean;
};

export const isMonth = isYearMonth;
export const monthStart = firstDayOfMonth;
export const monthEnd = lastDayOfMonth;

/** Where a page of months starts: `?cursor=YYYY-MM` older than that month, `?before=` newer. */
export type MonthPageRequest = { cursor: string | null; direction: "older" | "newer" };

export function readMonthPage(params: URLSearchParams): MonthPageRequest {
  const before = params.get("before");
  if (isMonth(before)) return { cursor: before, direction: "newer" };
  const after = params.get("cursor");
  if (isMonth(after)) return { cursor: after, direction: "older" };
  return { cursor: null, direction: "older" };
}

/**
 * Shapes `perPage + 1` month rows (first day of each month, read newest first, or oldest first
 * for a newer page) into a page newest first, with the months either side as cursors.
 */
export function toMonthPage<T extends { month: string }>(rows: T[], page: MonthPageRequest, perPage: number) {
  const more = rows.length > perPage;
  const taken = rows.slice(0, perPage);
  if (page.direction === "newer") taken.reverse();
  const first = taken.length ? taken[0].month.slice(0, 7) : null;
  const last = taken.length ? taken[taken.length - 1].month.slice(0, 7) : null;
  const olderCursor = page.direction === "older" ? (more ? last : null) : last;
  const newerCursor = page.direction === "newer" ? (more ? first : null) : page.cursor ? first : null;
  return { taken, olderCursor, newerCursor };
}

/**
 * A page of months, newest first, from the month totals the delivery and invoice triggers keep:
 * 12 rows read, however many deliveries. With them the next invoice number, whichever month is
 * invoiced first, and the closed-through day: a closed month offers nothing to invoice.
 */
export async function listMonths(actor: Actor, page: MonthPageRequest = { cursor: null, direction: "older" }) {
  assertCan(actor, "reconciliation.view", "reconciliation");
  const db = await getDb();
  const [rows, highest, closedThrough] = await Promise.all([
    monthsPageQuery(db, page),
    highestInvoiceNumber(db),
    readClosedThrough(db),
  ]);
  const { taken, olderCursor, newerCursor } = toMonthPage(rows, page, MONTHS_PER_PAGE);
  const months: MonthSummary[] = taken.map((row) => {
    const invoiced = row.nAll > 0 && row.nInvoiced === row.nAll;
    const closed = isInClosedMonth(row.month, closedThrough);
    return {
      month: row.month.slice(0, 7),
      count: row.nAll,
      confirmedCount: row.nConfirmed,
      invoicedCount: row.nInvoiced,
      totalTons: toFixed2(row.tons),
      revenue: toFixed2(row.revenue),
      invoiceCount: row.invoiceCount,
      firstInvoiceNo: row.firstInvoiceNo === null ? null : String(row.firstInvoiceNo),
      lastInvoiceNo: row.lastInvoiceNo === null ? null : String(row.lastInvoiceNo),
      invoiced,
      closed,
      canGenerate: row.nEligible > 0 && !closed,
    };
  });
  return { months, olderCursor, newerCursor, nextInvoiceNo: highest + 1, closedThrough };
}

export function monthsPageQuery(db: Executor, page: MonthPageRequest) {
  const t = schema.deliveryMonthTotals;
  const where = [gt(t.nAll, 0)];
  if (page.cursor)
    where.push(
      page.direction === "older" ? lt(t.month, monthStart(page.cursor)) : gt(t.month, monthStart(page.cursor)),
    );
  return db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(page.direction === "older" ? desc(t.month) : asc(t.month))
    .limit(MONTHS_PER_PAGE + 1);
}

/** Sums are exact numerics; shown to 2 places, half up (PostgreSQL `round`). */
function toFixed2(value: string) {
  const [whole, fraction = ""] = value.split(".");
  if (fraction.length <= 2) return `${whole}.${fraction.padEnd(2, "0")}`;
  // Rounding is rare here (tons and revenue are in cents already); leave it to BigInt maths.
  const negative = whole.startsWith("-");
  const digits = BigInt((negative ? whole.slice(1) : whole) + fraction.slice(0, 2));
  const rounded = Number(fraction[2]) >= 5 ? digits + 1n : digits;
  const text = rounded.toString().padStart(3, "0");
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`;
}

const DETAILS_KEYSET = { key: schema.deliveries.date, id: schema.deliveries.id };

/** One month's deliveries for the details table, newest first, a page at a time (date index). */
export async function monthDetails(
  actor: Actor,
  yearMonth: string,
  page: PageRequest = { cursor: null, direction: "older" },
  limit = DETAILS_PER_PAGE,
) {
  assertCan(actor, "reconciliation.view", `reconciliation/${yearMonth}`);
  const empty: Page<never> = { items: [], olderCursor: null, newerCursor: null };
  if (!isMonth(yearMonth)) return empty;
  const rows = await monthDetailsQuery(await getDb(), yearMonth, page, limit);
  const result = toPage(rows, limit, page, (r) => ({ key: r.date, id: r.id }));
  return { ...result, items: result.items.map((r) => ({ ...r, revenue: deliveryRevenue(r) })) };
}

export function monthDetailsQuery(db: Executor, yearMonth: string, page: PageRequest, limit: number) {
  return db
    .select({
      id: schema.deliveries.id,
      date: schema.deliveries.date,
      agentName: schema.agents.name,
      tons: schema.deliveries.invoicedTons,
      invoicedTons: schema.deliveries.invoicedTons,
      paidTons: schema.deliveries.paidTons,
      location: schema.deliveries.location,
      status: schema.deliveries.status,
      sellingRate: schema.deliveries.sellingRate,
      invoiceNo: schema.invoices.invoiceNo,
    })
    .from(schema.deliveries)
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .leftJoin(schema.invoices, eq(schema.invoices.id, schema.deliveries.invoiceId))
    .where(
      and(
        gte(schema.deliveries.date, monthStart(yearMonth)),
        lte(schema.deliveries.date, monthEnd(yearMonth)),
        keysetWhere(DETAILS_KEYSET, page),
      ),
    )
    .orderBy(...keysetOrder(DETAILS_KEYSET, page))
    .limit(limit + 1);
}

/**
 * What "Generate Invoice" for a month would invoice, per client: deliveries, tons and amount
 * (each client's amount rounded once, as the invoice will be); and how many of the month's
 * eligible deliveries it leaves out because they wait for their client's ticket (docs/decisions/1220).
 */
export async function monthInvoicePreview(actor: Actor, yearMonth: string) {
  assertCan(actor, "reconciliation.view", `reconciliation/${yearMonth}`);
  if (!isMonth(yearMonth)) return null;
  const db = await getDb();
  const d = schema.deliveries;
  const inMonth = and(gte(d.date, monthStart(yearMonth)), lte(d.date, monthEnd(yearMonth)));
  const [clients, [waiting]] = await Promise.all([
    db
      .select({
        clientId: schema.clients.id,
        clientName: schema.clients.name,
        deliveries: sql<number>`count(*)::int`,
        tons: sql<string>`sum(${d.invoicedTons})::numeric(20,3)::text`,
        amount: kobo(invoiceAmountSql()),
      })
      .from(d)
      .innerJoin(schema.clients, eq(schema.clients.id, d.clientId))
      .where(and(invoiceableSql(), inMonth))
      .groupBy(schema.clients.id, schema.clients.name)
      .orderBy(asc(schema.clients.name)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(d)
      .innerJoin(schema.clients, eq(schema.clients.id, d.clientId))
      .where(and(eligibleSql(), inMonth, schema.clients.requiresReceivedTicket, sql`${d.receivedTons} is null`)),
  ]);
  return { clients, waitingForTicket: waiting.n };
}

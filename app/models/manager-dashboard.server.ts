import { sql } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { addDays, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { round } from "~/utils/money";
import { listDeliveries } from "./delivery.server";
import { invoiceSummary, listInvoices } from "./invoice.server";

export const SPARKLINE_POINTS = 7;

const profitExpr = sql`(${schema.deliveries.tons} * ${schema.deliveries.sellingRate}
  - (${schema.deliveries.tons} * coalesce(${schema.deliveries.buyingRate}, 0)
     + coalesce(${schema.deliveries.logisticsCost}, 0) + coalesce(${schema.deliveries.otherCosts}, 0)))`;
const counted = sql`${schema.deliveries.status} in ('confirmed', 'invoiced')`;

/**
 * The manager's overview, every figure aggregated in SQL with exact numerics: totals never load
 * the deliveries into the app. Sparklines are the last 7 days (business time zone).
 */
export async function loadManagerDashboard(user: User, now = new Date()) {
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const days = Array.from({ length: SPARKLINE_POINTS }, (_, i) => addDays(today, i - (SPARKLINE_POINTS - 1)));

  const createdDay = sql`(${schema.invoices.createdAt} at time zone ${env().APP_TIME_ZONE})::date`;
  const [[deliveryStats], [invoiceStats], dailyProfit, dailyInvoiced, summary, recent, unpaid] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*) filter (where ${counted})::int`,
        invoiced: sql<number>`count(*) filter (where ${schema.deliveries.status} = 'invoiced')::int`,
        profit: sql<string>`coalesce(round(sum(${profitExpr}) filter (where ${counted} and ${schema.deliveries.sellingRate} is not null), 2), 0)::text`,
      })
      .from(schema.deliveries),
    db
      .select({
        invoiced: sql<string>`coalesce(sum(${schema.invoices.amount}), 0)::text`,
        paid: sql<string>`coalesce(sum(${schema.invoices.amountPaid}), 0)::text`,
        outstanding: sql<string>`coalesce(sum(${schema.invoices.amount} - ${schema.invoices.amountPaid}) filter (where ${schema.invoices.amountPaid} < ${schema.invoices.amount}), 0)::text`,
      })
      .from(schema.invoices),
    db
      .select({ day: sql<string>`${schema.deliveries.date}::text`, value: sql<string>`coalesce(round(sum(${profitExpr}), 2), 0)::text` })
      .from(schema.deliveries)
      .where(sql`${counted} and ${schema.deliveries.sellingRate} is not null and ${schema.deliveries.date} between ${days[0]} and ${today}`)
      .groupBy(schema.deliveries.date),
    // Money still owed on the invoices raised on each of the last 7 days.
    db
      .select({ day: sql<string>`(${createdDay})::text`, value: sql<string>`coalesce(sum(${schema.invoices.amount} - ${schema.invoices.amountPaid}), 0)::text` })
      .from(schema.invoices)
      .where(sql`${createdDay} between ${days[0]} and ${today}`)
      .groupBy(sql`1`),
    invoiceSummary(now),
    listDeliveries(user, { from: undefined, to: undefined, agentId: undefined }, { limit: 8 }),
    listInvoices({}, now),
  ]);

  const series = (rows: { day: string; value: string }[]) => days.map((d) => rows.find((r) => r.day === d)?.value ?? "0");
  return {
    totalDeliveries: deliveryStats.total,
    invoicedDeliveries: deliveryStats.invoiced,
    // Share of deliveries invoiced, in whole percent (integer arithmetic on counts).
    deliveriesProgress: deliveryStats.total ? Math.round((deliveryStats.invoiced * 100) / deliveryStats.total) : 0,
    totalProfit: deliveryStats.profit,
    profitSeries: series(dailyProfit),
    outstanding: invoiceStats.outstanding,
    totalInvoiced: invoiceStats.invoiced,
    totalPaid: invoiceStats.paid,
    outstandingProgress: percent(invoiceStats.paid, invoiceStats.invoiced),
    outstandingSeries: series(dailyInvoiced),
    overdue: summary.overdue,
    recent: recent.deliveries,
    pendingInvoices: unpaid.filter((i) => i.storedStatus !== "paid").slice(0, 6),
  };
}

/** paid / invoiced as a whole percent, computed on kobo integers. */
function percent(part: string, whole: string) {
  const w = round(whole, 2).units;
  return w === 0n ? 0 : Number((round(part, 2).units * 100n) / w);
}

export type ManagerDashboardData = Awaited<ReturnType<typeof loadManagerDashboard>>;

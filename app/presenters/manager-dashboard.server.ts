import { sql } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { addDays, todayIn } from "~/utils/dates";
import { firstDayOfMonth, previousMonth } from "~/utils/year-month";
import { trendCharts } from "~/presenters/reports/profit-charts.server";
import { env } from "~/utils/env.server";
import { add, percentOf } from "~/utils/money";
import { listDeliveries } from "~/models/delivery.server";
import { invoiceSummary, urgentInvoices } from "~/presenters/invoice-list.server";
import { assertCan } from "~/rules/capabilities.server";
import { balanceSql, owedSql } from "~/rules/invoices.server";

const SPARKLINE_POINTS = 7;

/** The dashboard's trend charts: the last 12 months, this one included (docs/decisions/1270). */
const TREND_MONTHS = 12;

function monthsBack(month: string, n: number) {
  let m = month;
  for (let i = 0; i < n; i++) m = previousMonth(m);
  return m;
}

const URGENT_INVOICES = 6;

/**
 * The manager's overview at a cost that does not grow with the tables (docs/decisions/0500):
 * totals from the month and day totals and the invoice status totals the triggers keep;
 * the week's money owed per day from the invoices issued in those 7 days (an index range of
 * their issue date, the day their documents and the tax report carry: decision 0990);
 * recent deliveries and the most urgent invoices through their indexes. The money-owed sparkline
 * is the last 7 days (business time zone); profit and tons are charts of the last 12 months'
 * rows (docs/decisions/1270).
 */
export async function loadManagerDashboard(user: User, now = new Date()) {
  // Profit totals and invoices: the manager's and admin's dashboard, never staff's (spec section 6).
  assertCan(user, "delivery.financials", "dashboard/manager");
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const days = Array.from({ length: SPARKLINE_POINTS }, (_, i) => addDays(today, i - (SPARKLINE_POINTS - 1)));
  const months = schema.deliveryMonthTotals;

  const trendFrom = monthsBack(today.slice(0, 7), TREND_MONTHS - 1);
  const [[deliveryStats], monthly, dailyInvoiced, summary, recent, urgent] = await Promise.all([
    db
      .select({
        total: sql<number>`coalesce(sum(${months.nConfirmed} + ${months.nInvoiced}), 0)::int`,
        invoiced: sql<number>`coalesce(sum(${months.nInvoiced}), 0)::int`,
        profit: sql<string>`round(coalesce(sum(${months.profit}), 0), 2)::text`,
      })
      .from(months),
    // The last 12 months' profit and tons, from their month rows (docs/decisions/1270).
    db
      .select({
        month: sql<string>`to_char(${months.month}, 'YYYY-MM')`,
        profit: sql<string>`round(${months.profit}, 2)::text`,
        tons: sql<string>`${months.tons}::text`,
      })
      .from(months)
      .where(sql`${months.month} between ${firstDayOfMonth(trendFrom)} and ${today}`),
    // Money still owed on the invoices issued on each of the last 7 days (void ones owe nothing;
    // a client's credit on one invoice does not reduce what another owes).
    db
      .select({
        day: sql<string>`${schema.invoices.issueDate}::text`,
        value: sql<string>`coalesce(sum((${balanceSql()})::numeric) filter (where ${owedSql()}), 0)::text`,
      })
      .from(schema.invoices)
      .where(sql`${schema.invoices.issueDate} between ${days[0]} and ${today}`)
      .groupBy(schema.invoices.issueDate),
    invoiceSummary(user, now),
    listDeliveries(user, { from: undefined, to: undefined, agentId: undefined }, { limit: 8 }),
    urgentInvoices(user, URGENT_INVOICES, now),
  ]);

  const series = (rows: { day: string; value: string }[]) =>
    days.map((d) => rows.find((r) => r.day === d)?.value ?? "0");
  return {
    totalDeliveries: deliveryStats.total,
    invoicedDeliveries: deliveryStats.invoiced,
    // Share of deliveries invoiced, in whole percent (integer arithmetic on counts).
    deliveriesProgress: deliveryStats.total ? Math.round((deliveryStats.invoiced * 100) / deliveryStats.total) : 0,
    totalProfit: deliveryStats.profit,
    trends: trendCharts(monthly, trendFrom, today.slice(0, 7)),
    outstanding: summary.outstanding,
    totalInvoiced: summary.invoiced,
    totalPaid: summary.paidAmount,
    // Settled share, a percent string to one decimal ("1.7"): payments and credit notes both reduce what is owed.
    outstandingProgress: percentOf(
      add(summary.paidAmount, summary.withheldAmount, summary.creditedAmount),
      summary.invoiced,
    ),
    outstandingSeries: series(dailyInvoiced),
    overdue: summary.overdue,
    unpaidCount: summary.pending + summary.partial + summary.overdue,
    recent: recent.deliveries,
    pendingInvoices: urgent,
  };
}

export type ManagerDashboardData = Awaited<ReturnType<typeof loadManagerDashboard>>;

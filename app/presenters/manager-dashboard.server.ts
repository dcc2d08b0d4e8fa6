import { sql } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { addDays, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { add, percentOf } from "~/utils/money";
import { listDeliveries } from "~/models/delivery.server";
import { invoiceSummary, urgentInvoices } from "~/presenters/invoice-list.server";
import { assertCan } from "~/rules/capabilities.server";
import { balanceSql, owedSql } from "~/rules/invoices.server";

const SPARKLINE_POINTS = 7;

const URGENT_INVOICES = 6;

/**
 * The manager's overview at a cost that does not grow with the tables (docs/decisions/0500):
 * totals from the month and day totals and the invoice status totals the triggers keep;
 * the week's money owed per day from the invoices issued in those 7 days (an index range of
 * their issue date, the day their documents and the tax report carry: decision 0990);
 * recent deliveries and the most urgent invoices through their indexes. Sparklines are the
 * last 7 days (business time zone).
 */
export async function loadManagerDashboard(user: User, now = new Date()) {
  // Profit totals and invoices: the manager's and admin's dashboard, never staff's (spec section 6).
  assertCan(user, "delivery.financials", "dashboard/manager");
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const days = Array.from({ length: SPARKLINE_POINTS }, (_, i) => addDays(today, i - (SPARKLINE_POINTS - 1)));
  const months = schema.deliveryMonthTotals;
  const daily = schema.deliveryDayTotals;

  const [[deliveryStats], dailyProfit, dailyInvoiced, summary, recent, urgent] = await Promise.all([
    db
      .select({
        total: sql<number>`coalesce(sum(${months.nConfirmed} + ${months.nInvoiced}), 0)::int`,
        invoiced: sql<number>`coalesce(sum(${months.nInvoiced}), 0)::int`,
        profit: sql<string>`round(coalesce(sum(${months.profit}), 0), 2)::text`,
      })
      .from(months),
    db
      .select({ day: sql<string>`${daily.day}::text`, value: sql<string>`round(${daily.profit}, 2)::text` })
      .from(daily)
      .where(sql`${daily.day} between ${days[0]} and ${today}`),
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
    profitSeries: series(dailyProfit),
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

// What the report's page and PDF show (docs/decisions/1270): the rows asked for, and its charts
// from the same kept rows (the months of the period, and the ten best of one dimension).
import type { Actor } from "~/rules/capabilities.server";
import { getDb } from "~/db.server";
import type { Chart } from "./charts.server";
import { monthsOf, profitByMonthChart, tonsByMonthChart, topTenChart } from "./profit-charts.server";
import { loadProfitReport, type ProfitDimension, type ProfitQuery, type ProfitReport } from "./profit-report.server";

export type ProfitReportView = ProfitReport & {
  charts: Chart[];
  /** Received, accepted, shortage and deduction columns: only once some delivery has the client's ticket. */
  withTickets: boolean;
};

export async function loadProfitReportView(actor: Actor, query: ProfitQuery): Promise<ProfitReportView> {
  const db = await getDb();
  const dimension: ProfitDimension = query.by === "month" ? (query.then ?? "agent") : query.by;
  const monthly: ProfitQuery = { ...query, by: "month", then: null };
  const ranked: ProfitQuery = { ...query, by: dimension, then: null };
  const same = (a: ProfitQuery, b: ProfitQuery) => a.by === b.by && a.then === b.then;
  const report = await loadProfitReport(actor, query, db);
  const [byMonth, byDimension] = await Promise.all([
    same(monthly, query) ? report : loadProfitReport(actor, monthly, db),
    same(ranked, query) ? report : loadProfitReport(actor, ranked, db),
  ]);
  const months = monthsOf(query.from, query.to);
  const withTickets = report.totals.receivedDeliveries > 0;
  return {
    ...report,
    withTickets,
    charts: [
      profitByMonthChart(byMonth.rows, months),
      tonsByMonthChart(byMonth.rows, months, withTickets),
      topTenChart(byDimension.rows, dimension),
    ],
  };
}

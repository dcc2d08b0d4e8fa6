// What the report's page and PDF show (docs/decisions/1270): the rows asked for, and its charts
// from the same kept rows (the months of the period, and the ten best of one dimension).
import type { Actor } from "~/rules/capabilities.server";
import { formatMonth } from "~/utils/dates";
import { formatProfitCell, GROUP_WORDS, profitColumns, unpricedNote } from "~/utils/profit-report-words";
import { firstDayOfMonth, lastDayOfMonth } from "~/utils/year-month";
import { getDb } from "~/db.server";
import type { Chart } from "./charts.server";
import { monthsOf, profitByMonthChart, tonsByMonthChart, topTenChart } from "./profit-charts.server";
import {
  ALL_ROWS,
  loadProfitReport,
  loadProfitRows,
  PROFIT_PAGE_ROWS,
  rowName,
  type ProfitDimension,
  type ProfitPage,
  type ProfitQuery,
  type ProfitReport,
  type ProfitRow,
} from "./profit-report.server";

export type ProfitReportView = ProfitReport & {
  charts: Chart[];
  /** Received, accepted, shortage and deduction columns: only once some delivery has the client's ticket. */
  withTickets: boolean;
  /** How many rows the whole report has (the page shows up to `page.limit` of them). */
  rowCount: number;
  /** True when the page starts after a cursor: a page lies before it. */
  continued: boolean;
};

/**
 * The report as the page and the PDF show it: `page` of its rows (month by agent over ten years
 * is thousands), the foot of the whole period, and the charts: the period's months (at most
 * 120 rows) and the ten best of the dimension, read as a page of ten.
 */
export async function loadProfitReportView(
  actor: Actor,
  query: ProfitQuery,
  page: ProfitPage = { cursor: null, limit: PROFIT_PAGE_ROWS },
): Promise<ProfitReportView> {
  const db = await getDb();
  const dimension: ProfitDimension = query.by === "month" ? (query.then ?? "agent") : query.by;
  const monthly: ProfitQuery = { ...query, by: "month", then: null };
  const ranked: ProfitQuery = { ...query, by: dimension, then: null };
  const byMonthAlone = query.by === "month" && query.then === null;
  const [report, byMonth, topTen] = await Promise.all([
    loadProfitReport(actor, query, page, db),
    byMonthAlone ? null : loadProfitRows(actor, monthly, ALL_ROWS, db),
    loadProfitRows(actor, ranked, { cursor: null, limit: 10 }, db),
  ]);
  const months = monthsOf(query.from, query.to);
  const withTickets = report.totals.receivedDeliveries > 0;
  const monthRows = byMonth?.rows ?? report.rows;
  return {
    ...report,
    withTickets,
    continued: page.cursor !== null,
    charts: [
      profitByMonthChart(monthRows, months),
      tonsByMonthChart(monthRows, months, withTickets),
      topTenChart(topTen.rows, dimension),
    ],
  };
}

/**
 * The deliveries behind a row (docs/decisions/1270): the list filtered to the row's agent,
 * client or site and its month, or the report's period. Deliveries without a client have no
 * filter of their own: their row has no link.
 */
export function drillDownTo(query: ProfitQuery, row: ProfitRow): string | null {
  const params = new URLSearchParams({
    from: firstDayOfMonth(row.month ?? query.from),
    to: lastDayOfMonth(row.month ?? query.to),
  });
  if (row.agentId !== null) params.set("agentId", String(row.agentId));
  else if (row.clientId !== null) params.set("clientId", String(row.clientId));
  else if (row.site !== null) params.set("site", row.site);
  else if (row.clientName !== null) return null;
  return `/deliveries?${params}`;
}

/** The table as the page shows it: each figure formatted once, on the server. */
export type ProfitTableView = {
  nameHeads: string[];
  heads: string[];
  rows: { month: string | null; name: string | null; to: string | null; cells: string[] }[];
  totals: string[];
  withTickets: boolean;
  note: string | null;
  /** "Rows 1 to 50 of 6,000", when the report has more rows than a page. */
  part: string | null;
  nextCursor: string | null;
  continued: boolean;
};

export function profitTableView(view: ProfitReportView): ProfitTableView {
  const columns = profitColumns(view.withTickets);
  const byMonth = view.query.by === "month";
  const dimension = byMonth ? view.query.then : view.query.by;
  return {
    nameHeads: [...(byMonth ? [GROUP_WORDS.month] : []), ...(dimension ? [GROUP_WORDS[dimension]] : [])],
    heads: columns.map((c) => c.header),
    rows: view.rows.map((row) => ({
      month: row.month === null ? null : formatMonth(row.month),
      name: dimension ? rowName(row) : null,
      to: drillDownTo(view.query, row),
      cells: columns.map((c) => formatProfitCell(c, row)),
    })),
    totals: columns.map((c) => formatProfitCell(c, view.totals)),
    withTickets: view.withTickets,
    note: unpricedNote(view.totals.unpricedDeliveries),
    part:
      view.nextCursor || view.continued
        ? `${view.rows.length.toLocaleString("en")} of ${view.rowCount.toLocaleString("en")} rows on this page; the total is the whole period's`
        : null,
    nextCursor: view.nextCursor,
    continued: view.continued,
  };
}

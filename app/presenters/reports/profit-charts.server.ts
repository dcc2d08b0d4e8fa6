// The report's three charts and the dashboard's two (docs/decisions/1270), from the report's rows
// or the kept month totals: geometry only, drawn by app/components/reports/chart.tsx.
import { formatMonth } from "~/utils/dates";
import { nextMonth } from "~/utils/year-month";
import { horizontalBars, verticalBars, type Chart } from "./charts.server";
import { rowName, type ProfitDimension, type ProfitRow } from "./profit-report.server";

/** Every month from `from` to `to` ("YYYY-MM"), so a month without deliveries shows as zero. */
export function monthsOf(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m: string | null = from; m !== null && m <= to; m = nextMonth(m)) months.push(m);
  return months;
}

const shortMonth = (month: string, first: boolean) => {
  const [name, year] = formatMonth(month).split(" ");
  return first || month.endsWith("-01") ? `${name.slice(0, 3)} ${year}` : name.slice(0, 3);
};

type MonthFigures = Pick<ProfitRow, "month" | "revenue" | "profit" | "loadedTons" | "acceptedTons" | "shortageTons">;

function byMonth<T extends { month: string | null }>(rows: T[], months: string[]) {
  const found = new Map(rows.map((r) => [r.month, r]));
  return months.map((m, i) => ({ month: m, label: shortMonth(m, i === 0), row: found.get(m) }));
}

export function profitByMonthChart(rows: MonthFigures[], months: string[], id = "profit-by-month"): Chart {
  return verticalBars({
    id,
    title: "Profit and revenue by month",
    unit: "naira",
    series: [
      { name: "Revenue", tone: "blue" },
      { name: "Profit", tone: "orange" },
    ],
    categories: byMonth(rows, months).map(({ month, label, row }) => ({
      key: month,
      label,
      values: [row?.revenue ?? "0", row?.profit ?? "0"],
    })),
    categoryAxisLabel: "Month",
    valueAxisLabel: "Naira (₦)",
  });
}

/** Loaded against accepted tons, with the shortage; before any client's ticket, loaded alone. */
export function tonsByMonthChart(rows: MonthFigures[], months: string[], withTickets: boolean, id = "tons-by-month") {
  return verticalBars({
    id,
    title: withTickets ? "Tons by month: loaded, accepted and shortage" : "Tons loaded by month",
    unit: "tons",
    series: withTickets
      ? [
          { name: "Loaded", tone: "blue" },
          { name: "Accepted", tone: "green" },
          { name: "Shortage", tone: "vermillion" },
        ]
      : [{ name: "Loaded", tone: "blue" }],
    categories: byMonth(rows, months).map(({ month, label, row }) => ({
      key: month,
      label,
      values: withTickets
        ? [row?.loadedTons ?? "0", row?.acceptedTons ?? "0", row?.shortageTons ?? "0"]
        : [row?.loadedTons ?? "0"],
    })),
    categoryAxisLabel: "Month",
    valueAxisLabel: "Tons (t)",
  });
}

const DIMENSION_WORDS: Record<ProfitDimension, { one: string; many: string }> = {
  agent: { one: "Agent", many: "agents" },
  client: { one: "Client", many: "clients" },
  site: { one: "Pick-up site", many: "pick-up sites" },
};

/** The ten rows with the most profit, one bar each (rows of one dimension, not by month). */
export function topTenChart(rows: ProfitRow[], dimension: ProfitDimension): Chart {
  const top = [...rows]
    .sort((a, b) => {
      const d = BigInt(b.profit.replace(".", "")) - BigInt(a.profit.replace(".", ""));
      return d === 0n ? 0 : d > 0n ? 1 : -1;
    })
    .slice(0, 10);
  const words = DIMENSION_WORDS[dimension];
  return horizontalBars({
    id: `top-${dimension}`,
    title: `Top ten ${words.many} by profit`,
    unit: "naira",
    seriesName: "Profit",
    categories: top.map((r, i) => ({ key: `${i}`, label: rowName(r), value: r.profit })),
    categoryAxisLabel: words.one,
    valueAxisLabel: "Profit (₦)",
  });
}

/**
 * The manager dashboard's trends (docs/decisions/1270): profit and tons of the last 12 months from
 * the kept month totals, by the dashboard's rules (counted deliveries; profit of those with a
 * selling rate; the invoiced tons, what the revenue is made of).
 */
export function trendCharts(rows: { month: string; profit: string; tons: string }[], from: string, to: string) {
  const months = monthsOf(from, to);
  const found = byMonth(rows, months);
  return [
    verticalBars({
      id: "trend-profit",
      title: "Profit, last 12 months",
      unit: "naira",
      series: [{ name: "Profit", tone: "orange" }],
      categories: found.map(({ month, label, row }) => ({ key: month, label, values: [row?.profit ?? "0"] })),
      categoryAxisLabel: "Month",
      valueAxisLabel: "Naira (₦)",
      height: 220,
    }),
    verticalBars({
      id: "trend-tons",
      title: "Tons invoiced or to invoice, last 12 months",
      unit: "tons",
      series: [{ name: "Tons", tone: "blue" }],
      categories: found.map(({ month, label, row }) => ({ key: month, label, values: [row?.tons ?? "0"] })),
      categoryAxisLabel: "Month",
      valueAxisLabel: "Tons (t)",
      height: 220,
    }),
  ];
}

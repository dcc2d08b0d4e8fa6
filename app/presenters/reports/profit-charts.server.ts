// The report's three charts and the dashboard's two (docs/decisions/1270), from the report's rows
// or the kept month totals: geometry only, drawn by app/components/reports/chart.tsx.
import { formatMonth } from "~/utils/dates";
import { sum, toFixed } from "~/utils/money";
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

/**
 * Above three years the report's month charts draw quarters: ten years of months is 240 bars
 * and 120 table rows a chart, more than the page's 150 KB budget (decision 1270).
 */
export const MONTHLY_CHART_MONTHS = 36;

function byMonth<T extends { month: string | null }>(rows: T[], months: string[]) {
  const found = new Map(rows.map((r) => [r.month, r]));
  return months.map((m, i) => ({ month: m, label: shortMonth(m, i === 0), row: found.get(m) }));
}

type Bucket = { key: string; label: string; rows: MonthFigures[] };

/** The chart's bars: each month of the period, or above three years each quarter (its months summed). */
function bucketsOf(rows: MonthFigures[], months: string[]): { buckets: Bucket[]; unit: "Month" | "Quarter" } {
  if (months.length <= MONTHLY_CHART_MONTHS)
    return {
      unit: "Month",
      buckets: byMonth(rows, months).map(({ month, label, row }) => ({ key: month, label, rows: row ? [row] : [] })),
    };
  const found = new Map(rows.map((r) => [r.month, r]));
  const buckets: Bucket[] = [];
  for (const m of months) {
    const quarter = `${m.slice(0, 4)} Q${Math.floor((Number(m.slice(5, 7)) - 1) / 3) + 1}`;
    if (buckets.at(-1)?.key !== quarter) {
      const label = buckets.length === 0 || quarter.endsWith("Q1") ? quarter : quarter.slice(5);
      buckets.push({ key: quarter, label, rows: [] });
    }
    const row = found.get(m);
    if (row) buckets.at(-1)!.rows.push(row);
  }
  return { unit: "Quarter", buckets };
}

const total = (rows: MonthFigures[], field: Exclude<keyof MonthFigures, "month">, places: number) =>
  toFixed(sum(rows.map((r) => r[field])), places);

export function profitByMonthChart(rows: MonthFigures[], months: string[], id = "profit-by-month"): Chart {
  const { buckets, unit } = bucketsOf(rows, months);
  return verticalBars({
    id,
    title: `Profit and revenue by ${unit.toLowerCase()}`,
    unit: "naira",
    series: [
      { name: "Revenue", tone: "blue" },
      { name: "Profit", tone: "orange" },
    ],
    categories: buckets.map((b) => ({
      key: b.key,
      label: b.label,
      values: [total(b.rows, "revenue", 2), total(b.rows, "profit", 2)],
    })),
    categoryAxisLabel: unit,
    valueAxisLabel: "Naira (₦)",
  });
}

/** Loaded against accepted tons, with the shortage; before any client's ticket, loaded alone. */
export function tonsByMonthChart(rows: MonthFigures[], months: string[], withTickets: boolean, id = "tons-by-month") {
  const { buckets, unit } = bucketsOf(rows, months);
  const by = unit.toLowerCase();
  return verticalBars({
    id,
    title: withTickets ? `Tons by ${by}: loaded, accepted and shortage` : `Tons loaded by ${by}`,
    unit: "tons",
    series: withTickets
      ? [
          { name: "Loaded", tone: "blue" },
          { name: "Accepted", tone: "green" },
          { name: "Shortage", tone: "vermillion" },
        ]
      : [{ name: "Loaded", tone: "blue" }],
    categories: buckets.map((b) => ({
      key: b.key,
      label: b.label,
      values: withTickets
        ? [total(b.rows, "loadedTons", 3), total(b.rows, "acceptedTons", 3), total(b.rows, "shortageTons", 3)]
        : [total(b.rows, "loadedTons", 3)],
    })),
    categoryAxisLabel: unit,
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

// Charts drawn on the server (docs/decisions/1270): the geometry of each chart is worked out here
// with d3-scale, in a server module, and the page draws the shapes it is given as SVG, so the
// charts show without JavaScript, print, and add no browser code. Values are exact decimal strings;
// they become numbers only to place pixels, never for a figure anyone reads: every label is the
// app's own format of the exact value or of a round tick.
import { scaleBand, scaleLinear } from "d3-scale";
import { formatAmount, formatNaira, formatNairaCompact, formatTons } from "~/utils/money";

/** A series' colour: one of the Okabe-Ito colours, told apart without colour vision (by the legend and place too). */
export type SeriesTone = "blue" | "orange" | "vermillion" | "green";

export type ChartSeries = { name: string; tone: SeriesTone };

export type ChartBar = { x: number; y: number; width: number; height: number; series: number; label: string };

export type ChartTick = { at: number; label: string };

/** Everything the page needs to draw one chart, in the SVG's own units (its viewBox). */
export type Chart = {
  id: string;
  title: string;
  orientation: "vertical" | "horizontal";
  width: number;
  height: number;
  /** The plot's box within the SVG. */
  plot: { left: number; top: number; right: number; bottom: number };
  series: ChartSeries[];
  bars: ChartBar[];
  /** Ticks of the value axis (y of vertical charts, x of horizontal ones), with their grid lines. */
  valueTicks: ChartTick[];
  /** Labels of the categories (months, names), at their band's centre. */
  categoryTicks: ChartTick[];
  /** Where zero is on the value axis. */
  zero: number;
  valueAxisLabel: string;
  categoryAxisLabel: string;
  /** The data table beside the chart: its header and rows as shown. */
  table: { head: string[]; rows: string[][] };
  empty: boolean;
};

export type ValueUnit = "naira" | "tons";

const toNumber = (value: string) => Number(value);

/** A tick as the app writes the unit: ₦ compact from a million ("₦1.2M"), tons with separators. */
export function formatTick(value: number, unit: ValueUnit, step: number): string {
  const places = step >= 1 || step === 0 ? 0 : Math.min(3, Math.ceil(-Math.log10(step)));
  const exact = value.toFixed(places);
  if (unit === "tons") return formatAmount(exact, places);
  // Whole naira without kobo ("₦50,000"); from a million, compact ("₦2.5M").
  return formatNairaCompact(exact).replace(/\.00$/, "");
}

/** The value scale of a chart: always holds zero, rounded out to nice ticks; [0, 1] with no data. */
export function valueScale(values: string[], range: [number, number], tickCount = 5) {
  const numbers = values.map(toNumber);
  const lo = Math.min(0, ...numbers);
  const hi = Math.max(0, ...numbers);
  const scale = scaleLinear()
    .domain(lo === hi ? [0, 1] : [lo, hi])
    .range(range)
    .nice(tickCount);
  const ticks = scale.ticks(tickCount);
  const step = ticks.length > 1 ? Math.abs(ticks[1] - ticks[0]) : 1;
  return { scale, ticks, step };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

type Category = { key: string; label: string; values: string[] };

/**
 * Bars per category, one per series side by side, up from zero or down from it (a loss).
 * `label` of each category shows under it; with many, every n-th label so they do not collide.
 */
export function verticalBars(options: {
  id: string;
  title: string;
  unit: ValueUnit;
  series: ChartSeries[];
  categories: Category[];
  categoryAxisLabel: string;
  valueAxisLabel: string;
  width?: number;
  height?: number;
}): Chart {
  const { width = 560, height = 280, unit, series, categories } = options;
  const plot = { left: 72, top: 16, right: width - 12, bottom: height - 48 };
  const band = scaleBand<string>()
    .domain(categories.map((c) => c.key))
    .range([plot.left, plot.right])
    .paddingInner(0.2)
    .paddingOuter(0.1);
  const inner = scaleBand<number>()
    .domain(series.map((_, i) => i))
    .range([0, band.bandwidth()])
    .padding(0.05);
  const { scale, ticks, step } = valueScale(
    categories.flatMap((c) => c.values),
    [plot.bottom, plot.top],
  );
  const zero = scale(0);
  const bars = categories.flatMap((c) =>
    c.values.map((value, s) => {
      const y = scale(toNumber(value));
      return {
        x: round1((band(c.key) ?? 0) + (inner(s) ?? 0)),
        y: round1(Math.min(y, zero)),
        width: round1(inner.bandwidth()),
        height: round1(Math.abs(zero - y)),
        series: s,
        label: `${c.label}, ${series[s].name}: ${formatValue(value, unit)}`,
      };
    }),
  );
  const every = Math.max(1, Math.ceil(categories.length / 12));
  return {
    id: options.id,
    title: options.title,
    orientation: "vertical",
    width,
    height,
    plot,
    series,
    bars,
    valueTicks: ticks.map((t) => ({ at: round1(scale(t)), label: formatTick(t, unit, step) })),
    categoryTicks: categories
      .filter((_, i) => i % every === 0)
      .map((c) => ({ at: round1((band(c.key) ?? 0) + band.bandwidth() / 2), label: c.label })),
    zero: round1(zero),
    valueAxisLabel: options.valueAxisLabel,
    categoryAxisLabel: options.categoryAxisLabel,
    table: {
      head: [options.categoryAxisLabel, ...series.map((s) => s.name)],
      rows: categories.map((c) => [c.label, ...c.values.map((v) => formatValue(v, unit))]),
    },
    empty: categories.length === 0,
  };
}

/** One bar per category, left to right from zero (leftwards for a loss), names down the side. */
export function horizontalBars(options: {
  id: string;
  title: string;
  unit: ValueUnit;
  seriesName: string;
  categories: { key: string; label: string; value: string }[];
  categoryAxisLabel: string;
  valueAxisLabel: string;
  width?: number;
}): Chart {
  const { width = 560, unit, categories } = options;
  const rowHeight = 26;
  const height = 56 + Math.max(1, categories.length) * rowHeight;
  const plot = { left: 150, top: 8, right: width - 16, bottom: height - 40 };
  const band = scaleBand<string>()
    .domain(categories.map((c) => c.key))
    .range([plot.top, plot.bottom])
    .padding(0.2);
  const { scale, ticks, step } = valueScale(
    categories.map((c) => c.value),
    [plot.left, plot.right],
    4,
  );
  const zero = scale(0);
  const series = [{ name: options.seriesName, tone: "blue" as const }];
  return {
    id: options.id,
    title: options.title,
    orientation: "horizontal",
    width,
    height,
    plot,
    series,
    bars: categories.map((c) => {
      const x = scale(toNumber(c.value));
      return {
        x: round1(Math.min(x, zero)),
        y: round1(band(c.key) ?? 0),
        width: round1(Math.abs(x - zero)),
        height: round1(band.bandwidth()),
        series: 0,
        label: `${c.label}: ${formatValue(c.value, unit)}`,
      };
    }),
    valueTicks: ticks.map((t) => ({ at: round1(scale(t)), label: formatTick(t, unit, step) })),
    categoryTicks: categories.map((c) => ({
      at: round1((band(c.key) ?? 0) + band.bandwidth() / 2),
      label: c.label.length > 20 ? `${c.label.slice(0, 19)}…` : c.label,
    })),
    zero: round1(zero),
    valueAxisLabel: options.valueAxisLabel,
    categoryAxisLabel: options.categoryAxisLabel,
    table: {
      head: [options.categoryAxisLabel, options.seriesName],
      rows: categories.map((c) => [c.label, formatValue(c.value, unit)]),
    },
    empty: categories.length === 0,
  };
}

/** A figure as the table and the bar's title show it: ₦ to the kobo, tons to the kilogram. */
export const formatValue = (value: string, unit: ValueUnit) =>
  unit === "tons" ? `${formatTons(value)} t` : formatNaira(value);

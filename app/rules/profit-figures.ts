// The profit report's figures from kept sums (docs/decisions/1270), written once: the page, the
// JSON call, the CSV, the PDF and the charts use these, and tests/integration/profit-report.test.ts
// holds them equal to the same figures summed from the delivery lines with the delivery rules
// (app/rules/deliveries.server.ts). Margin is profit / revenue of the totals shown, never an
// average of the rows' percentages.
import { add, percentOf, round, sub, sum, toFixed, type Decimal } from "~/utils/money";

/** Exact sums of a group of counted deliveries, as profit_month_totals keeps them (numeric text). */
export type ProfitSums = {
  n: number;
  nPriced: number;
  nReceived: number;
  loadedTons: string;
  receivedTons: string;
  acceptedTons: string;
  shortageTons: string;
  deductionTons: string;
  revenue: string;
  buyingCost: string;
  haulage: string;
  otherCosts: string;
};

/** A row's figures as shown: tons to the kilogram, money to the kobo, margin in percent to one decimal. */
export type ProfitFigures = {
  deliveries: number;
  /** Counted deliveries without a selling rate: in the tons, not in the money (as the dashboard's profit). */
  unpricedDeliveries: number;
  /** Deliveries with the client's weighbridge ticket. */
  receivedDeliveries: number;
  loadedTons: string;
  receivedTons: string;
  acceptedTons: string;
  shortageTons: string;
  qualityDeductionTons: string;
  revenue: string;
  buyingCost: string;
  haulage: string;
  otherCosts: string;
  profit: string;
  /** Profit / revenue x 100, one decimal; null without revenue. */
  margin: string | null;
};

const tons = (value: string | Decimal) => toFixed(value, 3);
const kobo = (value: string | Decimal) => toFixed(round(value, 2));

/** Profit from money columns already rounded to the kobo, so a row adds up as shown. */
export const profitOfColumns = (x: Pick<ProfitFigures, "revenue" | "buyingCost" | "haulage" | "otherCosts">) =>
  toFixed(sub(x.revenue, add(x.buyingCost, x.haulage, x.otherCosts)));

/** Margin from totals: profit over revenue, in percent to one decimal; null when there is no revenue. */
export const marginOf = (profit: string, revenue: string): string | null =>
  round(revenue, 2).units === 0n ? null : percentOf(profit, revenue, 1);

/** One group's figures: each money column rounded once from its exact sum, profit from those. */
export function figuresOf(s: ProfitSums): ProfitFigures {
  const money = {
    revenue: kobo(s.revenue),
    buyingCost: kobo(s.buyingCost),
    haulage: kobo(s.haulage),
    otherCosts: kobo(s.otherCosts),
  };
  const profit = profitOfColumns(money);
  return {
    deliveries: s.n,
    unpricedDeliveries: s.n - s.nPriced,
    receivedDeliveries: s.nReceived,
    loadedTons: tons(s.loadedTons),
    receivedTons: tons(s.receivedTons),
    acceptedTons: tons(s.acceptedTons),
    shortageTons: tons(s.shortageTons),
    qualityDeductionTons: tons(s.deductionTons),
    ...money,
    profit,
    margin: marginOf(profit, money.revenue),
  };
}

const TONS_FIELDS = ["loadedTons", "receivedTons", "acceptedTons", "shortageTons", "qualityDeductionTons"] as const;
const MONEY_FIELDS = ["revenue", "buyingCost", "haulage", "otherCosts", "profit"] as const;

/** The foot of the table: the sum of the rows as shown, margin from those sums. */
export function totalsOf(rows: ProfitFigures[]): ProfitFigures {
  const sumOf = (field: (typeof TONS_FIELDS)[number] | (typeof MONEY_FIELDS)[number], places: number) =>
    toFixed(sum(rows.map((r) => r[field])), places);
  const totals = {
    deliveries: rows.reduce((n, r) => n + r.deliveries, 0),
    unpricedDeliveries: rows.reduce((n, r) => n + r.unpricedDeliveries, 0),
    receivedDeliveries: rows.reduce((n, r) => n + r.receivedDeliveries, 0),
    ...(Object.fromEntries(TONS_FIELDS.map((f) => [f, sumOf(f, 3)])) as Record<(typeof TONS_FIELDS)[number], string>),
    ...(Object.fromEntries(MONEY_FIELDS.map((f) => [f, sumOf(f, 2)])) as Record<(typeof MONEY_FIELDS)[number], string>),
  };
  return { ...totals, margin: marginOf(totals.profit, totals.revenue) };
}

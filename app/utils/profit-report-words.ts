// The profit report's columns and words (docs/decisions/1270), once for the page, the CSV and the
// PDF. The weights from the client's ticket show only once some delivery has one.
import type { ProfitFigures } from "~/rules/profit-figures";
import { formatNaira, formatTons } from "~/utils/money";

export type ProfitColumnKind = "count" | "tons" | "money" | "percent";

export type ProfitColumn = {
  key: Exclude<keyof ProfitFigures, "unpricedDeliveries" | "receivedDeliveries">;
  header: string;
  kind: ProfitColumnKind;
  /** Shown only once a client's weighbridge ticket is recorded. */
  tickets?: boolean;
};

export const PROFIT_COLUMNS: ProfitColumn[] = [
  { key: "deliveries", header: "Deliveries", kind: "count" },
  { key: "loadedTons", header: "Loaded t", kind: "tons" },
  { key: "receivedTons", header: "Received t", kind: "tons", tickets: true },
  { key: "acceptedTons", header: "Accepted t", kind: "tons", tickets: true },
  { key: "shortageTons", header: "Shortage t", kind: "tons", tickets: true },
  { key: "qualityDeductionTons", header: "Deduction t", kind: "tons", tickets: true },
  { key: "revenue", header: "Revenue", kind: "money" },
  { key: "buyingCost", header: "Buying cost", kind: "money" },
  { key: "haulage", header: "Haulage", kind: "money" },
  { key: "otherCosts", header: "Other costs", kind: "money" },
  { key: "profit", header: "Profit", kind: "money" },
  { key: "margin", header: "Margin %", kind: "percent" },
];

export const profitColumns = (withTickets: boolean) => PROFIT_COLUMNS.filter((c) => withTickets || !c.tickets);

export const GROUP_WORDS = {
  month: "Month",
  agent: "Agent",
  client: "Client",
  site: "Pick-up site",
} as const;

/** The report's one-line description of its period and grouping. */
export function describeGrouping(by: keyof typeof GROUP_WORDS, then: keyof typeof GROUP_WORDS | null) {
  return then ? `By month, then ${GROUP_WORDS[then].toLowerCase()}` : `By ${GROUP_WORDS[by].toLowerCase()}`;
}

/** A note under the table when some counted deliveries have no selling rate yet. */
export const unpricedNote = (n: number) =>
  n === 0
    ? null
    : `${n} ${n === 1 ? "delivery has" : "deliveries have"} no selling rate yet: in the deliveries and tons, not in the money.`;

export const ACCEPTED_NOTE =
  "Received, accepted, shortage and deduction count the deliveries with the client's weighbridge ticket.";

/** A cell as the page shows it: tons to the kilogram, naira to the kobo, margin with one decimal. */
export function formatProfitCell(column: ProfitColumn, figures: ProfitFigures): string {
  const value = figures[column.key];
  if (value === null) return "—";
  switch (column.kind) {
    case "count":
      return String(value);
    case "tons":
      return formatTons(String(value));
    case "money":
      return formatNaira(String(value));
    case "percent":
      return `${value}%`;
  }
}

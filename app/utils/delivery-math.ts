// The delivery formulas of DESIGN.md, in exact decimal arithmetic. Missing numbers count as 0.
import { add, mul, sub, toFixed } from "./money";

type Figures = {
  tons: string;
  buyingRate?: string | null;
  sellingRate?: string | null;
  logisticsCost?: string | null;
  otherCosts?: string | null;
  offloadingCost?: string | null;
  mobilizationPayment?: string | null;
};

/** Revenue = tons x sellingRate, to the kobo; null while the selling rate is missing. */
export function deliveryRevenue(d: Figures): string | null {
  if (d.sellingRate === null || d.sellingRate === undefined || d.sellingRate === "") return null;
  return toFixed(mul(d.tons, d.sellingRate));
}

/** Profit = tons x sellingRate - (tons x buyingRate + logisticsCost + otherCosts); null without a selling rate. */
export function deliveryProfit(d: Figures): string | null {
  if (d.sellingRate === null || d.sellingRate === undefined || d.sellingRate === "") return null;
  const cost = add(mul(d.tons, d.buyingRate ?? "0"), d.logisticsCost ?? "0", d.otherCosts ?? "0");
  return toFixed(sub(mul(d.tons, d.sellingRate), cost));
}

/** Net payment to agent = tons x buyingRate - offloadingCost - mobilizationPayment. */
export function netPaymentToAgent(d: Figures): string {
  return toFixed(sub(sub(mul(d.tons, d.buyingRate ?? "0"), d.offloadingCost ?? "0"), d.mobilizationPayment ?? "0"));
}

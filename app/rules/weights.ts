// The three weights of a delivery (docs/decisions/1220): loaded, received and accepted, from
// weighbridge tickets in whole kilograms. Exact: kilograms are integers, tons are kilograms / 1000
// as decimal strings, and the one figure that can fall between kilograms (the quality deduction) is
// rounded half away from zero to the kilogram, once. The database's twins are the generated
// columns accepted_tons, invoiced_tons and paid_tons (db/schema.ts); tests/integration/rules.test.ts
// holds them equal.
import type { PayBasis } from "~/db.server";
import { compare, dec, mul, round, sub, toFixed, type Decimal } from "~/utils/money";

/** The heaviest gross weight a ticket may carry (kg): no road truck comes near it. */
export const MAX_TICKET_KG = 200_000;

/** A whole number of kilograms as tons, exact to three decimals: 30120 → "30.120". */
export const kgToTons = (kg: number | bigint): string => toFixed({ units: BigInt(kg), scale: 3 }, 3);

/** Tons (a decimal string) as whole kilograms, or null when it is not a whole number of them. */
export function tonsToKg(tons: string): number | null {
  const d = dec(tons);
  const kg = mul(d, 1000);
  const whole = round(kg, 0);
  return compare(kg, whole) === 0 ? Number(whole.units) : null;
}

/**
 * The kilograms a quality rule takes off: received kg × deducted percent / 100, rounded half away
 * from zero to the whole kilogram. `percent` is exact (`deductedPercent`, rules/quality.ts).
 */
export function deductionKg(receivedKg: number, percent: string): number {
  const exact: Decimal = mul(mul(receivedKg, percent), "0.01");
  return Number(round(exact, 0).units);
}

/** What the database keeps of a delivery's weights; tons as decimal strings, null when not known. */
export type Weights = {
  tons: string;
  receivedTons: string | null;
  qualityDeductionTons: string | null;
  payBasis: PayBasis;
};

const tons3 = (value: Decimal | string) => toFixed(value, 3);

/** Received − deduction, or null without a received weight (accepted_tons). */
export const acceptedTonsOf = (w: Weights): string | null =>
  w.receivedTons === null ? null : tons3(sub(w.receivedTons, w.qualityDeductionTons ?? "0"));

/** The tons the client is invoiced on: accepted with a received ticket, else loaded (invoiced_tons). */
export const invoicedTonsOf = (w: Weights): string => acceptedTonsOf(w) ?? tons3(w.tons);

/** The tons the agent is paid on: its basis's weight, else the loaded weight (paid_tons). */
export function paidTonsOf(w: Weights): string {
  if (w.payBasis === "received") return tons3(w.receivedTons ?? w.tons);
  if (w.payBasis === "accepted") return invoicedTonsOf(w);
  return tons3(w.tons);
}

/** Loaded − received, or null without a received weight. Negative when the client weighed more. */
export const shortageTonsOf = (w: Pick<Weights, "tons" | "receivedTons">): string | null =>
  w.receivedTons === null ? null : tons3(sub(w.tons, w.receivedTons));

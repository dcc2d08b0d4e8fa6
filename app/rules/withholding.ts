// What a client withholds from what it pays (docs/decisions/1240). Invoice amounts contain their
// VAT (decision 0922), and WHT is charged on the VAT-exclusive amount: settling an amount S of an
// invoice at VAT v% for a client withholding WHT at w% withholds S × w / (100 + v); a client that
// withholds VAT too keeps the VAT S contains, S × v / (100 + v). The rest is the cash. Each figure
// is one fraction of integers rounded once, half away from zero, to the kobo (as taxContained).
import { add, compare, dec, sub, toFixed } from "~/utils/money";

export type WithholdingRates = {
  /** The invoice's VAT rate, percent. */
  vatRate: string;
  /** The client's WHT rate, percent. */
  whtRate: string;
  /** Whether the client withholds the VAT too. */
  withholdsVat: boolean;
};

/** How an amount settled on an invoice splits: cash, WHT and VAT withheld (settled = the sum). */
export type Settlement = { settled: string; cash: string; wht: string; vatWithheld: string };

/** `numerator / denominator` (both kobo-scaled already) rounded half away from zero to whole kobo. */
function roundKobo(numerator: bigint, denominator: bigint): string {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return toFixed({ units: negative ? -q : q, scale: 2 });
}

/** `amount × rate / (100 + vat)` to the kobo: amount and the rates as exact decimals. */
function shareOf(amount: string, rate: string, vatRate: string): string {
  const a = dec(amount);
  const r = dec(rate);
  const v = dec(vatRate);
  // Bring the two percentages to one scale, then: a.units / 10^as × r / (100 + v), in kobo.
  const scale = Math.max(r.scale, v.scale);
  const rUnits = r.units * 10n ** BigInt(scale - r.scale);
  const vUnits = v.units * 10n ** BigInt(scale - v.scale);
  const denominator = 10n ** BigInt(a.scale) * (100n * 10n ** BigInt(scale) + vUnits);
  if (denominator <= 0n) return "0.00";
  return roundKobo(a.units * rUnits * 100n, denominator);
}

/** The WHT withheld on settling `settled`: settled × w / (100 + v), to the kobo. */
export const whtOf = (settled: string, { vatRate, whtRate }: WithholdingRates): string =>
  shareOf(settled, whtRate, vatRate);

/** The VAT withheld on settling `settled` (none unless the client withholds VAT). */
export const vatWithheldOf = (settled: string, { vatRate, withholdsVat }: WithholdingRates): string =>
  withholdsVat ? shareOf(settled, vatRate, vatRate) : "0.00";

/** Settling `settled` of an invoice: what is withheld by the formula, and the cash that is left. */
export function settle(settled: string, rates: WithholdingRates): Settlement {
  const wht = whtOf(settled, rates);
  const vatWithheld = vatWithheldOf(settled, rates);
  return { settled: toFixed(settled), cash: toFixed(sub(settled, add(wht, vatWithheld))), wht, vatWithheld };
}

/**
 * The gross-up: what cash `cash` settles. S = cash × (100 + v) / (100 + v − w − (v if VAT is
 * withheld)), rounded to the kobo; the VAT withheld is S's by the formula, and the WHT is what is
 * left, S − cash − VAT, so cash + WHT + VAT is S exactly. Rounding S moves that WHT at most a kobo
 * from S × w / (100 + v) (tested). Used for the part of a receipt's cash that does not settle an
 * invoice whole, and by the bank statement's matching of a short transfer.
 */
export function grossUp(cash: string, rates: WithholdingRates): Settlement {
  const c = dec(cash);
  const w = dec(rates.whtRate);
  const v = dec(rates.vatRate);
  const scale = Math.max(w.scale, v.scale);
  const wUnits = w.units * 10n ** BigInt(scale - w.scale);
  const vUnits = v.units * 10n ** BigInt(scale - v.scale);
  const hundred = 100n * 10n ** BigInt(scale);
  const kept = hundred + vUnits - wUnits - (rates.withholdsVat ? vUnits : 0n);
  if (kept <= 0n) throw new RangeError("The client's withholding takes the whole amount");
  let settled = roundKobo(c.units * (hundred + vUnits) * 100n, 10n ** BigInt(c.scale) * kept);
  for (;;) {
    const vatWithheld = vatWithheldOf(settled, rates);
    const wht = toFixed(sub(sub(settled, cash), vatWithheld));
    // A VAT withheld rounded up past what S − cash leaves: S one kobo more (at most once or twice).
    if (compare(wht, "0") >= 0) return { settled, cash: toFixed(cash), wht, vatWithheld };
    settled = toFixed(add(settled, "0.01"));
  }
}

/**
 * What `cash` settles of an invoice whose balance is `balance`: the whole balance when the cash
 * covers what that leaves to pay, otherwise the gross-up of the cash (never past the balance).
 */
export function settleFromCash(cash: string, balance: string, rates: WithholdingRates): Settlement {
  const whole = settle(balance, rates);
  if (compare(cash, whole.cash) >= 0) return whole;
  const part = grossUp(cash, rates);
  if (compare(part.settled, balance) <= 0) return part;
  // The kobo of rounding that would pass the balance goes to the WHT of this last part.
  const wht = toFixed(sub(sub(balance, cash), whole.vatWithheld));
  return { settled: toFixed(balance), cash: toFixed(cash), wht, vatWithheld: whole.vatWithheld };
}

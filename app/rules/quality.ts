// A client's quality rules (docs/decisions/1210): moisture above the rule's threshold costs the
// delivery a share of its received weight, `deductionPerPoint` percent per percentage point.
// A rule holds from its date until the client's next one. Exact decimals only (utils/money).
import { add, compare, dec, mul, sub, toFixed, type Decimal } from "~/utils/money";

/** What a rule says; the decimals are strings with at most two places ("16.00"). */
export type QualityTerms = { moistureThreshold: string; deductionPerPoint: string };

/**
 * The rule in effect on `date` ("yyyy-MM-dd"): the one with the greatest `validFrom` on or before
 * it, or null when the client's first rule starts later (or it has none). Any order in; ISO dates
 * compare as text. The database's twin is `qualityRuleOn` (models/quality-rule.server.ts), which
 * reads one row through the (client_id, valid_from desc) index.
 */
export function ruleOn<R extends { validFrom: string }>(rules: readonly R[], date: string): R | null {
  let found: R | null = null;
  for (const rule of rules) if (rule.validFrom <= date && (!found || rule.validFrom > found.validFrom)) found = rule;
  return found;
}

const HUNDRED = dec("100");

/** A decimal as people write it: "18.50" → "18.5", "2.00" → "2". */
export function plainDecimal(value: Decimal | string): string {
  const d = dec(value);
  const fixed = toFixed(d, Math.max(d.scale, 0));
  return fixed.includes(".") ? fixed.replace(/0+$/, "").replace(/\.$/, "") : fixed;
}

/**
 * The percent of the received weight a moisture `reading` (percent, decimal string) deducts under
 * `rule`: points above the threshold times the deduction per point, 0 at or below the threshold,
 * never more than the whole weight (100). Exact: "18.5" against 16 and 1 is "2.5".
 */
export function deductedPercent(rule: QualityTerms, reading: string): string {
  const above = sub(reading, rule.moistureThreshold);
  if (compare(above, 0) <= 0) return "0";
  const deducted = mul(above, rule.deductionPerPoint);
  return plainDecimal(compare(deducted, HUNDRED) > 0 ? HUNDRED : deducted);
}

/** How far above the threshold the worked example reads. */
const EXAMPLE_POINTS = "2.5";

/**
 * The worked example the client's page shows for a rule: a reading 2.5 points above the
 * threshold, and what it deducts ("A reading of 18.5% is 2.5 points above 16%: it deducts
 * 2.5 × 1% = 2.5% of the received weight.").
 */
export function workedExample(rule: QualityTerms): string {
  const reading = plainDecimal(add(rule.moistureThreshold, EXAMPLE_POINTS));
  const threshold = plainDecimal(rule.moistureThreshold);
  const perPoint = plainDecimal(rule.deductionPerPoint);
  const product = plainDecimal(mul(EXAMPLE_POINTS, rule.deductionPerPoint));
  // Above 100% a deduction takes the whole weight and no more (deductedPercent).
  const result =
    deductedPercent(rule, reading) === product
      ? `${product}% of the received weight`
      : `${product}%, that is the whole received weight`;
  return `A reading of ${reading}% is ${EXAMPLE_POINTS} points above ${threshold}%: it deducts ${EXAMPLE_POINTS} × ${perPoint}% = ${result}.`;
}

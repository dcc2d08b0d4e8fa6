// The client statement's ageing rule (docs/decisions/0970), written once in
// JavaScript (here, so the page can use its labels in the browser) and once in SQL
// (statements.server.ts, decision 0800): what each invoice still owes at the statement's
// end date goes in one bucket by how many days past its due date (expected_payment_date) that
// end date is. Not yet due or due that day: Current. An invoice whose payments and credits go
// beyond its amount (the client's unapplied credit) counts in Current as a negative, so the
// buckets always add up to the closing balance.
import { add, isNegative, toFixed, type Decimal } from "~/utils/money";

export const AGEING_BUCKETS = ["current", "d1_30", "d31_60", "d61_90", "over90"] as const;
export type AgeingBucket = (typeof AGEING_BUCKETS)[number];

export const AGEING_LABELS: Record<AgeingBucket, string> = {
  current: "Current",
  d1_30: "1–30 days",
  d31_60: "31–60 days",
  d61_90: "61–90 days",
  over90: "Over 90 days",
};

const DAY_MS = 86_400_000;

/** Whole days from `due` to `asOf` (both yyyy-MM-dd); negative when not yet due. */
export function daysOverdue(due: string, asOf: string): number {
  return Math.round((Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / DAY_MS);
}

/** The bucket of an amount outstanding on an invoice due `due`, as of `asOf`. */
export function ageingBucket(due: string, asOf: string, outstanding: string): AgeingBucket {
  if (isNegative(outstanding)) return "current";
  const days = daysOverdue(due, asOf);
  if (days <= 0) return "current";
  if (days <= 30) return "d1_30";
  if (days <= 60) return "d31_60";
  if (days <= 90) return "d61_90";
  return "over90";
}

export type Ageing = Record<AgeingBucket, string> & { total: string };

/** The ageing box of some invoices' outstanding amounts, as of `asOf`. */
export function ageingOf(invoices: { due: string; outstanding: string }[], asOf: string): Ageing {
  const sums: Record<AgeingBucket, Decimal> = {
    current: add(),
    d1_30: add(),
    d31_60: add(),
    d61_90: add(),
    over90: add(),
  };
  for (const i of invoices) {
    const bucket = ageingBucket(i.due, asOf, i.outstanding);
    sums[bucket] = add(sums[bucket], i.outstanding);
  }
  return {
    current: toFixed(sums.current),
    d1_30: toFixed(sums.d1_30),
    d31_60: toFixed(sums.d31_60),
    d61_90: toFixed(sums.d61_90),
    over90: toFixed(sums.over90),
    total: toFixed(add(...invoices.map((i) => i.outstanding))),
  };
}

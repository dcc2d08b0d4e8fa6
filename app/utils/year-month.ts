// A month as the pages and the JSON calls take it. A module of its own: utils/dates is in
// New Delivery's bundle, and what it exports there costs that page bytes (tests/e2e/budget.spec.ts).

/** "YYYY-MM" of a year from 1900 to 9999, as dates are (PostgreSQL has no year 0). A pattern only. */
export const isYearMonth = (value: unknown): value is string =>
  typeof value === "string" && /^(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])$/.test(value);

// Month arithmetic, in one place: written on the numbers, never through a date library that
// would step into year 10000 past December 9999 (its month view, export and invoicing answered
// 500, decision 0841). Each takes a month `isYearMonth` accepts.
const partsOf = (yearMonth: string) => [Number(yearMonth.slice(0, 4)), Number(yearMonth.slice(5, 7))];
const monthOfParts = (year: number, month: number) => `${year}-${String(month).padStart(2, "0")}`;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** "2026-02" -> "2026-02-01" */
export const firstDayOfMonth = (yearMonth: string) => `${yearMonth}-01`;

/** "2026-02" -> "2026-02-28"; "9999-12" -> "9999-12-31". */
export function lastDayOfMonth(yearMonth: string) {
  const [year, month] = partsOf(yearMonth);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return `${yearMonth}-${month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]}`;
}

/** The month before: "2026-01" -> "2025-12". */
export function previousMonth(yearMonth: string) {
  const [year, month] = partsOf(yearMonth);
  return month === 1 ? monthOfParts(year - 1, 12) : monthOfParts(year, month - 1);
}

/** The month after: "2025-12" -> "2026-01". December 9999 has none: null. */
export function nextMonth(yearMonth: string): string | null {
  const [year, month] = partsOf(yearMonth);
  if (month === 12) return year >= 9999 ? null : monthOfParts(year + 1, 1);
  return monthOfParts(year, month + 1);
}

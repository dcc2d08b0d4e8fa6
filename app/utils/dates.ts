// Calendar dates ("yyyy-MM-dd") in the business time zone. "Now" is always passed in,
// so tests can ask what "today" is in Lagos at 23:30 UTC without mocking the clock.

export const DEFAULT_TIME_ZONE = "Africa/Lagos";
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar date of `now` in `timeZone`, as yyyy-MM-dd. */
// Building an Intl.DateTimeFormat costs far more than using one (about 1% of the server's CPU
// under the bench's load, issue 10): one per time zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
export function todayIn(timeZone: string, now: Date = new Date()): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}`;
}

/** True for a real calendar date (rejects 2025-02-30). */
export function isValidDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900 && y <= 9999;
}

function toUtc(value: string) {
  const [y, m, d] = value.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

function fromUtc(date: Date) {
  return date.toISOString().slice(0, 10);
}

export function addDays(value: string, days: number): string {
  const date = toUtc(value);
  date.setUTCDate(date.getUTCDate() + days);
  return fromUtc(date);
}

/** The Sunday on or before `value` (the week starts on Sunday, spec section 9). */
export function startOfWeek(value: string): string {
  return addDays(value, -toUtc(value).getUTCDay());
}

const MONTHS_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
];

function split(value: string) {
  const [y, m, d] = value.slice(0, 10).split("-");
  return { y, m: Number(m), mm: m, d: Number(d), dd: d };
}

/** MMM dd, yyyy (deliveries): "Mar 05, 2026" */
export function formatDeliveryDate(value: string) {
  const { y, m, dd } = split(value);
  return `${MONTHS_SHORT[m - 1]} ${dd}, ${y}`;
}

/** MMM d, yyyy (settings): "Mar 5, 2026" */
export function formatShortDate(value: string | Date) {
  const { y, m, d } = split(typeof value === "string" ? value : value.toISOString());
  return `${MONTHS_SHORT[m - 1]} ${d}, ${y}`;
}

/** dd/MM/yyyy (reconciliation) */
export function formatDayMonthYear(value: string) {
  const { y, mm, dd } = split(value);
  return `${dd}/${mm}/${y}`;
}

/** "2026-03" -> "March 2026" */
export function formatMonth(yearMonth: string) {
  const [y, m] = yearMonth.split("-");
  return `${MONTHS_LONG[Number(m) - 1]} ${y}`;
}

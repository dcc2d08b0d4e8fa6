// Calendar dates ("yyyy-MM-dd") in the business time zone. "Now" is always passed in,
// so tests can ask what "today" is in Lagos at 23:30 UTC without mocking the clock.
//
// Date math is date-fns. "Today" and the display formats stay small hand-written functions:
// the browser runs them (New Delivery's outbox, the tables), and @date-fns/tz or date-fns'
// `format` would add 1.7-5.8 KB gzip to a page 1.7 KB under its budget (decision 0841).
// date-fns works on the process's local calendar here, consistently: a "yyyy-MM-dd" parsed by
// parseISO is local midnight, and lightFormat reads it back the same way, whatever TZ is.
import {
  addDays as addCalendarDays,
  isValid,
  lightFormat,
  parseISO,
  startOfWeek as startOfCalendarWeek,
} from "date-fns";

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The calendar date of `now` in `timeZone`, as yyyy-MM-dd. */
// Building an Intl.DateTimeFormat costs far more than using one (about 1% of the server's CPU
// under the bench's load): one per time zone, kept.
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

/**
 * The calendar date, in `timeZone`, of an instant (a Date or an ISO timestamp); a calendar date
 * is returned as it is. Never the first 10 characters of a UTC timestamp: those are the day
 * before for the first hour of every Lagos day.
 */
export function dayIn(timeZone: string, value: Date | string): string {
  if (typeof value === "string" && DATE_RE.test(value)) return value;
  const instant = typeof value === "string" ? new Date(value) : value;
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a date or a timestamp: ${String(value)}`);
  return todayIn(timeZone, instant);
}

const ISO_DATE = "yyyy-MM-dd";

/** The last day `isValidDate` accepts: the day after it cannot be written yyyy-MM-dd. */
export const LAST_DATE = "9999-12-31";

/** True for a real calendar date from 1900 to 9999 (rejects 2025-02-30). */
export function isValidDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= 1900 && year <= 9999 && isValid(parseISO(value));
}

export function addDays(value: string, days: number): string {
  return lightFormat(addCalendarDays(parseISO(value), days), ISO_DATE);
}

/** The Sunday on or before `value` (the week starts on Sunday, spec section 9). */
export function startOfWeek(value: string): string {
  return lightFormat(startOfCalendarWeek(parseISO(value), { weekStartsOn: 0 }), ISO_DATE);
}

const MONTHS_SHORT = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/**
 * The one display format of a calendar date, app-wide (spec section 9's MMM dd, yyyy; decision
 * 0841): "Mar 05, 2026". A calendar date only: the loader turns a timestamp into its day with
 * `dayIn` (the browser does not know APP_TIME_ZONE), and a timestamp here is refused rather than
 * shown as its UTC day.
 */
export function formatDate(day: string) {
  // Anything longer than yyyy-MM-dd is a timestamp. The shortest check (and TypeError without
  // `new`, the same error): the browser runs this, in a chunk New Delivery loads, whose budget
  // has bytes, not kilobytes, left (decision 0841).
  if (day[10]) throw TypeError(day);
  const [y, m, dd] = day.split("-");
  return `${MONTHS_SHORT[+m - 1]} ${dd}, ${y}`;
}

/**
 * The one display format of a moment, app-wide: the date as `formatDate`, then HH:mm (24-hour).
 * `iso` is "yyyy-MM-ddTHH:mm…": a UTC timestamp (ending in Z) says " UTC" after the time; a
 * local one (the phone's own clock, as the outbox shows it) says nothing more.
 */
export function formatDateTime(iso: string) {
  return `${formatDate(iso.slice(0, 10))} ${iso.slice(11, 16)}${iso.endsWith("Z") ? " UTC" : ""}`;
}

/** "2026-03" -> "March 2026" */
export function formatMonth(yearMonth: string) {
  const [y, m] = yearMonth.split("-");
  return `${MONTHS_LONG[Number(m) - 1]} ${y}`;
}

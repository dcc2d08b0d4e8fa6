// A statement's query (?from=&to=&after=): its period and where its page of lines starts, read
// and refused here so the client and the agent statement say the same (docs/decisions/0970).
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";
import { addDays, isValidDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { parseId } from "~/utils/params";

const MAX_STATEMENT_YEARS = 5;

export type StatementPeriod = { from: string; to: string };
/** Where a page of lines starts: after the line (date, kind order, id). */
export type StatementCursor = { date: string; order: number; id: number };

const LINE_CURSOR_RE = /^(\d{4}-\d{2}-\d{2})\.([1-5])\.(\d{1,10})$/;

export const formatStatementCursor = (c: StatementCursor) => `${c.date}.${c.order}.${c.id}`;

export function parseStatementCursor(value: string | null): StatementCursor | null | "invalid" {
  if (value === null || value === "") return null;
  const match = LINE_CURSOR_RE.exec(value);
  if (!match || !isValidDate(match[1])) return "invalid";
  const id = parseId(match[3]);
  return id === null ? "invalid" : { date: match[1], order: Number(match[2]), id };
}

/** The same day `years` later; 29 February becomes 1 March in a year without one. */
function addYears(date: string, years: number): string {
  const year = String(Number(date.slice(0, 4)) + years).padStart(4, "0");
  const same = `${year}${date.slice(4)}`;
  return isValidDate(same) ? same : `${year}-03-01`;
}

/**
 * The period of `?from=&to=`: the current month so far by default (either date alone keeps the
 * other's default). `from` after `to`, an impossible date or more than five years: a 400.
 */
export function parseStatementPeriod(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; period: StatementPeriod } | { ok: false; status: 400; message: string } {
  const today = todayIn(env().APP_TIME_ZONE, now);
  const fromRaw = params.get("from")?.trim() || `${today.slice(0, 8)}01`;
  const toRaw = params.get("to")?.trim() || today;
  if (!isValidDate(fromRaw))
    return { ok: false, status: 400, message: "The start date is not a valid date (yyyy-mm-dd)" };
  if (!isValidDate(toRaw)) return { ok: false, status: 400, message: "The end date is not a valid date (yyyy-mm-dd)" };
  if (fromRaw > toRaw) return { ok: false, status: 400, message: "The start date is after the end date" };
  // A statement's days are days of business: none before 2000, none beyond a year from today.
  if (fromRaw < EARLIEST_BUSINESS_DATE)
    return { ok: false, status: 400, message: "The start date must be on or after 1 January 2000" };
  if (toRaw > addDays(today, 366))
    return { ok: false, status: 400, message: "The end date must be within a year from today" };
  // Five years: 2021-03-01 to 2026-02-28 is fine, to 2026-03-01 is not.
  if (toRaw >= addYears(fromRaw, MAX_STATEMENT_YEARS)) {
    return { ok: false, status: 400, message: `A statement covers at most ${MAX_STATEMENT_YEARS} years` };
  }
  return { ok: true, period: { from: fromRaw, to: toRaw } };
}

/**
 * A statement page's query: the dates as typed (the form shows them back), and the period and
 * page of lines it asks for, or why they are refused (the page answers 400 with the message).
 */
export function readStatementPageQuery(
  query: URLSearchParams,
  now = new Date(),
):
  | { ok: true; form: { from: string; to: string }; period: StatementPeriod; after: StatementCursor | null }
  | { ok: false; form: { from: string; to: string }; message: string } {
  const form = { from: query.get("from") ?? "", to: query.get("to") ?? "" };
  const period = parseStatementPeriod(query, now);
  if (!period.ok) return { ok: false, form, message: period.message };
  const after = parseStatementCursor(query.get("after"));
  if (after === "invalid") return { ok: false, form, message: "The page of lines asked for is not valid" };
  return { ok: true, form, period: period.period, after };
}

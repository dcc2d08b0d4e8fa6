// The reminder schedule (docs/decisions/1260), pure: what a client is to be reminded of today is
// computed from its open invoices and what was already sent, never from a queue of planned
// sends. So a day the server was down costs nothing but that day: the next computation offers
// only the highest level each invoice has reached since, once.
import { compare, formatNaira, sum, toFixed } from "~/utils/money";
import { addDays, formatDate } from "~/utils/dates";

export const DEFAULT_REMINDER_LEVELS = [-3, 0, 7, 14, 30] as const;
/** Levels are days from the due date: at most a year either side, at most ten of them. */
export const MIN_LEVEL = -365;
export const MAX_LEVEL = 365;
export const MAX_LEVELS = 10;

/** An invoice with a balance, as the schedule reads it. */
export type OpenInvoice = {
  id: number;
  invoiceNo: string;
  /** What is still owed (a decimal string above zero). */
  balance: string;
  dueDate: string;
  /** The highest level already sent for it, or null. */
  highestSent: number | null;
};

export type DueInvoice = OpenInvoice & { level: number };

/** The highest level reached on `today` by an invoice due on `dueDate`, or null before the first. */
export function levelReached(dueDate: string, today: string, levels: readonly number[]): number | null {
  let reached: number | null = null;
  for (const level of levels) {
    if (addDays(dueDate, level) <= today && (reached === null || level > reached)) reached = level;
  }
  return reached;
}

/** The level an invoice is due a reminder for today: the highest reached, unless it (or a higher one) was sent. */
export function dueLevel(invoice: OpenInvoice, today: string, levels: readonly number[]): number | null {
  const reached = levelReached(invoice.dueDate, today, levels);
  if (reached === null) return null;
  if (invoice.highestSent !== null && invoice.highestSent >= reached) return null;
  return reached;
}

/**
 * A client's reminder for today: the invoices with a balance due a level, oldest due first, and
 * the client's level (the highest of theirs); null when nothing is due or the client is off.
 */
export function clientReminder(
  client: { remindersOff: boolean },
  invoices: readonly OpenInvoice[],
  today: string,
  levels: readonly number[],
): { level: number; invoices: DueInvoice[] } | null {
  if (client.remindersOff) return null;
  const due: DueInvoice[] = [];
  for (const invoice of invoices) {
    if (compare(invoice.balance, "0") <= 0) continue;
    const level = dueLevel(invoice, today, levels);
    if (level !== null) due.push({ ...invoice, level });
  }
  if (!due.length) return null;
  due.sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id));
  return { level: Math.max(...due.map((d) => d.level)), invoices: due };
}

/** "due in 3 days", "due today", "7 days overdue". */
export function dueWords(dueDate: string, today: string): string {
  const days = Math.round((Date.parse(today) - Date.parse(dueDate)) / 86_400_000);
  if (days === 0) return "due today";
  if (days < 0) return `due in ${-days} ${-days === 1 ? "day" : "days"}`;
  return `${days} ${days === 1 ? "day" : "days"} overdue`;
}

/** The one message a client gets: its invoices, amounts and due dates, the total and the statement link. */
export function reminderMessage(input: {
  clientName: string;
  businessName: string | null;
  invoices: readonly Pick<DueInvoice, "invoiceNo" | "balance" | "dueDate">[];
  today: string;
  statementUrl: string;
}): string {
  const from = input.businessName?.trim() ? ` from ${input.businessName.trim()}` : "";
  const lines = input.invoices.map(
    (i) =>
      `- Invoice ${i.invoiceNo}: ${formatNaira(i.balance)} due ${formatDate(i.dueDate)} (${dueWords(i.dueDate, input.today)})`,
  );
  const total = toFixed(sum(input.invoices.map((i) => i.balance)));
  return [
    `Hello ${input.clientName}, this is a payment reminder${from}.`,
    "",
    ...lines,
    "",
    `Total: ${formatNaira(total)}`,
    `Your statement: ${input.statementUrl}`,
    "",
    "Thank you.",
  ].join("\n");
}

/** Levels as typed in settings ("-3, 0, 7"): sorted, unique; or the message saying what is wrong. */
export function parseLevels(text: string): { ok: true; levels: number[] } | { ok: false; message: string } {
  const parts = text
    .split(/[\s,]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length)
    return { ok: false, message: "Enter at least one level, in days from the due date (e.g. -3, 0, 7)" };
  const levels = new Set<number>();
  for (const part of parts) {
    if (!/^[+-]?\d{1,3}$/.test(part)) return { ok: false, message: `"${part}" is not a whole number of days` };
    const n = Number(part);
    if (n < MIN_LEVEL || n > MAX_LEVEL)
      return { ok: false, message: `Levels are from ${MIN_LEVEL} to ${MAX_LEVEL} days` };
    levels.add(n === 0 ? 0 : n);
  }
  if (levels.size > MAX_LEVELS) return { ok: false, message: `At most ${MAX_LEVELS} levels` };
  return { ok: true, levels: [...levels].sort((a, b) => a - b) };
}

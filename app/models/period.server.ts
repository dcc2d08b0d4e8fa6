// Month close (docs/decisions/0901). One row says through which day the books are closed;
// closing is cumulative: closing March closes everything dated on or before 31 March.
//
// Every write of something dated (deliveries, invoices, payments, and later credit notes and
// payouts) calls `assertPeriodOpen(tx, ...dates)` inside its own transaction. It reads the row
// FOR SHARE: writers never wait on each other, but a close (which updates the row) waits for
// every write that has read it to commit, and a write that starts after a close sees it. So a
// write and a close racing each other cannot both succeed on the same month.
import { asc, eq, gt } from "drizzle-orm";
import { getDb, schema, type Executor, type User } from "~/db.server";
import { refuse, assertCan } from "~/rules/capabilities.server";
import { CloseMonthSchema, ReopenMonthSchema } from "~/schemas/periods";
import { formatMonth, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, type Failure, type Result } from "~/utils/result";
import { lastDayOfMonth, nextMonth, previousMonth } from "~/utils/year-month";
import { recordAudit } from "./audit.server";

export const PERIOD_CLOSED_MESSAGE = "This month is closed";

type Actor = Pick<User, "id" | "role"> & { email?: string };

/** Thrown by `assertPeriodOpen`: rolls the transaction back; `failure` is the 409 to answer. */
export class PeriodClosedError extends Error {
  readonly failure: Failure<409>;
  constructor(readonly closedThrough: string) {
    const message = `${PERIOD_CLOSED_MESSAGE}: nothing dated on or before ${closedThrough} (the end of ${formatMonth(
      closedThrough.slice(0, 7),
    )}) can be created, changed or deleted.`;
    super(message);
    this.name = "PeriodClosedError";
    this.failure = fail(409, message);
  }
}

export const isPeriodClosed = (error: unknown): error is PeriodClosedError => error instanceof PeriodClosedError;

/** Whether `date` ("yyyy-MM-dd" or "yyyy-MM") falls in a closed month, given the closed-through day. */
export function isInClosedMonth(date: string, closedThrough: string | null): boolean {
  return closedThrough !== null && (date.length === 7 ? lastDayOfMonth(date) : date.slice(0, 10)) <= closedThrough;
}

/**
 * What a page says instead of offering a change that a closed month would refuse: the same
 * words as the 409 a write gets, and who can undo it.
 */
export function closedMonthReason(closedThrough: string): string {
  return `${new PeriodClosedError(closedThrough).message} An admin can reopen the month, with a reason, in System Settings.`;
}

/**
 * The closed-through day for any signed-in page that shows dated records (read without a lock:
 * the write itself checks again inside its transaction).
 */
export async function getClosedThrough(): Promise<string | null> {
  return readClosedThrough(await getDb());
}

/** The last closed day ("yyyy-MM-dd"), or null when no month is closed: for what reads, not writes. */
export async function readClosedThrough(db: Executor): Promise<string | null> {
  const [row] = await db
    .select({ closedThrough: schema.periodClose.closedThrough })
    .from(schema.periodClose)
    .where(eq(schema.periodClose.id, 1));
  return row?.closedThrough ?? null;
}

/** The last closed day ("yyyy-MM-dd"), or null when no month is closed. Reads FOR SHARE. */
async function closedThroughForShare(tx: Executor): Promise<string | null> {
  const [row] = await tx
    .select({ closedThrough: schema.periodClose.closedThrough })
    .from(schema.periodClose)
    .where(eq(schema.periodClose.id, 1))
    .for("share");
  return row?.closedThrough ?? null;
}

/**
 * Inside a write's transaction: the 409 Failure when any of `dates` ("yyyy-MM-dd"; null and
 * undefined are skipped) falls in a closed month, else null. For code that returns Failures
 * from its transaction callback.
 */
export async function checkPeriodOpen(
  tx: Executor,
  ...dates: (string | null | undefined)[]
): Promise<Failure<409> | null> {
  const closedThrough = await closedThroughForShare(tx);
  if (!closedThrough) return null;
  return dates.some((d) => d && d.slice(0, 10) <= closedThrough) ? new PeriodClosedError(closedThrough).failure : null;
}

/**
 * Inside a write's transaction: throws PeriodClosedError (which rolls the transaction back)
 * when any of `dates` falls in a closed month. Catch it with `isPeriodClosed` and answer its
 * `failure` (409, "This month is closed: ...").
 */
export async function assertPeriodOpen(tx: Executor, ...dates: (string | null | undefined)[]): Promise<void> {
  const closedThrough = await closedThroughForShare(tx);
  if (closedThrough && dates.some((d) => d && d.slice(0, 10) <= closedThrough)) {
    throw new PeriodClosedError(closedThrough);
  }
}

export type PeriodState = {
  /** Last closed day, "yyyy-MM-dd", or null. */
  closedThrough: string | null;
  /** Last closed month, "yyyy-MM", or null. */
  closedThroughMonth: string | null;
  /** The same as shown: "March 2026", or null. */
  closedThroughLabel: string | null;
  /** The latest month that may be closed now (the last month that has ended). */
  latestClosable: string;
  /** The months a close can be asked for, newest first: ended, still open, from the first with deliveries. */
  closeChoices: MonthChoice[];
  /** The closed months a reopen can be asked for, newest first. */
  reopenChoices: MonthChoice[];
};

/** A month ("yyyy-MM") and its name ("March 2026"). */
export type MonthChoice = { month: string; label: string };
const choices = (months: string[]): MonthChoice[] => months.map((month) => ({ month, label: formatMonth(month) }));

/**
 * The choices run from the first delivery's month, so the books' own age bounds them; this only
 * stops a delivery dated a century back from making a list no one could use.
 */
const MAX_CHOICES = 1200;

const monthOf = (day: string) => day.slice(0, 7);

/** Months from `from` to `to` ("yyyy-MM", both included), newest first, at most MAX_CHOICES. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let m = to; m >= from && months.length < MAX_CHOICES; m = previousMonth(m)) months.push(m);
  return months;
}

/** The month of the first delivery (the books start there), or null when there is none. */
async function firstDeliveryMonth(db: Executor): Promise<string | null> {
  const t = schema.deliveryMonthTotals;
  const [row] = await db.select({ month: t.month }).from(t).where(gt(t.nAll, 0)).orderBy(asc(t.month)).limit(1);
  return row ? monthOf(row.month) : null;
}

/** What System Settings shows: the closed-through month and the months to choose from. Admins (`period.close`). */
export async function getPeriodState(actor: Actor, now = new Date()): Promise<PeriodState> {
  assertCan(actor, "period.close", "period");
  const db = await getDb();
  const [closedThrough, first] = await Promise.all([readClosedThrough(db), firstDeliveryMonth(db)]);
  const closedMonth = closedThrough ? monthOf(closedThrough) : null;
  const latestClosable = previousMonth(monthOf(todayIn(env().APP_TIME_ZONE, now)));
  const start = first && first < latestClosable ? first : latestClosable;
  const afterClosed = closedMonth ? nextMonth(closedMonth) : null;
  const firstOpen = afterClosed && afterClosed > start ? afterClosed : start;
  return {
    closedThrough,
    closedThroughMonth: closedMonth,
    closedThroughLabel: closedMonth ? formatMonth(closedMonth) : null,
    latestClosable,
    closeChoices: choices(monthsBetween(firstOpen, latestClosable)),
    reopenChoices: choices(closedMonth ? monthsBetween(start < closedMonth ? start : closedMonth, closedMonth) : []),
  };
}

/**
 * What closing `month` would close, for the confirmation System Settings asks for: the months
 * still open up to it, oldest first (from the first with deliveries when none is closed yet).
 */
export function monthsClosedBy(state: PeriodState, month: string): MonthChoice[] {
  if (state.closedThroughMonth && month <= state.closedThroughMonth) return [];
  const open = state.closeChoices.filter((m) => m.month <= month);
  return (open.length ? open : choices([month])).reverse();
}

export type PeriodResult = Result<{ state: PeriodState; changed: boolean }>;

/**
 * Closes `month` ("yyyy-MM") and, with it, every earlier month. Only a month that has ended can
 * be closed. Closing a month that is already closed changes nothing and records nothing.
 */
export async function closeMonth(
  actor: Actor,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<PeriodResult> {
  const refused = refuse(actor, "period.close", "period", "Only admins can close a month");
  if (refused) return refused;
  const parsed = CloseMonthSchema.safeParse({ month: input.month });
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const { month } = parsed.data;
  const current = monthOf(todayIn(env().APP_TIME_ZONE, now));
  if (month >= current) {
    const message = `Only a month that has ended can be closed: ${formatMonth(month)} has not ended yet`;
    return fail(400, message, { month: [message] });
  }
  const through = lastDayOfMonth(month);
  const db = await getDb();
  const changed = await db.transaction(async (tx) => {
    // The write lock waits for every write that read the row FOR SHARE to commit.
    const [row] = await tx.select().from(schema.periodClose).where(eq(schema.periodClose.id, 1)).for("update");
    const before = row?.closedThrough ?? null;
    if (before && before >= through) return false;
    await tx
      .insert(schema.periodClose)
      .values({ id: 1, closedThrough: through, updatedAt: new Date(), updatedBy: actor.id })
      .onConflictDoUpdate({
        target: schema.periodClose.id,
        set: { closedThrough: through, updatedAt: new Date(), updatedBy: actor.id },
      });
    await recordAudit(tx, {
      actor,
      action: "period.close",
      entityType: "period",
      entityId: month,
      before: { closedThrough: before },
      after: { closedThrough: through },
    });
    return true;
  });
  return { ok: true, changed, state: await getPeriodState(actor, now) };
}

/**
 * Reopens `month` and every later closed month (closing is cumulative): the books are then
 * closed through the month before. A reason is required and kept in the audit trail.
 */
export async function reopenMonth(
  actor: Actor,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<PeriodResult> {
  const refused = refuse(actor, "period.close", "period", "Only admins can reopen a month");
  if (refused) return refused;
  const parsed = ReopenMonthSchema.safeParse({ month: input.month, reason: input.reason });
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const { month, reason } = parsed.data;
  const db = await getDb();
  const outcome = await db.transaction(async (tx): Promise<Failure | null> => {
    const [row] = await tx.select().from(schema.periodClose).where(eq(schema.periodClose.id, 1)).for("update");
    const before = row?.closedThrough ?? null;
    if (!before || `${month}-01` > before) {
      const message = `${formatMonth(month)} is not closed`;
      return fail(409, message, { month: [message] });
    }
    const through = lastDayOfMonth(previousMonth(month));
    await tx
      .update(schema.periodClose)
      .set({ closedThrough: through, updatedAt: new Date(), updatedBy: actor.id })
      .where(eq(schema.periodClose.id, 1));
    await recordAudit(tx, {
      actor,
      action: "period.reopen",
      entityType: "period",
      entityId: month,
      before: { closedThrough: before },
      after: { closedThrough: through, reason },
    });
    return null;
  });
  if (outcome) return outcome;
  return { ok: true, changed: true, state: await getPeriodState(actor, now) };
}

// The one road every money write takes (decision 0805). A command states only what is its own:
// how it reads its input, the rows it locks, the business dates it lands on, its checks, its
// insert and its audit events, and how a replay reads back what the key's first request made.
// This module owns the order around them, the same for every write:
//
//   capability → request key → parse → transaction {
//     claim the key (or replay it) → lock → closed-month check → checks → write → audit →
//     complete the key
//   } → refusals as Failures (the routes turn them into HTML form errors or JSON)
//
// Nothing a command returns can skip the audit (the write must hand its events over) or the
// closed-month check (it must name the dates it lands on).
import { getDb, type Tx } from "~/db.server";
import { recordAudit, type AuditEvent } from "~/models/audit.server";
import { checkPeriodOpen, isPeriodClosed } from "~/models/period.server";
import { refuse, type Actor, type Capability } from "~/rules/capabilities.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import {
  claimKey,
  claimReplacedKeys,
  completeKey,
  deleteOldKeys,
  idempotencyFailure,
  INVALID_KEY_MESSAGE,
  requestHash,
} from "~/utils/idempotency.server";
import { fail, Refusal, type Failure } from "~/utils/result";

/** What every step of a command is given: who acts, and the one clock reading of the request. */
type WriteContext = {
  actor: Actor;
  now: Date;
  /** `now`'s business date in APP_TIME_ZONE. */
  today: string;
};

/** An audit event as a command hands it over: the pipeline adds the actor. */
type WriteAudit = Omit<AuditEvent, "actor" | "context">;

export type Written<Made> = {
  /** What the caller is answered with (beside `ok` and `replayed`). */
  made: Made;
  /** What the key points at, for a replay: the new row's id (or ids, comma-joined). */
  resourceId: string | number;
  /** At least one event, recorded in the write's transaction. */
  audit: readonly [WriteAudit, ...WriteAudit[]];
};

type Maybe<T> = T | Promise<T>;

export type KeyedCommand<Input, Locked, Made extends object> = {
  /** The capability the actor must hold. */
  capability: Exclude<Capability, "role.switch">;
  /** What a refused actor was after, for the access log ("payment/12/reversal"). */
  object: (input: Record<string, unknown>) => string | null;
  /** A key replays only within its scope ("payment.create"). */
  scope: string;
  /**
   * Reads the input before any transaction: fields, dates against today, reads that must not
   * wait inside it. A Failure here changes nothing.
   */
  parse: (input: Record<string, unknown>, context: WriteContext) => Maybe<{ ok: true; data: Input } | Failure>;
  /** What the key's request hash covers: the same key with other values is refused. */
  hash: (input: Input) => unknown;
  /** Hashes an earlier version of the app gave this request, from what the key made. */
  earlier?: (tx: Tx, input: Input, resourceId: string) => Promise<string[]>;
  /** The key's first request landed: read back what it made (throw a Refusal when it is gone). */
  replay: (tx: Tx, resourceId: string, input: Input, context: WriteContext) => Promise<Made>;
  /** Locks the rows the write changes, in a fixed order, and reads them. */
  lock: (tx: Tx, input: Input, context: WriteContext) => Promise<Locked>;
  /** The business dates the write lands on: refused when any falls in a closed month. */
  landsOn: (input: Input, locked: Locked, context: WriteContext) => string | readonly string[];
  /** The form field a closed month's refusal is shown under, when the date is one. */
  closedField?: string;
  /** The write's own rules: throw a Refusal to refuse (nothing is written). */
  check?: (tx: Tx, input: Input, locked: Locked, context: WriteContext) => Maybe<void>;
  /** The insert itself, and the audit events that record it. */
  write: (tx: Tx, input: Input, locked: Locked, context: WriteContext) => Promise<Written<Made>>;
  /**
   * A request-key refusal said in this command's own words (a phone's delivery that already
   * landed): null leaves it to the common wording.
   */
  keyFailure?: (error: unknown) => Promise<Failure | null>;
};

export type KeyOptions = {
  /** The request's key: undefined when none was sent, null when one was sent but is not usable. */
  idempotencyKey?: string | null;
  /** Keys of earlier sends this request replaces (a phone's correction); they can never land after it. */
  replacesKeys?: readonly string[];
  now?: Date;
};

type KeyedResult<Made extends object> = ({ ok: true; replayed: boolean } & Made) | Failure;

/** Runs `command` for `actor` on `input` (decision 0805). */
export async function keyedWrite<Input, Locked, Made extends object>(
  command: KeyedCommand<Input, Locked, Made>,
  actor: Actor,
  input: Record<string, unknown>,
  { idempotencyKey, replacesKeys = [], now = new Date() }: KeyOptions = {},
): Promise<KeyedResult<Made>> {
  const refused = refuse(actor, command.capability, command.object(input));
  if (refused) return refused;
  if (idempotencyKey === null) return fail(400, INVALID_KEY_MESSAGE);
  const context: WriteContext = { actor, now, today: todayIn(env().APP_TIME_ZONE, now) };
  const parsed = await command.parse(input, context);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<KeyedResult<Made>> => {
      // The key is claimed first: a duplicate waits here for the first to commit, then replays it.
      if (idempotencyKey) {
        const existing = await claimKey(tx, {
          userId: actor.id,
          key: idempotencyKey,
          scope: command.scope,
          hash: requestHash(command.hash(data)),
          earlier: command.earlier && ((id) => command.earlier!(tx, data, id)),
        });
        if (existing !== null)
          return { ok: true, replayed: true, ...(await command.replay(tx, existing, data, context)) };
        if (replacesKeys.length)
          await claimReplacedKeys(tx, { userId: actor.id, keys: [...replacesKeys], scope: command.scope });
      }
      const locked = await command.lock(tx, data, context);
      const lands = command.landsOn(data, locked, context);
      const closed = await checkPeriodOpen(tx, ...(typeof lands === "string" ? [lands] : lands));
      if (closed)
        throw new Refusal(
          command.closedField ? { ...closed, fieldErrors: { [command.closedField]: [closed.message] } } : closed,
        );
      await command.check?.(tx, data, locked, context);
      const { made, resourceId, audit } = await command.write(tx, data, locked, context);
      for (const event of audit) await recordAudit(tx, { ...event, actor });
      if (idempotencyKey) {
        for (const key of [idempotencyKey, ...replacesKeys])
          await completeKey(tx, { userId: actor.id, key, resourceId: String(resourceId) });
        await deleteOldKeys(tx, now);
      }
      return { ok: true, replayed: false, ...made };
    });
  } catch (error) {
    // A refusal rolls the transaction back, its key and audit events with it: a corrected retry
    // under the same key goes through.
    if (error instanceof Refusal || isPeriodClosed(error)) return error.failure;
    const own = await command.keyFailure?.(error);
    if (own) return own;
    return idempotencyFailure(error);
  }
}

/** Inside a command's step: refuse with `failure` (the transaction rolls back, nothing is written). */
export function refuseWith(failure: Failure): never {
  throw new Refusal(failure);
}

import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { schema, type Tx } from "~/db.server";
import { MAX_REPLACED_KEYS } from "~/utils/outbox-protocol";
import { hasControlCharacters } from "~/utils/text";

// A create carries a key chosen by the client (a hidden field made when the form opens, or
// the Idempotency-Key header). The key is claimed by inserting its row in the same transaction
// as the effect: a concurrent duplicate blocks on the primary key until the first commits (or
// rolls back), then sees the stored result and replays it. Nothing is ever recorded twice.
// Used by New Delivery, Record Payment, Generate Invoice and the month invoice.

const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
// Keys are kept 90 days, then pruned. A client may retry for 24 hours, but a delivery can wait
// in a phone's outbox until its person signs in again; the phone stops sending an entry blind
// after 80 days (ENTRY_MAX_AGE_MS in app/utils/outbox.ts), well inside this (decision 1100).
export const IDEMPOTENCY_TTL_MS = 90 * 24 * 60 * 60 * 1000;
// At most this many keys go per prune: a backlog (after a restore, or the first prune in a
// long while) is cleared over the next creates, never in one long delete inside someone's save.
export const PRUNE_BATCH = 500;
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** Same key, different payload (or a different kind of request): 422. */
export class IdempotencyConflict extends Error {
  status = 422 as const;
  /** What the key's first request made, when it finished: the key did land. */
  constructor(readonly resourceId: string | null = null) {
    super("This request key was already used for a different submission. Reload the form and try again.");
  }
}

/** The key's first request has not finished (only when a row without a result is seen). */
class IdempotencyInProgress extends Error {
  status = 409 as const;
  constructor() {
    super("This request is still being processed. Please wait a moment and reload.");
  }
}

export const INVALID_KEY_MESSAGE = "The request key is not valid";

export function requestHash(payload: unknown) {
  return createHash("sha256").update(stableStringify(payload)).digest("hex");
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function isUsableKey(key: unknown): key is string {
  return (
    typeof key === "string" && key.length > 0 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && !hasControlCharacters(key)
  );
}

/**
 * The key of a request: the header wins over a form field. undefined when none was sent,
 * null when one was sent but is not usable (the caller answers 400).
 */
export function keyOf(header: string | null | undefined, field: unknown): string | null | undefined {
  const raw = header ?? (typeof field === "string" && field !== "" ? field : undefined);
  if (raw === undefined) return undefined;
  return isUsableKey(raw) ? raw : null;
}

/**
 * Inserts a key's row: null when it was inserted (the key is this request's now), else the row
 * already stored (undefined when it is not visible yet).
 */
async function insertKey(tx: Tx, row: typeof schema.idempotencyKeys.$inferInsert) {
  const inserted = await tx
    .insert(schema.idempotencyKeys)
    .values(row)
    .onConflictDoNothing()
    .returning({ key: schema.idempotencyKeys.key });
  if (inserted.length) return null;
  const [existing] = await tx
    .select()
    .from(schema.idempotencyKeys)
    .where(and(eq(schema.idempotencyKeys.userId, row.userId), eq(schema.idempotencyKeys.key, row.key)));
  return existing;
}

/**
 * Claims `key` for this user inside `tx`. Returns the stored resource id when the key was
 * already used for the same payload (replay), null when the caller should go on and create.
 */
export async function claimKey(
  tx: Tx,
  {
    userId,
    key,
    scope,
    hash,
    earlier,
  }: {
    userId: string;
    key: string;
    scope: string;
    hash: string;
    /**
     * The hashes an earlier version of the app gave this request, from what the key's first
     * request made (its resource id): a key claimed under one of them still replays.
     */
    earlier?: (resourceId: string) => Promise<string[]>;
  },
): Promise<string | null> {
  const existing = await insertKey(tx, { userId, key, scope, requestHash: hash });
  if (existing === null) return null;
  if (!existing) throw new IdempotencyInProgress();
  if (existing.scope !== scope) throw new IdempotencyConflict();
  if (!existing.resourceId) throw new IdempotencyInProgress();
  if (existing.requestHash !== hash && !(await earlier?.(existing.resourceId))?.includes(existing.requestHash)) {
    throw new IdempotencyConflict(existing.resourceId);
  }
  return existing.resourceId;
}

/**
 * The keys a correction replaces, from its X-Replaces-Key header: [] without one, null when the
 * header is not usable (a key not usable, the request's own key, too many, or no key of its own).
 */
export function replacedKeysOf(header: string | null | undefined, key: string | null | undefined): string[] | null {
  if (header === null || header === undefined || header.trim() === "") return [];
  const keys = header.split(",").map((k) => k.trim());
  if (!key || keys.length > MAX_REPLACED_KEYS || keys.some((k) => !isUsableKey(k) || k === key)) return null;
  return [...new Set(keys)];
}

/** A send that a correction replaces did land: the correction would record the same thing twice. */
export class ReplacedSendLanded extends Error {
  status = 409 as const;
  constructor(readonly resourceId: string) {
    super("An earlier send of this request landed");
  }
}

/** What a replaced key stores until the correction completes it: no request hashes to this. */
const REPLACED = "replaced";

/**
 * A correction's claim on the keys of the sends it replaces, in its own transaction, after its
 * own key (decision 1100). A key whose send landed refuses the correction
 * (ReplacedSendLanded); one whose send is still being recorded, too (IdempotencyInProgress).
 * Any other is claimed here, so a send still on its way can never land after the correction;
 * completeKey then points it at what the correction made, and that send, if it ever arrives,
 * is told a delivery was recorded under its key.
 */
export async function claimReplacedKeys(
  tx: Tx,
  { userId, keys, scope }: { userId: string; keys: string[]; scope: string },
) {
  for (const key of keys) {
    const existing = await insertKey(tx, { userId, key, scope, requestHash: REPLACED });
    if (existing === null) continue;
    if (!existing?.resourceId) throw new IdempotencyInProgress();
    if (existing.scope !== scope) throw new IdempotencyConflict();
    throw new ReplacedSendLanded(existing.resourceId);
  }
}

export async function completeKey(
  tx: Tx,
  { userId, key, resourceId }: { userId: string; key: string; resourceId: string },
) {
  await tx
    .update(schema.idempotencyKeys)
    .set({ resourceId })
    .where(and(eq(schema.idempotencyKeys.userId, userId), eq(schema.idempotencyKeys.key, key)));
}

/** Deletes the oldest keys past IDEMPOTENCY_TTL_MS, at most PRUNE_BATCH (read off idempotency_created_idx). */
export async function deleteOldKeys(tx: Tx, now = new Date()) {
  const keys = schema.idempotencyKeys;
  const oldest = tx
    .select({ userId: keys.userId, key: keys.key })
    .from(keys)
    .where(lt(keys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)))
    .orderBy(keys.createdAt)
    .limit(PRUNE_BATCH);
  await tx.delete(keys).where(sql`(${keys.userId}, ${keys.key}) in (${oldest})`);
}

/**
 * Same key, other values, and the key's first request did land: reloading the form (a new key)
 * and sending again would record it twice (a dialog sent again after no answer, with a field
 * changed meanwhile; decision 0300).
 */
export const LANDED_WITH_OTHER_VALUES =
  "This was already recorded under this request, with other values than these. Check what was recorded before sending it again.";

/** Maps the two idempotency errors to a failure result; anything else is rethrown. */
export function idempotencyFailure(error: unknown): { ok: false; status: 409 | 422; message: string } {
  if (error instanceof IdempotencyConflict && error.resourceId)
    return { ok: false, status: error.status, message: LANDED_WITH_OTHER_VALUES };
  if (error instanceof IdempotencyConflict || error instanceof IdempotencyInProgress)
    return { ok: false, status: error.status, message: error.message };
  throw error;
}

import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import { schema, type Tx } from "~/db.server";

// A create carries a key chosen by the client (a hidden field, or the Idempotency-Key
// header). The key is claimed by inserting its row in the same transaction as the record:
// a concurrent duplicate blocks on the primary key until the first commits, then sees the
// stored result and replays it. Nothing is ever recorded twice.

export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export class IdempotencyConflict extends Error {
  status = 409 as const;
  constructor() {
    super("This request key was already used for a different submission. Reload the form and try again.");
  }
}

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
  return typeof key === "string" && key.length > 0 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH;
}

/**
 * Claims `key` for this user inside `tx`. Returns the stored resource id when the key was
 * already used for the same payload (replay), null when the caller should go on and create.
 */
export async function claimKey(
  tx: Tx,
  { userId, key, scope, hash }: { userId: string; key: string; scope: string; hash: string },
): Promise<string | null> {
  const inserted = await tx
    .insert(schema.idempotencyKeys)
    .values({ userId, key, scope, requestHash: hash })
    .onConflictDoNothing()
    .returning({ key: schema.idempotencyKeys.key });
  if (inserted.length) return null;
  const [existing] = await tx
    .select()
    .from(schema.idempotencyKeys)
    .where(and(eq(schema.idempotencyKeys.userId, userId), eq(schema.idempotencyKeys.key, key)));
  if (!existing || existing.scope !== scope || existing.requestHash !== hash || !existing.resourceId) {
    throw new IdempotencyConflict();
  }
  return existing.resourceId;
}

export async function completeKey(tx: Tx, { userId, key, resourceId }: { userId: string; key: string; resourceId: string }) {
  await tx
    .update(schema.idempotencyKeys)
    .set({ resourceId })
    .where(and(eq(schema.idempotencyKeys.userId, userId), eq(schema.idempotencyKeys.key, key)));
}

export async function deleteOldKeys(tx: Tx, now = new Date()) {
  await tx.delete(schema.idempotencyKeys).where(lt(schema.idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_TTL_MS)));
}


import { and, eq, gt, like, lt, or, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";

// Sign-in throttle (docs/decisions/0600-passwords-throttle-and-logs.md). Every attempt takes a
// slot from its counters with one atomic upsert BEFORE the password (or code) is checked, so
// forty racing requests cannot get more than the limit of checks. Counters per fixed 15-minute
// window, kept in the database so every instance agrees:
//   acct:<email>|ip:<address>  5  the usual lock: a guesser locks only themselves out
//   acct:<email>              20  guessing one account from many addresses
//   ip:<address>              50  one address spraying many accounts
// A success gives its slot back and clears its own account+address counter. The address comes
// from the configured trusted proxy header, else the socket (app/utils/client-address.server.ts).
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;
export const ACCOUNT_LIMIT = 20;
export const ADDRESS_LIMIT = 50;
export const PASSKEY_OPTIONS_LIMIT = 30;

export type ThrottleDecision =
  { limited: false; keys: string[] } | { limited: true; retryAfterSeconds: number; keys: string[] };

const accountKey = (identifier: string) => `acct:${identifier}`;
const accountAddressKey = (identifier: string, address: string) => `acct:${identifier}|ip:${address}`;
const addressKey = (address: string) => `ip:${address}`;

/** Adds one to `key` in its window and returns the new count and when the window opened. */
async function hit(key: string, now: Date) {
  const db = await getDb();
  // As ISO text with a cast: postgres-js does not bind a Date inside a raw sql fragment.
  const windowFloor = sql`${new Date(now.getTime() - THROTTLE_WINDOW_MS).toISOString()}::timestamptz`;
  const nowAt = sql`${now.toISOString()}::timestamptz`;
  const t = schema.authThrottle;
  const [row] = await db
    .insert(t)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${t.windowStart} <= ${windowFloor} then 1 else ${t.count} + 1 end`,
        windowStart: sql`case when ${t.windowStart} <= ${windowFloor} then ${nowAt} else ${t.windowStart} end`,
      },
    })
    .returning({ count: t.count, windowStart: t.windowStart });
  return row;
}

async function take(limits: [string, number][], now: Date): Promise<ThrottleDecision> {
  const keys = limits.map(([key]) => key);
  // Narrowest counter first; an attempt refused by one is not counted against the wider ones,
  // so hammering a locked account does not also use up the address's allowance.
  for (const [key, limit] of limits) {
    const row = await hit(key, now);
    if (row.count > limit) {
      const seconds = Math.ceil((new Date(row.windowStart).getTime() + THROTTLE_WINDOW_MS - now.getTime()) / 1000);
      return { limited: true, retryAfterSeconds: Math.max(seconds, 1), keys };
    }
  }
  return { limited: false, keys };
}

/** Takes a sign-in attempt (password or code) for `identifier` from `address`. */
export function takeSignInAttempt(identifier: string, address: string, now = new Date()) {
  return take(
    [
      [accountAddressKey(identifier, address), THROTTLE_MAX_FAILURES],
      [accountKey(identifier), ACCOUNT_LIMIT],
      [addressKey(address), ADDRESS_LIMIT],
    ],
    now,
  );
}

/** The unauthenticated passkey options call, per address. */
export function takePasskeyOptions(address: string, now = new Date()) {
  return take([[`passkey-options:${address}`, PASSKEY_OPTIONS_LIMIT]], now);
}

/**
 * A right password or code: its slot goes back to every counter, and, when `clear`, this
 * client's own account+address counter starts again.
 */
export async function giveBack(identifier: string, address: string, { clear }: { clear: boolean }) {
  const db = await getDb();
  const t = schema.authThrottle;
  if (clear) await db.delete(t).where(eq(t.key, accountAddressKey(identifier, address)));
  await db
    .update(t)
    .set({ count: sql`greatest(${t.count} - 1, 0)` })
    .where(
      or(
        eq(t.key, accountKey(identifier)),
        eq(t.key, addressKey(address)),
        eq(t.key, accountAddressKey(identifier, address)),
      ),
    );
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export type AccountLock = { lockedUntil: Date; attempts: number };

/** Whether `identifier` is locked anywhere (for User Management), and until when. */
export async function accountLock(identifier: string, now = new Date()): Promise<AccountLock | null> {
  const locks = await accountLocks([identifier], now);
  return locks.get(identifier) ?? null;
}

export async function accountLocks(identifiers: string[], now = new Date()): Promise<Map<string, AccountLock>> {
  const out = new Map<string, AccountLock>();
  if (!identifiers.length) return out;
  const db = await getDb();
  const t = schema.authThrottle;
  const windowFloor = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const rows = await db
    .select()
    .from(t)
    .where(and(gt(t.windowStart, windowFloor), like(t.key, "acct:%")));
  const wanted = new Set(identifiers);
  for (const row of rows) {
    const [acct] = row.key.split("|ip:");
    const identifier = acct.slice("acct:".length);
    if (!wanted.has(identifier)) continue;
    const limit = row.key.includes("|ip:") ? THROTTLE_MAX_FAILURES : ACCOUNT_LIMIT;
    if (row.count < limit) continue;
    const until = new Date(new Date(row.windowStart).getTime() + THROTTLE_WINDOW_MS);
    const prev = out.get(identifier);
    if (!prev || prev.lockedUntil < until)
      out.set(identifier, { lockedUntil: until, attempts: Math.max(row.count, prev?.attempts ?? 0) });
  }
  return out;
}

/** An admin clears every counter of an account (all addresses). */
export async function clearAccountLock(identifier: string, db?: Executor) {
  db ??= await getDb();
  const t = schema.authThrottle;
  const escaped = identifier.replace(/[\\%_]/g, (c) => `\\${c}`);
  await db.delete(t).where(or(eq(t.key, accountKey(identifier)), like(t.key, `${accountKey(escaped)}|ip:%`)));
}

/** Drops counters whose window has passed. */
export async function pruneThrottle(now = new Date()) {
  const db = await getDb();
  await db
    .delete(schema.authThrottle)
    .where(lt(schema.authThrottle.windowStart, new Date(now.getTime() - THROTTLE_WINDOW_MS)));
}

import { and, eq, gt, like, lt, or, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";

// Sign-in throttle (docs/decisions/0600-passwords-throttle-and-logs.md). Every attempt takes a
// slot from all of its counters with atomic upserts BEFORE the password (or code) is checked, so
// forty racing requests cannot get more than the limit of checks. An attempt refused at one
// counter is still charged to the others: hammering a locked account uses up the address too.
// Counters, kept in the database so every instance agrees:
//   acct:<email>|ip:<address>  5 per 15 min  this address is locked for this account
//   acct:<email>              20 per 15 min  past it, every address that failed on the account is
//                                            refused; an address with no failure still signs in,
//                                            so a distributed guesser cannot lock the owner out
//   ipm:<address>             10 per minute  one address, any accounts
//   ip:<address>              50 per 15 min  one address spraying many accounts
// A success gives its slot back and clears its own account+address counter. The address comes
// from the configured trusted proxy header, else the socket (app/utils/client-address.server.ts).
// Refused attempts live only here (pruned with the windows); the audit trail gets one row when a
// counter first refuses in its window (`crossed`), and a failure's row only for the first failure
// of an account from an address while the account is under its limit (`firstFailure`), or, for an
// e-mail that is no account, the first failure of the address (`firstFromAddress`).
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
const ADDRESS_MINUTE_WINDOW_MS = 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;
export const ACCOUNT_LIMIT = 20;
const ADDRESS_LIMIT = 50;
export const ADDRESS_MINUTE_LIMIT = 10;
const PASSKEY_OPTIONS_LIMIT = 30;

/** Which counter refused: this account from this address, the account, or the address. */
type ThrottleScope = "account-address" | "account" | "address" | "passkey-options";

/** A counter that refused for the first time in its window (one audit row per lock). */
export type ThrottleCrossing = { scope: ThrottleScope; attempts: number; until: Date };

type Firsts = { firstFailure: boolean; firstFromAddress: boolean; crossed: ThrottleCrossing[] };
type ThrottleDecision =
  ({ limited: false } & Firsts) | ({ limited: true; retryAfterSeconds: number; scope: ThrottleScope } & Firsts);

const accountKey = (identifier: string) => `acct:${identifier}`;
const accountAddressKey = (identifier: string, address: string) => `acct:${identifier}|ip:${address}`;
const addressKey = (address: string) => `ip:${address}`;
const addressMinuteKey = (address: string) => `ipm:${address}`;

/** Adds one to `key` in its window and returns the new count and when the window opened. */
async function hit(key: string, windowMs: number, now: Date) {
  const db = await getDb();
  // As ISO text with a cast: postgres-js does not bind a Date inside a raw sql fragment.
  const windowFloor = sql`${new Date(now.getTime() - windowMs).toISOString()}::timestamptz`;
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

type Counter = { key: string; limit: number; windowMs: number; scope: ThrottleScope };
type Counted = Counter & { count: number; until: Date };

async function hitAll(counters: Counter[], now: Date): Promise<Counted[]> {
  const out: Counted[] = [];
  for (const counter of counters) {
    const row = await hit(counter.key, counter.windowMs, now);
    out.push({ ...counter, count: row.count, until: new Date(new Date(row.windowStart).getTime() + counter.windowMs) });
  }
  return out;
}

const secondsUntil = (until: Date, now: Date) => Math.max(Math.ceil((until.getTime() - now.getTime()) / 1000), 1);

// The count just passed the limit: the first refusal of this window.
const crossings = (counted: Counted[]): ThrottleCrossing[] =>
  counted.filter((c) => c.count === c.limit + 1).map((c) => ({ scope: c.scope, attempts: c.count, until: c.until }));

/** Takes a sign-in attempt (password or code) for `identifier` from `address`. */
export async function takeSignInAttempt(
  identifier: string,
  address: string,
  now = new Date(),
): Promise<ThrottleDecision> {
  const [here, account, minute, wide] = await hitAll(
    [
      {
        key: accountAddressKey(identifier, address),
        limit: THROTTLE_MAX_FAILURES,
        windowMs: THROTTLE_WINDOW_MS,
        scope: "account-address",
      },
      { key: accountKey(identifier), limit: ACCOUNT_LIMIT, windowMs: THROTTLE_WINDOW_MS, scope: "account" },
      {
        key: addressMinuteKey(address),
        limit: ADDRESS_MINUTE_LIMIT,
        windowMs: ADDRESS_MINUTE_WINDOW_MS,
        scope: "address",
      },
      { key: addressKey(address), limit: ADDRESS_LIMIT, windowMs: THROTTLE_WINDOW_MS, scope: "address" },
    ],
    now,
  );
  // The account's own limit refuses only the addresses that already failed on it: the owner,
  // from an address with no failure, still gets their password checked.
  const accountRefuses = account.count > account.limit && here.count > 1;
  const refusing = [
    here.count > here.limit ? here : null,
    accountRefuses ? account : null,
    minute.count > minute.limit ? minute : null,
    wide.count > wide.limit ? wide : null,
  ].filter((c): c is Counted => c !== null);
  const firsts: Firsts = {
    firstFailure: here.count === 1 && account.count <= account.limit,
    firstFromAddress: wide.count === 1,
    crossed: crossings([here, account, minute, wide]),
  };
  if (!refusing.length) return { limited: false, ...firsts };
  // The longest wait of the counters that refuse.
  const longest = refusing.reduce((a, b) => (a.until >= b.until ? a : b));
  return {
    limited: true,
    retryAfterSeconds: secondsUntil(longest.until, now),
    scope: longest.scope,
    ...firsts,
  };
}

/** The unauthenticated passkey options call, per address. */
export async function takePasskeyOptions(address: string, now = new Date()): Promise<ThrottleDecision> {
  const [counted] = await hitAll(
    [
      {
        key: `passkey-options:${address}`,
        limit: PASSKEY_OPTIONS_LIMIT,
        windowMs: THROTTLE_WINDOW_MS,
        scope: "passkey-options",
      },
    ],
    now,
  );
  const firsts: Firsts = { firstFailure: false, firstFromAddress: false, crossed: crossings([counted]) };
  if (counted.count <= counted.limit) return { limited: false, ...firsts };
  return { limited: true, retryAfterSeconds: secondsUntil(counted.until, now), scope: counted.scope, ...firsts };
}

/**
 * Counts a refused passkey sign-in from `address` (no limit of its own: the options call is the
 * limit) and says whether it is the first of its window, the one the audit trail records.
 */
export async function countPasskeyFailure(address: string, now = new Date()): Promise<boolean> {
  const row = await hit(`passkey-failure:${address}`, THROTTLE_WINDOW_MS, now);
  return row.count === 1;
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
        eq(t.key, addressMinuteKey(address)),
        eq(t.key, accountAddressKey(identifier, address)),
      ),
    );
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

type AccountLock = { lockedUntil: Date; attempts: number };

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

// Share links (docs/decisions/1260): an address that asks for links that do not open (unknown,
// malformed, expired, revoked) more than SHARE_MISS_LIMIT times in a window is refused until the
// window passes, so 128-bit tokens cannot be guessed at any useful rate. A link that opens costs
// nothing: a client reading their statement again and again is not a guesser.
export const SHARE_MISS_LIMIT = 20;
const shareMissKey = (address: string) => `share-miss:${address}`;

/** Seconds this address must wait before its next share link is looked up, or null when it may ask now. */
export async function shareLinkWait(address: string, now = new Date()): Promise<number | null> {
  const db = await getDb();
  const t = schema.authThrottle;
  const [row] = await db
    .select({ count: t.count, windowStart: t.windowStart })
    .from(t)
    .where(eq(t.key, shareMissKey(address)));
  if (!row || row.count < SHARE_MISS_LIMIT) return null;
  const until = new Date(new Date(row.windowStart).getTime() + THROTTLE_WINDOW_MS);
  return until > now ? secondsUntil(until, now) : null;
}

/** Counts a share link asked for that did not open. */
export async function countShareMiss(address: string, now = new Date()): Promise<void> {
  await hit(shareMissKey(address), THROTTLE_WINDOW_MS, now);
}

import { and, eq, gte, lt, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";

// Failed sign-in attempts per account, counted in the database so every instance agrees.
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;

export async function checkThrottle(identifier: string, now = new Date()) {
  const db = await getDb();
  const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${schema.authAttempts.createdAt})` })
    .from(schema.authAttempts)
    .where(and(eq(schema.authAttempts.identifier, identifier), gte(schema.authAttempts.createdAt, since)));
  if (row.count < THROTTLE_MAX_FAILURES) return { limited: false as const };
  const oldest = row.oldest ? new Date(row.oldest).getTime() : now.getTime();
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest + THROTTLE_WINDOW_MS - now.getTime()) / 1000));
  return { limited: true as const, retryAfterSeconds };
}

export function throttledMessage(retryAfterSeconds: number) {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many failed attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export async function recordFailure(identifier: string, kind: "password" | "totp", now = new Date()) {
  const db = await getDb();
  await db.insert(schema.authAttempts).values({ identifier, kind, createdAt: now });
  await db.delete(schema.authAttempts).where(lt(schema.authAttempts.createdAt, new Date(now.getTime() - THROTTLE_WINDOW_MS)));
}

export async function clearFailures(identifier: string) {
  const db = await getDb();
  await db.delete(schema.authAttempts).where(eq(schema.authAttempts.identifier, identifier));
}

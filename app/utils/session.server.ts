import { randomBytes } from "node:crypto";
import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import { getDb, schema, type SessionData, type User } from "~/db.server";
import { sessionAbsoluteMs, sessionCookie, sessionIdleMs } from "./cookies.server";

// The cookie carries only a random session id; the session lives in the `sessions` table, so
// freezing, deleting or re-passwording a user can end their sessions at once.

// Pushing the idle expiry forward costs a write; do it at most every few minutes.
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export type SessionRow = typeof schema.sessions.$inferSelect;

export async function getSessionId(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The live session of this request, or null. Expired rows are removed on sight. */
export async function readSession(request: Request, now = new Date()): Promise<SessionRow | null> {
  const sid = await getSessionId(request);
  if (!sid) return null;
  return (await readSessionAndUser(sid, now))?.session ?? null;
}

/**
 * A live session and its user in one query (every signed-in request starts here). Expired
 * rows are removed on sight; the idle expiry is pushed forward at most every few minutes.
 */
export async function readSessionAndUser(
  sid: string,
  now = new Date(),
): Promise<{ session: SessionRow; user: User | null } | null> {
  const db = await getDb();
  const [found] = await db
    .select({ session: schema.sessions, user: schema.users })
    .from(schema.sessions)
    .leftJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(eq(schema.sessions.sid, sid));
  if (!found) return null;
  const row = found.session;
  if (isExpired(row, now)) {
    await db.delete(schema.sessions).where(eq(schema.sessions.sid, sid));
    return null;
  }
  const idleMs = sessionIdleMs();
  if (row.expire.getTime() - now.getTime() < idleMs - Math.min(TOUCH_AFTER_MS, idleMs / 2)) {
    const expire = new Date(now.getTime() + idleMs);
    await db.update(schema.sessions).set({ expire }).where(eq(schema.sessions.sid, sid));
    row.expire = expire;
  }
  return { session: row, user: found.user };
}

/**
 * The rows of some users' sessions: those that sign them in, and their half-way two-factor
 * sign-ins (named only in the row's JSON), so that a password change, reset, freeze or deletion
 * ends both (decision 0401).
 */
export function userSessionsWhere(userIds: string[]) {
  return or(
    inArray(schema.sessions.userId, userIds),
    inArray(sql`${schema.sessions.sess}->>'pendingTotpUserId'`, userIds),
  )!;
}

function isExpired(row: Pick<SessionRow, "expire" | "createdAt">, now = new Date()) {
  return row.expire.getTime() <= now.getTime() || row.createdAt.getTime() + sessionAbsoluteMs() <= now.getTime();
}

/**
 * Starts a fresh session (a new id every time: ids rotate at sign-in) and returns its cookie.
 * The old session of this request, if any, is destroyed.
 */
export async function createSession(
  request: Request,
  userId: string | null,
  sess: SessionData = {},
  now = new Date(),
): Promise<{ sid: string; cookie: string }> {
  const db = await getDb();
  const old = await getSessionId(request);
  if (old) await db.delete(schema.sessions).where(eq(schema.sessions.sid, old));
  await deleteExpiredSessions(now);
  const sid = randomBytes(32).toString("base64url");
  await db.insert(schema.sessions).values({
    sid,
    userId,
    sess,
    createdAt: now,
    expire: new Date(now.getTime() + sessionIdleMs()),
  });
  return { sid, cookie: await sessionCookie().serialize(sid) };
}

export async function updateSessionData(sid: string, sess: SessionData) {
  const db = await getDb();
  await db.update(schema.sessions).set({ sess }).where(eq(schema.sessions.sid, sid));
}

/** Ends the request's session and returns a cookie header that clears it. */
export async function destroySession(request: Request): Promise<string> {
  const sid = await getSessionId(request);
  if (sid) {
    const db = await getDb();
    await db.delete(schema.sessions).where(eq(schema.sessions.sid, sid));
  }
  return sessionCookie().serialize("", { maxAge: 0 });
}

/**
 * Ends every session of a user (freeze, delete, password reset), optionally keeping one; a
 * half-way two-factor sign-in of the user is one of them.
 */
export async function endUserSessions(userId: string, exceptSid?: string | null) {
  const db = await getDb();
  const byUser = userSessionsWhere([userId]);
  await db.delete(schema.sessions).where(exceptSid ? and(byUser, ne(schema.sessions.sid, exceptSid)) : byUser);
}

export async function deleteExpiredSessions(now = new Date()) {
  const db = await getDb();
  const absoluteCutoff = new Date(now.getTime() - sessionAbsoluteMs());
  await db
    .delete(schema.sessions)
    .where(or(lt(schema.sessions.expire, now), lt(schema.sessions.createdAt, absoluteCutoff)));
}

export async function countSessions(userId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(schema.sessions)
    .where(eq(schema.sessions.userId, userId));
  return row.count;
}

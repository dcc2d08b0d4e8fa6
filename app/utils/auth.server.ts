import { redirect } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { getDb, schema, type Role, type User } from "~/db.server";
import { logEvent } from "./logger.server";
import { PASSWORD_CHANGE_MESSAGE } from "./outbox-protocol";
import {
  createSession,
  destroySession,
  getSessionId,
  readSessionAndUser,
  updateSessionData,
  type SessionRow,
} from "./session.server";

/**
 * Completes the first step of a sign-in: a fresh session (new id) for the user, or, when
 * two-factor is on, a session marked as half-way through, not signed in. It has no user id (a
 * server of an earlier version, beside this one or after a rollback, would take a row with one
 * for a sign-in); ending a user's sessions ends it by its mark (`userSessionsWhere`).
 */
export async function startSession(request: Request, result: { kind: "signed-in" | "totp-required"; user: User }) {
  if (result.kind === "totp-required") {
    return createSession(request, null, { pendingTotpUserId: result.user.id, pendingTotpAt: Date.now() });
  }
  return createSession(request, result.user.id);
}

export async function signInUser(request: Request, user: User) {
  return createSession(request, user.id);
}

export async function logout(request: Request) {
  return destroySession(request);
}

type Current = { session: SessionRow; user: User } | null;
const perRequest = new WeakMap<Request, Promise<Current>>();
// Remix hands each parallel loader of one page its own copy of the Request, so the session is
// also shared by id while a read is in flight: a page's root, layout and route loaders cost
// one query between them. The entry goes when the read settles; later requests read afresh.
const inFlight = new Map<string, Promise<Current>>();

/** The signed-in, active user of this request, loaded once per request. */
export function getCurrent(request: Request): Promise<Current> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = getSessionId(request).then((sid): Promise<Current> | null => {
      if (!sid) return null;
      let shared = inFlight.get(sid);
      if (!shared) {
        shared = loadCurrent(sid);
        inFlight.set(sid, shared);
        const clear = () => inFlight.delete(sid);
        shared.then(clear, clear);
      }
      return shared;
    });
    perRequest.set(request, pending);
  }
  return pending;
}

async function loadCurrent(sid: string): Promise<Current> {
  const found = await readSessionAndUser(sid);
  // A half-way two-factor sign-in has no user id (decision 0401): it signs no one in.
  if (!found?.session.userId) return null;
  const { session, user } = found;
  const db = await getDb();
  if (!user || user.status !== "active") {
    // Frozen or deleted since sign-in: the session ends now.
    await db.delete(schema.sessions).where(eq(schema.sessions.sid, session.sid));
    return null;
  }
  return { session, user };
}

export async function getUser(request: Request) {
  return (await getCurrent(request))?.user ?? null;
}

export { updateSessionData };

export const isApiRequest = (request: Request) => new URL(request.url).pathname.startsWith("/api/");

export function jsonError(status: number, message: string, extra?: Record<string, unknown>) {
  return Response.json({ message, ...extra }, { status });
}

function signInRedirect(request: Request) {
  const url = new URL(request.url);
  const path = url.pathname.replace(/\.data$/, "") + url.search;
  const redirectTo = path === "/" || path.startsWith("/login") ? "" : `?redirectTo=${encodeURIComponent(path)}`;
  return redirect(`/login${redirectTo}`);
}

/**
 * The first line of every loader and action. Signed out: pages redirect to sign-in, /api
 * answers 401. While the password must change: pages redirect to /change-password, /api
 * answers 403 (the auth calls pass `allowPasswordChange`).
 */
export async function requireUser(request: Request, options: { allowPasswordChange?: boolean } = {}): Promise<User> {
  const current = await getCurrent(request);
  const api = isApiRequest(request);
  if (!current) throw api ? jsonError(401, "Not signed in") : signInRedirect(request);
  if (current.user.mustChangePassword === 1 && !options.allowPasswordChange) {
    // The outbox reads this message to wait rather than give up (decision 1100): one constant.
    throw api ? jsonError(403, PASSWORD_CHANGE_MESSAGE) : redirect("/change-password");
  }
  return current.user;
}

export async function requireRole(request: Request, roles: readonly Role[]): Promise<User> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) {
    const url = new URL(request.url);
    logEvent("warn", {
      event: "access.denied",
      userId: user.id,
      role: user.role,
      method: request.method,
      route: url.pathname.replace(/\.data$/, ""),
      object: url.pathname.split("/").filter(Boolean).slice(1).join("/") || null,
    });
    throw isApiRequest(request)
      ? jsonError(403, "You do not have permission to do this")
      : new Response("You do not have permission to view this page.", { status: 403, statusText: "Forbidden" });
  }
  return user;
}

export async function requireAnonymous(request: Request) {
  const user = await getUser(request);
  if (user) throw redirect(user.mustChangePassword === 1 ? "/change-password" : "/");
}

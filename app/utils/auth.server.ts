import { redirect } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb, schema, type Role, type User } from "~/db.server";
import { verifyPassword } from "~/models/user.server";
import { checkThrottle, clearFailures, recordFailure, throttledMessage } from "./throttle.server";
import { createSession, destroySession, readSession, updateSessionData, type SessionRow } from "./session.server";

export const MESSAGES = {
  missingCredentials: "Please enter both email and password",
  invalidCredentials: "Invalid email or password",
  inactive: "This account is not active. Please contact an administrator.",
} as const;

export type LoginResult =
  | { kind: "signed-in"; user: User }
  | { kind: "totp-required"; user: User }
  | { kind: "error"; status: 400 | 401 | 403 | 429; message: string };

/** The password step of signing in, shared by the HTML form and POST /api/auth/password/login. */
export async function attemptPasswordLogin(email: unknown, password: unknown): Promise<LoginResult> {
  if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password) {
    return { kind: "error", status: 400, message: MESSAGES.missingCredentials };
  }
  const identifier = email.trim().toLowerCase();
  const throttle = await checkThrottle(identifier);
  if (throttle.limited) return { kind: "error", status: 429, message: throttledMessage(throttle.retryAfterSeconds) };
  const check = await verifyPassword(email, password);
  if (!check.ok) {
    if (check.reason === "inactive") return { kind: "error", status: 403, message: MESSAGES.inactive };
    await recordFailure(identifier, "password");
    return { kind: "error", status: 401, message: MESSAGES.invalidCredentials };
  }
  // With two-factor on, the counter is cleared only once the code is right too: a known
  // password must not reset the count of wrong codes.
  if (check.user.totpEnabled) return { kind: "totp-required", user: check.user };
  await clearFailures(identifier);
  return { kind: "signed-in", user: check.user };
}

// remix-auth owns reading the sign-in form; what it yields is our LoginResult.
export const authenticator = new Authenticator<LoginResult>();
authenticator.use(
  new FormStrategy(async ({ form }) => attemptPasswordLogin(form.get("email"), form.get("password"))),
  "form",
);

/**
 * Completes the first step of a sign-in: a fresh session (new id) for the user, or, when
 * two-factor is on, a session that only remembers who is half-way through.
 */
export async function startSession(request: Request, result: Extract<LoginResult, { user: User }>) {
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

/** The signed-in, active user of this request, loaded once per request. */
export function getCurrent(request: Request): Promise<Current> {
  let pending = perRequest.get(request);
  if (!pending) {
    pending = loadCurrent(request);
    perRequest.set(request, pending);
  }
  return pending;
}

async function loadCurrent(request: Request): Promise<Current> {
  const session = await readSession(request);
  if (!session?.userId) return null;
  const db = await getDb();
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, session.userId));
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

export async function getPendingTotpUserId(request: Request) {
  const session = await readSession(request);
  return session && !session.userId ? session.sess.pendingTotpUserId ?? null : null;
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
    throw api ? jsonError(403, "You must change your password first") : redirect("/change-password");
  }
  return current.user;
}

export async function requireRole(request: Request, roles: readonly Role[]): Promise<User> {
  const user = await requireUser(request);
  if (!roles.includes(user.role)) {
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

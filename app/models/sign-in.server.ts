// The password step of signing in (the HTML form through remix-auth, and
// POST /api/auth/password/login): throttle, password check, and whether a second factor follows.
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb, type User } from "~/db.server";
import { getUser, logout } from "~/utils/auth.server";
import { logEvent } from "~/utils/logger.server";
import { hasControlCharacters } from "~/utils/text";
import { giveBack, takeSignInAttempt, throttledMessage } from "~/utils/throttle.server";
import { recordAudit } from "./audit.server";
import { recordLocks, recordSignIn } from "./sign-in-audit.server";
import { claimTemporaryPassword, verifyPassword } from "./user.server";

const MESSAGES = {
  missingCredentials: "Please enter both email and password",
  invalidCredentials: "Invalid email or password",
  inactive: "This account is not active. Please contact an administrator.",
  expired: "Your temporary password has expired. Please ask an administrator to reset it.",
  used: "This temporary password has already been used. Please ask an administrator to reset it.",
} as const;

type LoginResult =
  | { kind: "signed-in"; user: User }
  | { kind: "totp-required"; user: User }
  | { kind: "error"; status: 400 | 401 | 403 | 429; message: string; retryAfterSeconds?: number };

/** The password step of signing in, shared by the HTML form and POST /api/auth/password/login. */
export async function attemptPasswordLogin(
  email: unknown,
  password: unknown,
  address = "unknown",
): Promise<LoginResult> {
  if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password) {
    return { kind: "error", status: 400, message: MESSAGES.missingCredentials };
  }
  // An address with control characters (a NUL cannot even be sent to PostgreSQL) is no account.
  if (hasControlCharacters(email) || email.length > 320)
    return { kind: "error", status: 401, message: MESSAGES.invalidCredentials };
  const identifier = email.trim().toLowerCase().slice(0, 254);
  // The slot is taken before bcrypt runs: racing guesses cannot pass the limit.
  const throttle = await takeSignInAttempt(identifier, address);
  await recordLocks(throttle.crossed, { method: "password", email: identifier, address });
  if (throttle.limited) {
    logEvent("warn", {
      event: "signin.locked",
      email: identifier,
      address,
      scope: throttle.scope,
      retryAfterSeconds: throttle.retryAfterSeconds,
    });
    return {
      kind: "error",
      status: 429,
      message: throttledMessage(throttle.retryAfterSeconds),
      retryAfterSeconds: throttle.retryAfterSeconds,
    };
  }
  let check = await verifyPassword(email, password);
  // A temporary password signs in once: two racing sign-ins with it cannot both pass.
  if (check.ok && !(await claimTemporaryPassword(check.user))) check = { ok: false, reason: "used", user: check.user };
  if (!check.ok) {
    logEvent("info", {
      event: "signin.failure",
      reason: check.reason,
      email: identifier,
      address,
      userId: check.user?.id,
    });
    // Bounded (decision 0600): the first failure of an account from an address in the window,
    // or, for an e-mail that is no account, the first failure of the address.
    if (check.user ? throttle.firstFailure : throttle.firstFromAddress)
      await recordSignIn({
        outcome: "failure",
        method: "password",
        user: check.user ?? null,
        reason: check.reason,
        address,
      });
    if (check.reason === "inactive") return { kind: "error", status: 403, message: MESSAGES.inactive };
    if (check.reason === "expired") return { kind: "error", status: 401, message: MESSAGES.expired };
    if (check.reason === "used") return { kind: "error", status: 401, message: MESSAGES.used };
    return { kind: "error", status: 401, message: MESSAGES.invalidCredentials };
  }
  // With two-factor on, the account+address counter is cleared only once the code is right
  // too: a known password must not reset the count of wrong codes.
  if (check.user.totpEnabled) {
    await giveBack(identifier, address, { clear: false });
    logEvent("info", { event: "signin.password-ok.factor-required", userId: check.user.id, address });
    return { kind: "totp-required", user: check.user };
  }
  await giveBack(identifier, address, { clear: true });
  logEvent("info", { event: "signin.success", method: "password", userId: check.user.id, address });
  await recordSignIn({ outcome: "success", method: "password", user: check.user, address });
  return { kind: "signed-in", user: check.user };
}

/**
 * Signing out (the page's form and POST /api/auth/password/logout): the session ends and, when
 * it signed someone in, the trail records it (decision 0900). Returns the cookie that clears it.
 */
export async function signOut(request: Request): Promise<string> {
  const user = await getUser(request);
  const cookie = await logout(request);
  if (user) {
    const db = await getDb();
    await recordAudit(db, { actor: user, action: "auth.sign_out", entityType: "user", entityId: user.id });
    logEvent("info", { event: "signout", userId: user.id });
  }
  return cookie;
}

/**
 * remix-auth owns reading the sign-in form; it hands back the two fields, and the route signs in
 * with them and the client's address. The strategy cannot find the address itself: remix-auth
 * passes it a copy of the request, not the one the server tagged with its address, and a
 * sign-in under "unknown" would share one throttle with every other form sign-in (decision 0600).
 */
export const authenticator = new Authenticator<{ email: unknown; password: unknown }>();
authenticator.use(
  new FormStrategy(async ({ form }) => ({ email: form.get("email"), password: form.get("password") })),
  "form",
);

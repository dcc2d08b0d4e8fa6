// Factor changes (two-factor on or off, adding or removing a passkey) need the current
// password, or a sign-in (or a password confirmation) within the last five minutes: a session
// left open on a shared computer cannot change how its owner signs in.
//
// Every password asked again while signed in (here, Change Password's current password and
// turning two-factor off) is counted like a sign-in attempt, on the sign-in counters
// (decision 0600): an open session is no better a place to guess the
// owner's password than the sign-in form.
import type { User } from "~/db.server";
import { recordLocks } from "./sign-in-audit.server";
import { checkUserPassword } from "./user.server";
import { getCurrent, updateSessionData } from "~/utils/auth.server";
import { logEvent } from "~/utils/logger.server";
import { requestScope } from "~/utils/request-scope.server";
import type { Failure } from "~/utils/result";
import { giveBack, takeSignInAttempt, throttledMessage } from "~/utils/throttle.server";

const REAUTH_WINDOW_MS = 5 * 60 * 1000;
const REAUTH_REQUIRED = "Please enter your current password to confirm this change";
export const REAUTH_WRONG = "Password is incorrect";

/** What the password was asked for, in the logs. */
type PasswordPurpose = "factor-change" | "password-change" | "two-factor-off";

type PasswordConfirmation = { ok: true } | Failure<400 | 429>;

/**
 * Checks the signed-in user's password, asked again, under the sign-in throttle: a slot of the
 * user's counters (this address, the account, the address) is taken before bcrypt runs, and a
 * right password gives it back as a right password at sign-in does. A wrong one is refused with
 * `wrongMessage` (each form words it), a locked account with sign-in's own message.
 */
export async function confirmPassword(
  user: User,
  password: string,
  purpose: PasswordPurpose,
  wrongMessage: string,
  now = new Date(),
): Promise<PasswordConfirmation> {
  // The route wrapper keeps the request's client address (decision 0600); without one, as in a
  // script, every attempt shares the "unknown" address.
  const address = requestScope.getStore()?.clientAddress ?? "unknown";
  const throttle = await takeSignInAttempt(user.email, address, now);
  await recordLocks(throttle.crossed, { method: "password", user, address });
  if (throttle.limited) {
    const { retryAfterSeconds } = throttle;
    logEvent("warn", { event: "reauth.locked", purpose, userId: user.id, address, retryAfterSeconds });
    return { ok: false, status: 429, message: throttledMessage(retryAfterSeconds), retryAfterSeconds };
  }
  if (!(await checkUserPassword(user, password))) {
    logEvent("info", { event: "reauth.failure", purpose, userId: user.id, address });
    return { ok: false, status: 400, message: wrongMessage };
  }
  // As at sign-in: for a two-factor user only a right code clears this address's count
  // (decision 0401), so a known password cannot reset the count of wrong codes.
  await giveBack(user.email, address, { clear: !user.totpEnabled });
  return { ok: true };
}

export async function isRecentlyAuthenticated(request: Request, now = new Date()) {
  const current = await getCurrent(request);
  if (!current) return false;
  const signedInAt = current.session.createdAt.getTime();
  const confirmedAt = current.session.sess.reauthAt ?? 0;
  return now.getTime() - Math.max(signedInAt, confirmedAt) <= REAUTH_WINDOW_MS;
}

/** A refusal carries its message under `password` too, for the JSON calls' `errors`. */
type ReauthResult = { ok: true } | Failure<400 | 403 | 429>;

/**
 * Passes when `password` is the user's current password (remembered on the session for five
 * minutes) or when the session is recent enough. Otherwise asks for the password.
 */
export async function confirmRecentAuth(
  request: Request,
  user: User,
  password: unknown,
  now = new Date(),
): Promise<ReauthResult> {
  if (typeof password === "string" && password !== "") {
    const check = await confirmPassword(user, password, "factor-change", REAUTH_WRONG, now);
    if (!check.ok) return { ...check, fieldErrors: { password: [check.message] } };
    const current = await getCurrent(request);
    if (current) await updateSessionData(current.session.sid, { ...current.session.sess, reauthAt: now.getTime() });
    return { ok: true };
  }
  if (await isRecentlyAuthenticated(request, now)) return { ok: true };
  return { ok: false, status: 403, message: REAUTH_REQUIRED, fieldErrors: { password: [REAUTH_REQUIRED] } };
}

// Factor changes (two-factor on or off, adding or removing a passkey) need the current
// password, or a sign-in (or a password confirmation) within the last five minutes: a session
// left open on a shared computer cannot change how its owner signs in.
import type { User } from "~/db.server";
import { checkUserPassword } from "./user.server";
import { getCurrent, updateSessionData } from "~/utils/auth.server";
import { logEvent } from "~/utils/logger.server";

export const REAUTH_WINDOW_MS = 5 * 60 * 1000;
export const REAUTH_REQUIRED = "Please enter your current password to confirm this change";
export const REAUTH_WRONG = "Password is incorrect";

export async function isRecentlyAuthenticated(request: Request, now = new Date()) {
  const current = await getCurrent(request);
  if (!current) return false;
  const signedInAt = current.session.createdAt.getTime();
  const confirmedAt = current.session.sess.reauthAt ?? 0;
  return now.getTime() - Math.max(signedInAt, confirmedAt) <= REAUTH_WINDOW_MS;
}

export type ReauthResult = { ok: true } | { ok: false; status: 400 | 403; message: string; field: "password" };

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
    if (!(await checkUserPassword(user, password))) {
      logEvent("info", { event: "reauth.failure", userId: user.id });
      return { ok: false, status: 400, message: REAUTH_WRONG, field: "password" };
    }
    const current = await getCurrent(request);
    if (current) await updateSessionData(current.session.sid, { ...current.session.sess, reauthAt: now.getTime() });
    return { ok: true };
  }
  if (await isRecentlyAuthenticated(request, now)) return { ok: true };
  return { ok: false, status: 403, message: REAUTH_REQUIRED, field: "password" };
}

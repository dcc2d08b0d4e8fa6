import { and, eq, isNull, lt, or } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { getDb, schema, type User } from "~/db.server";
import { TOTP_CODE_MESSAGE } from "~/schemas/users";
import { PRODUCT_NAME } from "~/utils/brand";
import type { Result } from "~/utils/result";
import { openSecret, sealSecret } from "~/utils/secret-box.server";
import { clientAddress } from "~/utils/client-address.server";
import { logEvent } from "~/utils/logger.server";
import { giveBack, takeSignInAttempt, throttledMessage } from "~/utils/throttle.server";
import { createSession, destroySession, readSession } from "~/utils/session.server";
import { recordAudit } from "./audit.server";
import { recordLocks, recordSignIn } from "./sign-in-audit.server";
import { confirmPassword, REAUTH_WRONG } from "./reauth.server";
import {
  INVALID_RECOVERY_CODE,
  normalizeRecoveryCode,
  RECOVERY_CODE_MESSAGE,
  replaceRecoveryCodes,
  useRecoveryCode,
} from "./recovery-codes.server";
import { getUserById } from "./user.server";

// Two-factor codes (RFC 6238, 30-second steps). A code is accepted once: the step it matched is
// stored in users.totpLastStep and any code of that step or earlier is refused afterwards.

/** How long the half-way session (password right, code still missing) stays usable. */
export const TOTP_PENDING_TTL_MS = 5 * 60 * 1000;
/** One step either side, for phone clocks that drift. */
const TOTP_TOLERANCE_SECONDS = 30;
const INVALID_CODE = "Invalid authenticator code";

const isCode = (token: unknown): token is string => typeof token === "string" && /^\d{6}$/.test(token);

async function matchStep(secret: string, token: string, lastStep: number | null, now: Date) {
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(lastStep != null ? { afterTimeStep: lastStep } : {}),
  });
  return result.valid && "timeStep" in result ? (result.timeStep as number) : null;
}

/** Stores the step if it is newer than the last one: two requests with one code cannot both win. */
async function claimStep(userId: string, step: number) {
  const db = await getDb();
  const rows = await db
    .update(schema.users)
    .set({ totpLastStep: step })
    .where(and(eq(schema.users.id, userId), or(isNull(schema.users.totpLastStep), lt(schema.users.totpLastStep, step))))
    .returning({ id: schema.users.id });
  return rows.length === 1;
}

type TotpEnrolment = { secret: string; uri: string; qrDataUrl: string };

/** The user's TOTP secret in clear (stored encrypted). */
function totpSecretOf(user: Pick<User, "totpSecret">): string {
  if (!user.totpSecret) throw new Error("no TOTP secret");
  return openSecret(user.totpSecret);
}

/** Starts (or restarts) setting up two-factor: a new secret, stored encrypted. An explicit POST. */
export async function startTotpEnrolment(user: User) {
  if (user.totpEnabled) return;
  const db = await getDb();
  await db
    .update(schema.users)
    .set({ totpSecret: sealSecret(generateSecret()), updatedAt: new Date() })
    .where(eq(schema.users.id, user.id));
}

/** The secret being set up, with its QR code; null when set-up has not been started. Never writes. */
export async function getTotpEnrolment(user: User): Promise<TotpEnrolment | null> {
  if (user.totpEnabled || !user.totpSecret) return null;
  const secret = totpSecretOf(user);
  const uri = generateURI({ issuer: PRODUCT_NAME, label: user.email, secret });
  const qrDataUrl = await QRCode.toDataURL(uri, { margin: 1, width: 200, errorCorrectionLevel: "M" });
  return { secret, uri, qrDataUrl };
}

type TotpResult = Result<object, 400 | 401 | 409 | 429>;

/**
 * Turns two-factor on once the user proves their app produces the right code, with ten new
 * recovery codes (returned in clear, to be shown once).
 */
export async function confirmTotpEnrolment(
  user: User,
  token: unknown,
  now = new Date(),
): Promise<Result<{ recoveryCodes: string[] }, 400 | 409>> {
  if (user.totpEnabled) return { ok: false, status: 409, message: "Two-factor authentication is already on" };
  if (!user.totpSecret) return { ok: false, status: 400, message: "Please start the set-up again" };
  const code = typeof token === "string" ? token.replace(/\s/g, "") : token;
  if (!isCode(code)) return { ok: false, status: 400, message: TOTP_CODE_MESSAGE };
  const step = await matchStep(totpSecretOf(user), code, null, now);
  if (step == null)
    return {
      ok: false,
      status: 400,
      message: `${INVALID_CODE}. Check the time on your phone and try the newest code.`,
    };
  const db = await getDb();
  const recoveryCodes = await db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({ totpEnabled: true, totpLastStep: step, updatedAt: new Date() })
      .where(eq(schema.users.id, user.id));
    const codes = await replaceRecoveryCodes(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "auth.two_factor_enable",
      entityType: "user",
      entityId: user.id,
      before: { totpEnabled: user.totpEnabled },
      after: { totpEnabled: true, recoveryCodes: codes.length },
    });
    return codes;
  });
  return { ok: true, recoveryCodes };
}

/** Turns two-factor off; the password is asked again so a borrowed phone cannot do it. */
export async function disableTotp(user: User, password: unknown): Promise<TotpResult> {
  if (typeof password !== "string" || !password)
    return { ok: false, status: 400, message: "Please enter your password" };
  // Counted like a sign-in attempt (decision 0600): an open session cannot guess without limit.
  const check = await confirmPassword(user, password, "two-factor-off", REAUTH_WRONG);
  if (!check.ok) return check;
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({ totpEnabled: false, totpSecret: null, totpLastStep: null, updatedAt: new Date() })
      .where(eq(schema.users.id, user.id));
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, user.id));
    await recordAudit(tx, {
      actor: user,
      action: "auth.two_factor_disable",
      entityType: "user",
      entityId: user.id,
      before: { totpEnabled: user.totpEnabled },
      after: { totpEnabled: false },
    });
  });
  return { ok: true };
}

type TotpLoginResult =
  | { ok: true; user: User; cookie: string }
  | { ok: false; status: 400 | 401 | 403 | 429; message: string; cookie?: string; retryAfterSeconds?: number };

/** The user half-way through signing in on this request's session, if still within its time. */
export async function getPendingTotpUser(request: Request, now = new Date()): Promise<User | null> {
  const session = await readSession(request, now);
  if (!session || session.userId || !session.sess.pendingTotpUserId) return null;
  if (!session.sess.pendingTotpAt || now.getTime() - session.sess.pendingTotpAt > TOTP_PENDING_TTL_MS) return null;
  const user = await getUserById(session.sess.pendingTotpUserId);
  return user && user.status === "active" && user.totpEnabled ? user : null;
}

/** The code step of signing in, shared by /login/verify and POST /api/totp/verify-login. */
export async function completeTotpLogin(request: Request, token: unknown, now = new Date()): Promise<TotpLoginResult> {
  const code = typeof token === "string" ? token.replace(/\s/g, "") : token;
  return completeSecondStep(request, now, {
    method: "password+totp",
    valid: isCode(code),
    invalidMessage: TOTP_CODE_MESSAGE,
    wrongMessage: INVALID_CODE,
    check: async (user) => {
      const step = await matchStep(totpSecretOf(user), code as string, user.totpLastStep, now);
      return step != null && (await claimStep(user.id, step));
    },
  });
}

/** The code step with a recovery code instead (each code once), for the same two callers. */
export function completeRecoveryCodeLogin(request: Request, input: unknown, now = new Date()) {
  const code = normalizeRecoveryCode(input);
  return completeSecondStep(request, now, {
    method: "password+recovery-code",
    valid: code !== null,
    invalidMessage: RECOVERY_CODE_MESSAGE,
    wrongMessage: INVALID_RECOVERY_CODE,
    check: (user) => useRecoveryCode(user, code!, now),
  });
}

type SecondStep = {
  method: "password+totp" | "password+recovery-code";
  /** Whether the input has the right shape (400 otherwise, nothing counted). */
  valid: boolean;
  invalidMessage: string;
  wrongMessage: string;
  /** Checks (and uses up) the code for the user half-way through signing in. */
  check: (user: User) => Promise<boolean>;
};

/**
 * The second step of a password sign-in (an authenticator code, or a recovery code instead):
 * the half-way session's user, the sign-in throttle, the check, and a fresh signed-in session.
 */
async function completeSecondStep(request: Request, now: Date, step: SecondStep): Promise<TotpLoginResult> {
  const user = await getPendingTotpUser(request, now);
  if (!user || !user.totpSecret) {
    // A session already signed in (a code sent again after the first went through) is kept:
    // the code step does not apply to it, and ending it would sign the person out.
    if ((await readSession(request, now))?.userId) {
      return { ok: false, status: 400, message: "You are already signed in." };
    }
    return {
      ok: false,
      status: 401,
      message: "Your sign-in has expired. Please sign in again.",
      cookie: await destroySession(request),
    };
  }
  if (!step.valid) return { ok: false, status: 400, message: step.invalidMessage };
  const address = clientAddress(request);
  const throttle = await takeSignInAttempt(user.email, address, now);
  await recordLocks(throttle.crossed, { method: step.method, user, address });
  if (throttle.limited) {
    logEvent("warn", {
      event: "signin.locked",
      factor: step.method,
      userId: user.id,
      address,
      scope: throttle.scope,
      retryAfterSeconds: throttle.retryAfterSeconds,
    });
    return {
      ok: false,
      status: 429,
      message: throttledMessage(throttle.retryAfterSeconds),
      retryAfterSeconds: throttle.retryAfterSeconds,
    };
  }
  if (!(await step.check(user))) {
    logEvent("info", { event: "signin.failure", factor: step.method, userId: user.id, address });
    if (throttle.firstFailure)
      await recordSignIn({ outcome: "failure", method: step.method, user, reason: "code", address });
    return { ok: false, status: 401, message: step.wrongMessage };
  }
  await giveBack(user.email, address, { clear: true });
  logEvent("info", { event: "signin.success", method: step.method, userId: user.id, address });
  await recordSignIn({ outcome: "success", method: step.method, user, address });
  const { cookie } = await createSession(request, user.id, {}, now);
  return { ok: true, user, cookie };
}

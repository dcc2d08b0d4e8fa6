// Sign-ins in the audit trail (docs/decisions/0900): success, failure and lock, for every
// method (password, password + code or recovery code, passkey). A sign-in attempt is its own
// change: its event is one INSERT. Refusals are bounded (decision 0600): every success is a
// row, but a failure only the first of its account and address in the throttle window, and a
// lock one row when a counter first refuses in its window; the rest are counted in the
// throttle's counters (pruned) and logged, so a flood of requests cannot flood the trail. A failure is recorded against the account it named (entity = that user, no
// actor: nobody is signed in); an attempt on an unknown e-mail keeps no e-mail, so the trail
// is not a list of what strangers typed.
import { getDb, type User } from "~/db.server";
import type { ThrottleCrossing } from "~/utils/throttle.server";
import { auditContext, recordAudit } from "./audit.server";
import { getUserByEmail } from "./user.server";

type SignInMethod = "password" | "password+totp" | "password+recovery-code" | "passkey";

type SignInEvent = {
  outcome: "success" | "failure";
  method: SignInMethod;
  /** The account, when known. */
  user?: Pick<User, "id" | "email"> | null;
  /** The e-mail typed, to find the account when `user` is not given. */
  email?: string;
  reason?: string;
  address?: string;
};

const ACTIONS = { success: "auth.sign_in", failure: "auth.sign_in_failed" } as const;

export async function recordSignIn(event: SignInEvent): Promise<void> {
  const user = event.user ?? (event.email ? await getUserByEmail(event.email) : null);
  const context = auditContext();
  const db = await getDb();
  await recordAudit(db, {
    actor: event.outcome === "success" && user ? { id: user.id, email: user.email } : null,
    action: ACTIONS[event.outcome],
    entityType: "user",
    entityId: user?.id ?? null,
    after: {
      method: event.method,
      ...(user ? { email: user.email } : {}),
      ...(event.reason ? { reason: event.reason } : {}),
    },
    context: { ...context, clientAddress: event.address ?? context.clientAddress },
  });
}

/**
 * One row per counter that has just started refusing (`auth.locked`): which counter (`scope`),
 * the attempts it counted and until when. An address lock names no account.
 */
export async function recordLocks(
  crossed: ThrottleCrossing[],
  event: { method: SignInMethod; user?: Pick<User, "id" | "email"> | null; email?: string; address: string },
): Promise<void> {
  if (!crossed.length) return;
  const context = auditContext();
  const db = await getDb();
  const needsUser = crossed.some((c) => c.scope !== "address" && c.scope !== "passkey-options");
  const user = needsUser ? (event.user ?? (event.email ? await getUserByEmail(event.email) : null)) : null;
  for (const lock of crossed) {
    const ofAccount = lock.scope !== "address" && lock.scope !== "passkey-options";
    await recordAudit(db, {
      actor: null,
      action: "auth.locked",
      entityType: "user",
      entityId: ofAccount ? (user?.id ?? null) : null,
      after: {
        method: event.method,
        scope: lock.scope,
        attempts: lock.attempts,
        until: lock.until.toISOString(),
        ...(ofAccount && user ? { email: user.email } : {}),
      },
      context: { ...context, clientAddress: event.address },
    });
  }
}

// Sign-ins in the audit trail (docs/decisions/0900): success, failure and lock, for every
// method (password, password + code, passkey). A sign-in attempt is its own change: its event
// is one INSERT. A failure is recorded against the account it named (entity = that user, no
// actor: nobody is signed in); an attempt on an unknown e-mail keeps no e-mail, so the trail
// is not a list of what strangers typed.
import { getDb, type User } from "~/db.server";
import { auditContext, recordAudit } from "./audit.server";
import { getUserByEmail } from "./user.server";

export type SignInMethod = "password" | "password+totp" | "passkey";

type SignInEvent = {
  outcome: "success" | "failure" | "locked";
  method: SignInMethod;
  /** The account, when known. */
  user?: Pick<User, "id" | "email"> | null;
  /** The e-mail typed, to find the account when `user` is not given. */
  email?: string;
  reason?: string;
  address?: string;
};

const ACTIONS = { success: "auth.sign_in", failure: "auth.sign_in_failed", locked: "auth.locked" } as const;

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

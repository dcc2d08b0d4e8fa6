import { getDb, type User } from "~/db.server";
import { ChangePasswordSchema } from "~/schemas/auth";
import { fieldErrorsOf } from "~/utils/field-errors";
import type { Failure, FieldErrors } from "~/utils/result";
import { endUserSessions } from "~/utils/session.server";
import { passwordProblem } from "./password-policy.server";
import { recordAudit } from "./audit.server";
import { confirmPassword } from "./reauth.server";
import { hashPassword, setPassword } from "./user.server";

type ChangePasswordResult = { ok: true } | (Failure<400 | 429> & { fieldErrors: FieldErrors });

/**
 * Changes the user's own password: the current one must match, the new one follow the rules
 * of spec section 5. Every other session of the user ends; `keepSid` stays signed in.
 */
export async function changeOwnPassword(
  user: User,
  input: { currentPassword?: unknown; newPassword?: unknown; confirmPassword?: unknown },
  keepSid: string | null,
): Promise<ChangePasswordResult> {
  const parsed = ChangePasswordSchema.safeParse({
    currentPassword: input.currentPassword,
    newPassword: input.newPassword,
    // The JSON call sends no confirmation (spec section 7): then there is nothing to mismatch.
    confirmPassword: input.confirmPassword === undefined ? input.newPassword : input.confirmPassword,
  });
  if (!parsed.success) {
    return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  }
  // Counted like a sign-in attempt (decision 0600): an open session cannot guess without limit.
  const check = await confirmPassword(
    user,
    parsed.data.currentPassword,
    "password-change",
    "Current password is incorrect. Please check your current password.",
  );
  if (!check.ok) return { ...check, fieldErrors: { currentPassword: [check.message] } };
  const problem = await passwordProblem(parsed.data.newPassword, user.email);
  if (problem) return { ok: false, status: 400, fieldErrors: { newPassword: [problem] }, message: problem };
  if (parsed.data.currentPassword === parsed.data.newPassword) {
    const message = "The new password must be different from the current one";
    return { ok: false, status: 400, fieldErrors: { newPassword: [message] }, message };
  }
  const passwordHash = await hashPassword(parsed.data.newPassword);
  const db = await getDb();
  await db.transaction(async (tx) => {
    await setPassword(user.id, parsed.data.newPassword, { passwordHash }, tx);
    await recordAudit(tx, {
      actor: user,
      action: "user.password_change",
      entityType: "user",
      entityId: user.id,
      before: { mustChangePassword: user.mustChangePassword },
      after: { mustChangePassword: 0 },
    });
  });
  await endUserSessions(user.id, keepSid);
  return { ok: true };
}

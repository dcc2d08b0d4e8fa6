import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { userSessionsWhere } from "~/utils/session.server";
import { getDb, schema, type Executor, type Role, type User, type UserStatus } from "~/db.server";
import { env } from "~/utils/env.server";
import { logEvent } from "~/utils/logger.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { isUuid } from "~/utils/params";
import { denied } from "~/utils/request-scope.server";
import { assertCan, can, refuse, type Actor } from "~/rules/capabilities.server";
import type { Result } from "~/utils/result";
import { accountLocks, clearAccountLock } from "~/utils/throttle.server";
import { CreateUserSchema, ROLE_LABELS } from "~/schemas/users";
import {
  displayName,
  generateTemporaryPassword,
  getUserByEmail,
  hashPassword,
  insertUser,
  temporaryPasswordColumns,
  temporaryPasswordExpiry,
} from "./user.server";
import { recordAudit, type AuditAction } from "./audit.server";
import { isUniqueViolation } from "./directory-errors";

// User management for admins (spec sections 2, 4, 6 and 7). Every call refuses the admin's own
// account, never removes a row (Delete is a status), and ends the target's sessions in the
// same transaction as the change that should sign them out.

export type AdminUserRow = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string;
  role: Role;
  status: UserStatus;
  mustChangePassword: number;
  createdAt: string;
  // Sign-in locked by the throttle until then (ISO), or null.
  lockedUntil: string | null;
  // While the user must still replace an admin-issued temporary password: when it was issued
  // (ISO) and whether its one sign-in has been used (decision 0600); otherwise null and false.
  temporaryPasswordIssuedAt: string | null;
  temporaryPasswordUsed: boolean;
};

export type AdminResult<T extends object = object> = Result<T, 400 | 403 | 404 | 409>;

/** Why one id of a bulk call was not changed: `label` is the user's e-mail, or the id when unknown. */
export type BulkFailure = { id: string; label: string; reason: string };

export type BulkResult = { success: string[]; failed: string[]; failures: BulkFailure[] };

export { isUuid };

function toRow(user: User): AdminUserRow {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    displayName: displayName(user),
    role: user.role,
    status: user.status,
    mustChangePassword: user.mustChangePassword,
    createdAt: user.createdAt.toISOString(),
    lockedUntil: null,
    ...temporaryPasswordState(user),
  };
}

function temporaryPasswordState(user: User) {
  const pending = user.mustChangePassword === 1 && user.temporaryPasswordIssuedAt;
  return {
    temporaryPasswordIssuedAt: pending ? user.temporaryPasswordIssuedAt!.toISOString() : null,
    temporaryPasswordUsed: Boolean(pending && user.temporaryPasswordUsedAt),
  };
}

export async function listUsers(admin: Actor): Promise<AdminUserRow[]> {
  assertCan(admin, "user.manage", "users");
  const db = await getDb();
  const rows = await db.select().from(schema.users).orderBy(asc(schema.users.createdAt), asc(schema.users.email));
  const locks = await accountLocks(rows.map((u) => u.email));
  return rows.map((u) => ({ ...toRow(u), lockedUntil: locks.get(u.email)?.lockedUntil.toISOString() ?? null }));
}

/** Clears the sign-in throttle of a user, from every address (the admin's Unlock). */
export async function unlockUser(admin: User, id: string): Promise<AdminResult<{ user: AdminUserRow }>> {
  const refused = refuse(admin, "user.manage", `user/${id}`);
  if (refused) return refused;
  if (!isUuid(id)) return { ok: false, status: 404, message: "User not found" };
  const db = await getDb();
  const user = await db.transaction(async (tx) => {
    const [found] = await tx.select().from(schema.users).where(eq(schema.users.id, id));
    if (!found) return null;
    await clearAccountLock(found.email, tx);
    await recordAudit(tx, { actor: admin, action: "user.unlock", entityType: "user", entityId: id, after: found });
    return found;
  });
  if (!user) return { ok: false, status: 404, message: "User not found" };
  logEvent("info", { event: "admin.user.unlocked", adminId: admin.id, userId: user.id });
  return { ok: true, user: toRow(user) };
}

export async function getUserRow(admin: Actor, id: string): Promise<AdminUserRow | null> {
  assertCan(admin, "user.manage", `user/${id}`);
  if (!isUuid(id)) return null;
  const db = await getDb();
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, id));
  return user ? toRow(user) : null;
}

export async function getUserRows(admin: Actor, ids: string[]): Promise<AdminUserRow[]> {
  assertCan(admin, "user.manage", "users");
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const db = await getDb();
  const rows = await db
    .select()
    .from(schema.users)
    .where(inArray(schema.users.id, valid))
    .orderBy(asc(schema.users.createdAt));
  return rows.map(toRow);
}

/** Creates a staff or manager account with a random temporary password, shown once. */
export async function createUserByAdmin(
  admin: User,
  input: { email?: unknown; role?: unknown; firstName?: unknown; lastName?: unknown },
): Promise<AdminResult<{ user: AdminUserRow; temporaryPassword: string }>> {
  const refused = refuse(admin, "user.manage", "users");
  if (refused) return refused;
  const parsed = CreateUserSchema.safeParse({
    email: input.email ?? undefined,
    role: input.role === "" ? undefined : (input.role ?? undefined),
    firstName: input.firstName ?? undefined,
    lastName: input.lastName ?? undefined,
  });
  if (!parsed.success) {
    const { fieldErrors } = fieldErrorsOf(parsed.error);
    const missing = input.email == null || input.email === "" || input.role == null || input.role === "";
    const message = missing ? "Email and role are required" : (parsed.error.issues[0]?.message ?? "Invalid input");
    return { ok: false, status: 400, message, fieldErrors };
  }
  if (await getUserByEmail(parsed.data.email)) {
    const message = "A user with this email already exists";
    return { ok: false, status: 409, message, fieldErrors: { email: [message] } };
  }
  const temporaryPassword = generateTemporaryPassword();
  const passwordHash = await hashPassword(temporaryPassword);
  try {
    const db = await getDb();
    const user = await db.transaction(async (tx) => {
      const created = await insertUser(
        {
          ...parsed.data,
          password: temporaryPassword,
          passwordHash,
          mustChangePassword: true,
          temporaryPasswordExpiresAt: temporaryPasswordExpiry(),
          temporaryPasswordIssuedAt: new Date(),
        },
        tx,
      );
      await recordAudit(tx, {
        actor: admin,
        action: "user.create",
        entityType: "user",
        entityId: created.id,
        after: created,
      });
      return created;
    });
    return { ok: true, user: toRow(user), temporaryPassword };
  } catch (error) {
    // Two admins adding the same e-mail at once: the unique index decides.
    if (isUniqueViolation(error)) {
      const message = "A user with this email already exists";
      return { ok: false, status: 409, message, fieldErrors: { email: [message] } };
    }
    throw error;
  }
}

type Target = { ok: true; user: User } | { ok: false; status: 400 | 404 | 409; message: string };

async function loadTarget(admin: User, id: string, tx: Executor, { allowDeleted = false } = {}): Promise<Target> {
  // PostgreSQL reads a uuid in either case; the stored one is lower case.
  if (id.toLowerCase() === admin.id)
    return { ok: false, status: 400, message: "You cannot change your own account here" };
  if (!isUuid(id)) return { ok: false, status: 404, message: "User not found" };
  const [user] = await tx.select().from(schema.users).where(eq(schema.users.id, id)).for("update");
  if (!user) return { ok: false, status: 404, message: "User not found" };
  if (user.status === "deleted" && !allowDeleted)
    return { ok: false, status: 409, message: "This user has been deleted" };
  return { ok: true, user };
}

async function endSessions(tx: Executor, userIds: string[]) {
  if (userIds.length) await tx.delete(schema.sessions).where(userSessionsWhere(userIds));
}

/** What Delete sets: the row stays (deliveries and invoices point at it), its second factor goes. */
const DELETED_COLUMNS = { status: "deleted", totpEnabled: false, totpSecret: null } as const;

/** A deleted user's ways back in go with the deletion: their sessions and their passkeys. */
async function endAccess(tx: Executor, userIds: string[]) {
  await endSessions(tx, userIds);
  await tx.delete(schema.passkeys).where(inArray(schema.passkeys.userId, userIds));
}

type UserColumns = Partial<typeof schema.users.$inferInsert>;

/** Writes one user's new columns and records the change, before and after, under `id` as asked. */
async function updateUser(
  tx: Executor,
  admin: User,
  action: AuditAction,
  id: string,
  before: User,
  columns: UserColumns,
  andThen?: () => Promise<void>,
) {
  const [user] = await tx
    .update(schema.users)
    .set({ ...columns, updatedAt: new Date() })
    .where(eq(schema.users.id, id))
    .returning();
  await andThen?.();
  await recordAudit(tx, { actor: admin, action, entityType: "user", entityId: id, before, after: user });
  return user;
}

export const STATUS_CHOICES = ["active", "frozen"] as const;
export const isStatusChoice = (v: unknown): v is "active" | "frozen" => v === "active" || v === "frozen";

/** Freeze (active → frozen, sessions end at once) or unfreeze (frozen → active). */
export async function setUserStatus(
  admin: User,
  id: string,
  status: unknown,
): Promise<AdminResult<{ user: AdminUserRow }>> {
  const refused = refuse(admin, "user.manage", `user/${id}`);
  if (refused) return refused;
  if (!isStatusChoice(status)) return { ok: false, status: 400, message: "Status must be active or frozen" };
  const db = await getDb();
  return db.transaction(async (tx) => {
    const target = await loadTarget(admin, id, tx);
    if (!target.ok) return target;
    const user = await updateUser(tx, admin, statusAction(status), id, target.user, { status }, async () => {
      if (status === "frozen") await endSessions(tx, [id]);
    });
    return { ok: true as const, user: toRow(user) };
  });
}

/** Marks the user deleted (the row stays: deliveries and invoices point at it) and signs them out. */
export async function deleteUserByAdmin(admin: User, id: string): Promise<AdminResult<{ user: AdminUserRow }>> {
  const refused = refuse(admin, "user.manage", `user/${id}`);
  if (refused) return refused;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const target = await loadTarget(admin, id, tx);
    if (!target.ok) return target;
    const user = await updateUser(tx, admin, "user.delete", id, target.user, DELETED_COLUMNS, () =>
      endAccess(tx, [id]),
    );
    return { ok: true as const, user: toRow(user) };
  });
}

/** A new random temporary password that must be changed at next sign-in; open sessions end. */
export async function resetUserPassword(
  admin: User,
  id: string,
): Promise<AdminResult<{ user: AdminUserRow; temporaryPassword: string }>> {
  const refused = refuse(admin, "user.manage", `user/${id}`);
  if (refused) return refused;
  const temporaryPassword = generateTemporaryPassword();
  const hash = await hashPassword(temporaryPassword);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const target = await loadTarget(admin, id, tx);
    if (!target.ok) return target;
    const columns = { password: hash, mustChangePassword: 1, ...temporaryPasswordColumns() };
    const user = await updateUser(tx, admin, "user.reset_password", id, target.user, columns, () =>
      endSessions(tx, [id]),
    );
    return { ok: true as const, user: toRow(user), temporaryPassword };
  });
}

function cleanIds(userIds: unknown): string[] | null {
  if (!Array.isArray(userIds) || userIds.length === 0 || userIds.length > 1000) return null;
  if (!userIds.every((id) => typeof id === "string")) return null;
  return [...new Set(userIds as string[])];
}

/**
 * Bulk freeze/unfreeze in one transaction. The admin's own id, unknown ids and deleted users
 * are listed under `failed`; the rest under `success`.
 */
export async function bulkSetStatus(admin: User, userIds: unknown, status: unknown): Promise<AdminResult<BulkResult>> {
  const refused = refuse(admin, "user.manage", "users");
  if (refused) return refused;
  const ids = cleanIds(userIds);
  if (!ids) return { ok: false, status: 400, message: "Please select at least one user" };
  if (!isStatusChoice(status)) return { ok: false, status: 400, message: "Status must be active or frozen" };
  return bulkUpdate(admin, ids, statusAction(status), { status }, (tx, success) =>
    status === "frozen" ? endSessions(tx, success) : Promise.resolve(),
  );
}

export async function bulkDeleteUsers(admin: User, userIds: unknown): Promise<AdminResult<BulkResult>> {
  const refused = refuse(admin, "user.manage", "users");
  if (refused) return refused;
  const ids = cleanIds(userIds);
  if (!ids) return { ok: false, status: 400, message: "Please select at least one user" };
  return bulkUpdate(admin, ids, "user.delete", DELETED_COLUMNS, endAccess);
}

const statusAction = (status: "active" | "frozen"): AuditAction =>
  status === "frozen" ? "user.freeze" : "user.unfreeze";

/**
 * A bulk change in one transaction: the users it may change (`partition`) get the new columns,
 * `andThen` runs on their ids, and each gets its own audit event.
 */
async function bulkUpdate(
  admin: User,
  ids: string[],
  action: AuditAction,
  columns: UserColumns,
  andThen: (tx: Executor, userIds: string[]) => Promise<void>,
): Promise<AdminResult<BulkResult>> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const { success, failed, failures } = await partition(admin, ids, tx);
    if (success.length) {
      const before = await tx.select().from(schema.users).where(inArray(schema.users.id, success));
      const after = await tx
        .update(schema.users)
        .set({ ...columns, updatedAt: new Date() })
        .where(inArray(schema.users.id, success))
        .returning();
      await andThen(tx, success);
      const was = new Map(before.map((u) => [u.id, u]));
      for (const user of after) {
        await recordAudit(tx, {
          actor: admin,
          action,
          entityType: "user",
          entityId: user.id,
          before: was.get(user.id),
          after: user,
        });
      }
    }
    return { ok: true as const, success, failed, failures };
  });
}

export const BULK_REASONS = {
  own: "that is your own account",
  unknown: "no such user",
  deleted: "already deleted",
} as const;

async function partition(admin: User, ids: string[], tx: Executor): Promise<BulkResult> {
  const candidates = ids.filter((id) => id !== admin.id && isUuid(id));
  const rows = candidates.length
    ? await tx
        .select({ id: schema.users.id, email: schema.users.email, status: schema.users.status })
        .from(schema.users)
        .where(inArray(schema.users.id, candidates))
        .orderBy(asc(schema.users.id))
        .for("update")
    : [];
  const found = new Map(rows.map((r) => [r.id, r]));
  const failures: BulkFailure[] = [];
  const success: string[] = [];
  for (const id of ids) {
    const row = found.get(id);
    if (id === admin.id) failures.push({ id, label: admin.email, reason: BULK_REASONS.own });
    else if (!row) failures.push({ id, label: id, reason: BULK_REASONS.unknown });
    else if (row.status === "deleted") failures.push({ id, label: row.email, reason: BULK_REASONS.deleted });
    else success.push(id);
  }
  return { success, failed: failures.map((f) => f.id), failures };
}

/** Each failure and its reason, for the toast: "a@x.test: already deleted; ...". */
export function bulkFailureText(result: BulkResult) {
  return result.failures.map((f) => `${f.label}: ${f.reason}`).join("; ");
}

/** 'N users updated successfully' or 'N users updated, M failed' (spec section 8). */
export function bulkMessage(result: Pick<BulkResult, "success" | "failed">, verb: "updated" | "deleted") {
  const n = result.success.length;
  const noun = n === 1 ? "user" : "users";
  return result.failed.length
    ? `${n} ${noun} ${verb}, ${result.failed.length} failed`
    : `${n} ${noun} ${verb} successfully`;
}

// ---- Another user's role -------------------------------------------------------------------

const isRole = (v: unknown): v is Role => typeof v === "string" && (schema.ROLES as readonly string[]).includes(v);

/**
 * An admin changes another active user's role, admin included (decision 0400). The route asks
 * for a recent sign-in or the password first. The active admins' rows are locked first, in id
 * order, so that two admins demoting each other at once cannot both succeed: the second finds
 * that it is no longer an admin. There is always an active admin left (the caller, at least).
 */
export async function changeUserRole(
  admin: User,
  id: string,
  role: unknown,
): Promise<AdminResult<{ user: AdminUserRow; previousRole: Role }>> {
  const refused = refuse(admin, "user.role", `user/${id}`);
  if (refused) return refused;
  if (!isRole(role)) {
    const message = "Role must be Staff, Manager or Admin";
    return { ok: false, status: 400, message, fieldErrors: { role: [message] } };
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: schema.users.id })
      .from(schema.users)
      .where(and(eq(schema.users.role, "admin"), eq(schema.users.status, "active")))
      .orderBy(asc(schema.users.id))
      .for("update");
    if (!admins.some((a) => a.id === admin.id)) return denied(admin, `user/${id}`, "You are no longer an active admin");
    const target = await loadTarget(admin, id, tx);
    if (!target.ok) return target;
    if (target.user.status !== "active") {
      return { ok: false as const, status: 409 as const, message: "Unfreeze this user before changing their role" };
    }
    if (target.user.role === role) {
      const message = `${target.user.email} already has the ${ROLE_LABELS[role]} role`;
      return { ok: false as const, status: 400 as const, message, fieldErrors: { role: [message] } };
    }
    if (role !== "admin" && admins.every((a) => a.id === id)) {
      return { ok: false as const, status: 409 as const, message: "This would leave no active admin" };
    }
    const user = await updateUser(tx, admin, "user.role_change", target.user.id, target.user, { role });
    logEvent("info", { event: "admin.user.role_changed", adminId: admin.id, userId: user.id, role });
    return { ok: true as const, user: toRow(user), previousRole: target.user.role };
  });
}

// ---- Development role switcher -------------------------------------------------------------

const ownerEmail = () => env().OWNER_EMAIL?.trim().toLowerCase() || null;

/** The switcher's refusal names the one place that makes another admin. */
export const ONLY_ADMIN_MESSAGE =
  "You are the only active admin: first make another user an admin (Settings, User Management, Change Role)";

/** Who sees the role switcher: admins, and the owner e-mail whatever their current role. */
export function canSwitchRole(user: Pick<User, "role" | "email">) {
  return can(user, "role.switch");
}

/**
 * Changes the caller's own role (testing aid of spec section 2). Never another user's; and an
 * admin other than the owner cannot step down when no other active admin would remain.
 */
export async function switchOwnRole(
  caller: User,
  targetId: string,
  role: unknown,
): Promise<AdminResult<{ user: User }>> {
  if (targetId !== caller.id) return denied(caller, `user/${targetId}`, "You can only change your own role");
  if (!canSwitchRole(caller)) return denied(caller, `user/${targetId}`, "You do not have permission to do this");
  if (typeof role !== "string" || !(schema.ROLES as readonly string[]).includes(role)) {
    return { ok: false, status: 400, message: "Role must be staff, manager or admin" };
  }
  const db = await getDb();
  return db.transaction(async (tx) => {
    if (role !== "admin" && caller.role === "admin" && caller.email !== ownerEmail()) {
      // Lock the admin rows so two admins stepping down at once cannot both succeed.
      const others = await tx
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(and(eq(schema.users.role, "admin"), eq(schema.users.status, "active"), ne(schema.users.id, caller.id)))
        .for("update");
      if (others.length === 0) {
        return {
          ok: false as const,
          status: 409 as const,
          message: ONLY_ADMIN_MESSAGE,
        };
      }
    }
    const [before] = await tx.select().from(schema.users).where(eq(schema.users.id, caller.id)).for("update");
    const [user] = await tx
      .update(schema.users)
      .set({ role: role as Role, updatedAt: new Date() })
      .where(eq(schema.users.id, caller.id))
      .returning();
    await recordAudit(tx, {
      actor: caller,
      action: "user.role_change",
      entityType: "user",
      entityId: caller.id,
      before,
      after: user,
    });
    return { ok: true as const, user };
  });
}

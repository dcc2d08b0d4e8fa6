import { redirect } from "@remix-run/node";
import type { User } from "~/db.server";
import { getUserRow, listUsers } from "~/models/admin-users.server";
import { listPasskeys } from "~/models/passkey.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { formatAuditTime } from "~/utils/audit-words.server";
import { dayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { invariantResponse } from "~/utils/http.server";

/**
 * Data of the Password, Two-factor, Passkey and (admins only) User Management cards. "Added" and
 * "Last used" are days of the business time zone, worked out here: the cards also render in the
 * browser, which does not know APP_TIME_ZONE, and a timestamp's UTC date is the day before for
 * the first hour of every Lagos day. A lock's end and a temporary password's issue are shown as
 * the business's wall clock with the zone named ("Nov 29, 2026 14:05 WAT"), as the audit trail
 * shows a moment, not in UTC.
 */
export async function loadSecurityCards(user: User) {
  const [passkeys, users] = await Promise.all([
    listPasskeys(user.id),
    can(user, "user.manage") ? listUsers(user) : Promise.resolve(null),
  ]);
  const timeZone = env().APP_TIME_ZONE;
  return {
    totpEnabled: user.totpEnabled,
    passkeys: passkeys.map(({ createdAt, lastUsedAt, ...passkey }) => ({
      ...passkey,
      addedOn: dayIn(timeZone, createdAt),
      lastUsedOn: lastUsedAt ? dayIn(timeZone, lastUsedAt) : null,
    })),
    users:
      users?.map(({ createdAt, lockedUntil, temporaryPasswordIssuedAt, ...row }) => ({
        ...row,
        addedOn: dayIn(timeZone, createdAt),
        lockedUntil: lockedUntil ? formatAuditTime(lockedUntil, timeZone) : null,
        temporaryPasswordIssuedAt: temporaryPasswordIssuedAt
          ? formatAuditTime(temporaryPasswordIssuedAt, timeZone)
          : null,
      })) ?? null,
  };
}

export type SecurityCardsData = Awaited<ReturnType<typeof loadSecurityCards>>;
/** A row of the User Management card. */
export type SecurityUserRow = NonNullable<SecurityCardsData["users"]>[number];

/**
 * The guard of a User Management dialog (reset, role, delete) and the user it acts on: the
 * admin's own account is not managed there (back to Settings), and an unknown or deleted user
 * is not found.
 */
export async function requireManagedUser(
  request: Request,
  id: string | undefined,
  capability: "user.manage" | "user.role",
) {
  const admin = await requireCapability(request, capability);
  if (id?.toLowerCase() === admin.id) throw redirect("/settings");
  const user = await getUserRow(admin, id ?? "");
  invariantResponse(user && user.status !== "deleted", "User not found");
  return user;
}

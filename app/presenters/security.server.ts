import type { User } from "~/db.server";
import { listUsers } from "~/models/admin-users.server";
import { listPasskeys } from "~/models/passkey.server";
import { can } from "~/rules/capabilities.server";

/** Data of the Password, Two-factor, Passkey and (admins only) User Management cards. */
export async function loadSecurityCards(user: User) {
  const [passkeys, users] = await Promise.all([
    listPasskeys(user.id),
    can(user, "user.manage") ? listUsers(user) : Promise.resolve(null),
  ]);
  return { totpEnabled: user.totpEnabled, passkeys, users };
}

export type SecurityCardsData = Awaited<ReturnType<typeof loadSecurityCards>>;

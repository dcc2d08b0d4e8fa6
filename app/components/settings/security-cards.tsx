import type { PublicUser } from "~/models/user.server";
import type { SecurityCardsData } from "~/models/security.server";

// Issue 6: Password, Two-factor, Passkeys and (admins) User Management cards.
export function SecurityCards(_props: { security: SecurityCardsData; profile: PublicUser }) {
  return null;
}

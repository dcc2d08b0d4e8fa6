import type { User } from "~/db.server";

// Issue 6 fills this in: password, two-factor, passkeys and (for admins) user management.
export async function loadSecurityCards(user: User) {
  return { totpEnabled: user.totpEnabled };
}

export type SecurityCardsData = Awaited<ReturnType<typeof loadSecurityCards>>;

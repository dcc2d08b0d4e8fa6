// An admin's reset shows the new temporary password on the page the POST redirects to, so that
// reloading that page (with or without JavaScript) never resets the password again
// (decision 0400). The password travels in a cookie that is encrypted (AES-256-GCM, so it is
// never readable in the browser's storage), signed, httpOnly, limited to that user's pages under
// /settings/users and to a few minutes, and cleared by the page that shows it: shown once.
import { createCookie } from "@remix-run/node";
import { openSecret, sealSecret } from "./secret-box.server";
import { secure } from "./cookies.server";
import { sessionSecrets } from "./env.server";

const TEMPORARY_PASSWORD_COOKIE_MAX_AGE_SECONDS = 5 * 60;

const cookie = () =>
  createCookie("__temporary-password", {
    httpOnly: true,
    sameSite: "strict",
    secure: secure(),
    secrets: sessionSecrets(),
    maxAge: TEMPORARY_PASSWORD_COOKIE_MAX_AGE_SECONDS,
  });

// Path /settings/users/<id> also covers the page's data request (.../temporary-password.data).
const pathOf = (userId: string) => `/settings/users/${userId}`;

type ShownPassword = { userId: string; email: string; temporaryPassword: string };

export async function temporaryPasswordCookie(shown: ShownPassword) {
  return cookie().serialize(sealSecret(JSON.stringify(shown)), { path: pathOf(shown.userId) });
}

/** The password kept for this user's page and the header that clears it, or null when already shown. */
export async function takeTemporaryPassword(
  request: Request,
  userId: string,
): Promise<{ shown: ShownPassword | null; clear: string }> {
  const clear = await cookie().serialize("", { path: pathOf(userId), maxAge: 0 });
  const sealed = await cookie().parse(request.headers.get("Cookie"));
  if (typeof sealed !== "string" || !sealed) return { shown: null, clear };
  try {
    const value = JSON.parse(openSecret(sealed)) as Partial<ShownPassword>;
    if (value.userId !== userId || typeof value.email !== "string" || typeof value.temporaryPassword !== "string")
      return { shown: null, clear };
    return { shown: { userId, email: value.email, temporaryPassword: value.temporaryPassword }, clear };
  } catch {
    // A cookie sealed with another key (rotated) or tampered with reads as already shown.
    return { shown: null, clear };
  }
}

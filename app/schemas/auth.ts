import * as z from "zod";
import { hasControlCharacters } from "~/utils/text";

// Shared by the HTML actions and the JSON calls; the browser gets only the constraints
// (computed on the server), never zod itself: every kilobyte counts on a yard connection.

// Each missing field says so under itself (docs/decisions/0011-form-errors.md); the spec's
// "Missing credentials" pair message stays the JSON call's answer.
export const EMAIL_MISSING = "Please enter your email";
export const PASSWORD_MISSING = "Please enter your password";

export const LoginSchema = z.object({
  email: z.string({ error: EMAIL_MISSING }).trim().min(1, EMAIL_MISSING),
  password: z.string({ error: PASSWORD_MISSING }).min(1, PASSWORD_MISSING),
  redirectTo: z.string().optional(),
});

// The spec's titles and texts (section 5), shown as one message under the field.
export const PASSWORD_TOO_SHORT = "Password too short: Password must be at least 8 characters";
export const PASSWORDS_DONT_MATCH = "Passwords don't match: make sure the new passwords match";

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
    newPassword: z.string({ error: "New password is required" }).min(8, PASSWORD_TOO_SHORT).max(200, "Password too long: use at most 72 bytes"),
    confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }),
  })
  // Length first, then match (spec section 5): zod runs this refinement even when the length
  // check failed, so a password that is too short is not also called a mismatch.
  .refine((v) => typeof v.newPassword !== "string" || v.newPassword.length < 8 || v.newPassword === v.confirmPassword, {
    message: PASSWORDS_DONT_MATCH,
    path: ["confirmPassword"],
  });

/**
 * Where a sign-in (or any form's redirectTo) may send the user afterwards: only a path on this
 * site. It starts with exactly one "/", and neither it nor its decoded form holds a backslash,
 * a control character (browsers drop tabs and newlines, so "/\t/evil" becomes "//evil") or "//".
 * Anything else goes to `fallback`.
 */
export function safeRedirect(to: unknown, fallback = "/") {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  const forms = [to];
  let current = to;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return fallback;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  for (const form of forms) {
    if (!form.startsWith("/") || form.includes("//") || form.includes("\\") || hasControlCharacters(form)) return fallback;
  }
  try {
    const base = "http://pks.invalid";
    if (new URL(to, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return to;
}

import * as z from "zod";

// Shared by the HTML actions and the JSON calls; the browser gets only the constraints
// (computed on the server), never zod itself: every kilobyte counts on a yard connection.

export const LoginSchema = z.object({
  email: z.string({ error: "Please enter both email and password" }).trim().min(1, "Please enter both email and password"),
  password: z.string({ error: "Please enter both email and password" }).min(1, "Please enter both email and password"),
  redirectTo: z.string().optional(),
});

export const PASSWORD_TOO_SHORT = "Password must be at least 8 characters";
export const PASSWORDS_DONT_MATCH = "Passwords don't match: make sure the new passwords match";

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
    newPassword: z.string({ error: PASSWORD_TOO_SHORT }).min(8, PASSWORD_TOO_SHORT).max(200, "Password is too long"),
    confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }),
  })
  // Length first, then match (spec section 5): the refinement runs only when lengths pass.
  .refine((v) => v.newPassword === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });

/** Where a sign-in may send the user afterwards: only paths on this site. */
export function safeRedirect(to: unknown, fallback = "/") {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

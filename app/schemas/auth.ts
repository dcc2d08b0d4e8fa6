import * as z from "zod";

// Shared by the HTML actions and the JSON calls; the browser gets only the constraints
// (computed on the server), never zod itself: every kilobyte counts on a yard connection.

// Each missing field says so under itself (docs/decisions/0011-form-errors.md); the spec's
// "Missing credentials" pair message stays the JSON call's answer.
const EMAIL_MISSING = "Please enter your email";
const PASSWORD_MISSING = "Please enter your password";

export const LoginSchema = z.object({
  email: z.string({ error: EMAIL_MISSING }).trim().min(1, EMAIL_MISSING),
  password: z.string({ error: PASSWORD_MISSING }).min(1, PASSWORD_MISSING),
  redirectTo: z.string().optional(),
});

// A new password's length (decision 0600): at least 8 characters (spec), at most 72 bytes of
// UTF-8, which is all bcrypt reads (the server counts bytes; the form caps characters at 200 so
// that a pasted novel is refused before it is hashed).
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_BYTES = 72;
const PASSWORD_MAX_CHARACTERS = 200;

// The spec's titles and texts (section 5), shown as one message under the field.
export const PASSWORD_TOO_SHORT = `Password too short: Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
const PASSWORDS_DONT_MATCH = "Passwords don't match: make sure the new passwords match";

export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required"),
    newPassword: z
      .string({ error: "New password is required" })
      .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
      .max(PASSWORD_MAX_CHARACTERS, `Password too long: use at most ${PASSWORD_MAX_BYTES} bytes`),
    confirmPassword: z.string({ error: PASSWORDS_DONT_MATCH }),
  })
  // Length first, then match (spec section 5): zod runs this refinement even when the length
  // check failed, so a password that is too short is not also called a mismatch.
  .refine(
    (v) =>
      typeof v.newPassword !== "string" ||
      v.newPassword.length < PASSWORD_MIN_LENGTH ||
      v.newPassword === v.confirmPassword,
    {
      message: PASSWORDS_DONT_MATCH,
      path: ["confirmPassword"],
    },
  );

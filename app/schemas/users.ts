import * as z from "zod";
import { textRefusal } from "~/utils/text";

// Shared by the HTML actions and the JSON calls of user management and two-factor sign-in.

export const MISSING_FIELDS = "Missing required fields: Email and role are required";

export const CreateUserSchema = z.object({
  email: z
    .string({ error: MISSING_FIELDS })
    .trim()
    .min(1, MISSING_FIELDS)
    .max(254, "Email is too long")
    .pipe(z.email("Please enter a valid email address")),
  role: z.enum(["staff", "manager"], { error: "Role must be Staff or Manager" }),
  firstName: z
    .string()
    .trim()
    .max(100, "First name is too long")
    .superRefine((v, ctx) => {
      const refusal = textRefusal("First name", v);
      if (refusal) ctx.addIssue({ code: "custom", message: refusal });
    })
    .transform((v) => v.normalize("NFC"))
    .optional(),
  lastName: z
    .string()
    .trim()
    .max(100, "Last name is too long")
    .superRefine((v, ctx) => {
      const refusal = textRefusal("Last name", v);
      if (refusal) ctx.addIssue({ code: "custom", message: refusal });
    })
    .transform((v) => v.normalize("NFC"))
    .optional(),
});

export const TOTP_CODE_MESSAGE = "Please enter the 6-digit code from your authenticator app";

export const ROLE_LABELS = { staff: "Staff", manager: "Manager", admin: "Admin" } as const;

/** Change Role (decision 0400): the new role, and the password when the sign-in is not recent. */
export const ChangeRoleSchema = z.object({
  role: z.enum(["staff", "manager", "admin"], { error: "Role must be Staff, Manager or Admin" }),
  password: z.string().optional(),
});

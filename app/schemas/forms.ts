// The schemas of the small forms whose rules live in a model (sign-in codes, passwords to
// confirm, the invoice to generate): they name the form's fields for Conform; the model has the
// last word on the values and the action answers with its refusal.
import * as z from "zod";
import { checked, constraintOf, formSchema, optionalId, optionalText, type FormConstraint } from "./fields";
import { TOTP_CODE_MESSAGE } from "./users";

const anything = z.unknown().optional();

/** Generate Invoice: the chosen delivery (everything else is recomputed from the database). */
export const GenerateInvoiceFormSchema = formSchema(
  z.object({ deliveryId: optionalId("Delivery"), idempotencyKey: optionalText("Request key", 200) }),
);

/** A confirmation that asks for the current password (delete a passkey, turn off two-factor). */
const passwordConfirm = z.object({ password: checked(z.unknown().optional(), { required: true }) });
export const PasswordConfirmFormSchema = formSchema(passwordConfirm);
export const PASSWORD_CONFIRM_FORM_CONSTRAINT: FormConstraint = constraintOf(passwordConfirm);

/** Two-factor set-up: the password (when asked) and the first code. */
export const TwoFactorSetupFormSchema = formSchema(z.object({ password: anything, token: anything, intent: anything }));

/** The sign-in code: six digits (spaces and dashes are ignored). */
export const TotpCodeFormSchema = formSchema(
  z.object({
    token: z.unknown().transform((value, ctx) => {
      const digits = String(value ?? "").replace(/\D/g, "");
      if (digits.length !== 6) {
        ctx.addIssue({ code: "custom", message: TOTP_CODE_MESSAGE });
        return z.NEVER;
      }
      return digits;
    }),
    redirectTo: anything,
  }),
);

/** The sign-in step with a recovery code instead of an authenticator code (the model checks it). */
export const RecoveryCodeFormSchema = formSchema(
  z.object({
    recoveryCode: z.unknown().transform((value, ctx) => {
      const code = String(value ?? "").trim();
      if (!code) {
        ctx.addIssue({ code: "custom", message: "Please enter a recovery code" });
        return z.NEVER;
      }
      return code;
    }),
    redirectTo: anything,
  }),
);

/** Add Passkey: the device's name and the browser's credential (the ceremony needs JavaScript). */
export const PasskeyRegisterFormSchema = formSchema(
  z.object({ deviceName: anything, credential: anything, password: anything }),
);

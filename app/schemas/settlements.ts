// The Record Payout form (docs/decisions/0980): one schema for the HTML form and the
// JSON call; the model parses with the same fields and has the last word (owed, month close).
import * as z from "zod";
import { PAYOUT_KIND_LABELS, PAYOUT_METHOD_LABELS, type PayoutKind, type PayoutMethod } from "~/utils/payout-methods";
import { reasonField } from "./corrections";
import { calendarDate, constraintOf, formSchema, optionalText, requiredDecimal, type FormConstraint } from "./fields";

export { PAYOUT_KIND_LABELS, PAYOUT_METHOD_LABELS, type PayoutKind, type PayoutMethod };
const METHODS = Object.keys(PAYOUT_METHOD_LABELS) as [PayoutMethod, ...PayoutMethod[]];

const PAYOUT_METHOD_MESSAGE = "Please choose how the agent was paid";
const PAYOUT_KIND_MESSAGE = 'Kind must be "settlement" or "advance"';

const PAYOUT_NOTE_MAX = 500;

export const PayoutSchema = z.object({
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  payoutDate: calendarDate("Payout date", { required: false }),
  method: z.unknown().transform((value, ctx): PayoutMethod => {
    const method = typeof value === "string" ? value.trim() : "";
    if ((METHODS as string[]).includes(method)) return method as PayoutMethod;
    ctx.addIssue({ code: "custom", message: PAYOUT_METHOD_MESSAGE });
    return z.NEVER;
  }),
  reference: optionalText("Reference", 200),
  note: optionalText("Note", PAYOUT_NOTE_MAX, { multiline: true }),
  // Absent or empty: a settlement, as before advances existed.
  kind: z.unknown().transform((value, ctx): PayoutKind => {
    if (value === undefined || value === null || value === "") return "settlement";
    if (value === "settlement" || value === "advance") return value;
    ctx.addIssue({ code: "custom", message: PAYOUT_KIND_MESSAGE });
    return z.NEVER;
  }),
});

export const PayoutFormSchema = formSchema(PayoutSchema.extend({ idempotencyKey: optionalText("Request key", 200) }));

/** What the browser checks of Record Payout, read from the write's schema; the form asks for the date and the method. */
export const payoutFormConstraint: FormConstraint = /* @__PURE__ */ constraintOf(PayoutSchema, {
  payoutDate: { required: true },
  method: { required: true },
});

/** Reverse Payout (a payout recorded in error): why, kept with the reversal. */
export const PayoutReversalSchema = z.object({ reason: reasonField() });

export const PayoutReversalFormSchema = formSchema(
  PayoutReversalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

export const payoutReversalFormConstraint: FormConstraint = /* @__PURE__ */ constraintOf(PayoutReversalSchema);

/** Approve a payout awaiting approval: a reason is optional (docs/decisions/1250). */
export const PayoutApprovalSchema = z.object({ reason: optionalText("Reason", PAYOUT_NOTE_MAX, { multiline: true }) });
/** Reject a payout awaiting approval: why, kept with the decision. */
export const PayoutRejectionSchema = z.object({ reason: reasonField() });

export const PayoutApprovalFormSchema = formSchema(
  PayoutApprovalSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);
export const PayoutRejectionFormSchema = formSchema(
  PayoutRejectionSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);
export const payoutApprovalFormConstraint: FormConstraint = /* @__PURE__ */ constraintOf(PayoutApprovalSchema);
export const payoutRejectionFormConstraint: FormConstraint = /* @__PURE__ */ constraintOf(PayoutRejectionSchema);

import * as z from "zod";
import { taxRate } from "./directory";
import { optionalDecimal, optionalText, requiredDecimal } from "./fields";
import { parseLevels } from "~/rules/reminders";

/**
 * The reminder levels (docs/decisions/1260): days from the due date, typed "-3, 0, 7, 14, 30" on
 * the form or sent as a list of whole numbers; kept sorted, each once. Blank or absent: unchanged.
 */
export const reminderLevelsField = z.unknown().transform((value, ctx): number[] | undefined => {
  if (value === undefined || value === null || value === "") return undefined;
  const text = Array.isArray(value) ? value.map((v) => (typeof v === "number" ? String(v) : "x")).join(",") : value;
  if (typeof text !== "string") {
    ctx.addIssue({ code: "custom", message: "Reminder levels must be a list of days" });
    return z.NEVER;
  }
  const parsed = parseLevels(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: `Reminder levels: ${parsed.message}` });
    return z.NEVER;
  }
  return parsed.levels;
});

/**
 * The Default Rates form: every rate is required there (an empty box is a mistake, not "leave
 * it"); the JSON call (PATCH /api/settings) still takes only the fields it is given.
 */
export const RatesFormSchema = z.object({
  buyingRate: requiredDecimal({ label: "Buying rate", precision: 12 }),
  sellingRate: requiredDecimal({ label: "Selling rate", precision: 12 }),
  taxRate: z.unknown().transform((value, ctx) => {
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      ctx.addIssue({ code: "custom", message: "Tax rate is required" });
      return z.NEVER;
    }
    const parsed = taxRate.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  }),
  offloadingCost: requiredDecimal({ label: "Offloading cost", precision: 12 }),
  deliveryClientName: optionalText("Delivery client name", 200).optional(),
  // Empty: no payout needs a second admin (docs/decisions/1250).
  payoutApprovalLimit: optionalDecimal({ label: "Payout approval limit", precision: 12 }).optional(),
  reminderLevels: reminderLevelsField.optional(),
});

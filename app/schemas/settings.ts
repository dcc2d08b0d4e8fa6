import * as z from "zod";
import { taxRate } from "./directory";
import { optionalDecimal, optionalText, requiredDecimal } from "./fields";

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
});

// Month close and reopen (docs/decisions/0901): the forms on System Settings and the JSON calls
// share these rules.
import * as z from "zod";
import { isValidDate } from "~/utils/dates";

// One message per mistake: missing, or not a real month written yyyy-MM.
const month = z.unknown().transform((value, ctx) => {
  const text = typeof value === "string" ? value.trim() : "";
  if (!text) {
    ctx.addIssue({ code: "custom", message: "Month is required" });
    return z.NEVER;
  }
  if (!/^\d{4}-\d{2}$/.test(text) || !isValidDate(`${text}-01`)) {
    ctx.addIssue({ code: "custom", message: "Month must be a real month written yyyy-MM, e.g. 2026-03" });
    return z.NEVER;
  }
  return text;
});

const REOPEN_REASON_REQUIRED = "A reason is required to reopen a month";

export const CloseMonthSchema = z.object({ month });
export const ReopenMonthSchema = z.object({
  month,
  reason: z
    .unknown()
    .transform((v) => (typeof v === "string" ? v.trim() : ""))
    .pipe(z.string().min(1, REOPEN_REASON_REQUIRED).max(500, "The reason must be at most 500 characters")),
});

/** The two forms of the Month Close card, told apart by `intent`. */
export const PeriodFormSchema = z.discriminatedUnion("intent", [
  CloseMonthSchema.extend({ intent: z.literal("close") }),
  ReopenMonthSchema.extend({ intent: z.literal("reopen") }),
]);

// Month close and reopen (docs/decisions/0901): the forms on System Settings and the JSON calls
// share these rules.
import * as z from "zod";
import { isValidDate } from "~/utils/dates";
import { checked, constraintOf } from "./fields";

// One message per mistake: missing, or not a real month written yyyy-MM.
const month = checked(
  z.unknown().transform((value, ctx) => {
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
  }),
  { required: true },
);

const REOPEN_REASON_REQUIRED = "A reason is required to reopen a month";

export const CloseMonthSchema = z.object({ month });
export const ReopenMonthSchema = z.object({
  month,
  reason: checked(
    z
      .unknown()
      .transform((v) => (typeof v === "string" ? v.trim() : ""))
      .pipe(z.string().min(1, REOPEN_REASON_REQUIRED).max(500, "The reason must be at most 500 characters")),
    { required: true, maxLength: 500 },
  ),
});

/**
 * What the browser checks on the Month Close card, read from the schemas. The settings loader
 * sends them, so System Settings' browser code loads no date parsing of its own (the chunks it
 * shares with New Delivery stay as they are, tests/e2e/budget.spec.ts).
 */
export const PERIOD_FORM_CONSTRAINTS = {
  close: constraintOf(CloseMonthSchema),
  reopen: constraintOf(ReopenMonthSchema),
};

/** The two forms of the Month Close card, told apart by `intent`. */
export const PeriodFormSchema = z.discriminatedUnion("intent", [
  CloseMonthSchema.extend({ intent: z.literal("close") }),
  ReopenMonthSchema.extend({ intent: z.literal("reopen") }),
]);

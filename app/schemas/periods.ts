// Month close and reopen (docs/decisions/0901): the forms on System Settings and the JSON calls
// share these rules.
import * as z from "zod";
import { isValidDate } from "~/utils/dates";
import type { FormConstraint } from "./fields";

const month = z
  .unknown()
  .transform((v) => (typeof v === "string" ? v.trim() : ""))
  .pipe(
    z
      .string()
      .min(1, "Month is required")
      .regex(/^\d{4}-\d{2}$/, "Month must be written yyyy-MM, e.g. 2026-03")
      .refine((v) => isValidDate(`${v}-01`), "Month must be a real month, e.g. 2026-03"),
  );

export const REOPEN_REASON_REQUIRED = "A reason is required to reopen a month";

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

export const CLOSE_MONTH_CONSTRAINT: FormConstraint = { month: { required: true, pattern: "\\d{4}-\\d{2}" } };
export const REOPEN_MONTH_CONSTRAINT: FormConstraint = {
  month: { required: true, pattern: "\\d{4}-\\d{2}" },
  reason: { required: true, maxLength: 500 },
};

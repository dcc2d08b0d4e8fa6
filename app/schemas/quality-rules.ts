// A client's quality rule (docs/decisions/1210): the Add Rule dialog and
// POST /api/clients/{id}/quality-rules parse with the same schema.
import * as z from "zod";
import { addDays } from "~/utils/dates";
import { compare } from "~/utils/money";
import { EARLIEST_BUSINESS_DATE, tooEarlyRefusal } from "~/utils/business-dates";
import { calendarDate, checked, constraintOf, formSchema, requiredDecimal, type FormConstraint } from "./fields";

/** A rule may start at most this many days after today: announced ahead, never set for a far year. */
export const QUALITY_RULE_DAYS_AHEAD = 366;

/** A percent with at most two decimals, up to 100; `positive`: more than 0. */
function percentField(label: string, { positive }: { positive: boolean }) {
  // Wide precision, so "1000" reads as out of range rather than "too large".
  const field = requiredDecimal({ label, precision: 12, positive }).transform((value, ctx) => {
    if (compare(value, "100") > 0) {
      ctx.addIssue({ code: "custom", message: `${label} must be ${positive ? "at most" : "between 0 and"} 100` });
      return z.NEVER;
    }
    return value;
  });
  return checked(field, { required: true, min: positive ? "0.01" : 0, max: 100, step: "0.01" });
}

const validFrom = checked(
  calendarDate("Valid from", { required: true }).transform((date, ctx) => {
    const early = date ? tooEarlyRefusal("Valid from", date) : null;
    if (early) {
      ctx.addIssue({ code: "custom", message: early });
      return z.NEVER;
    }
    return date!;
  }),
  { required: true, min: EARLIEST_BUSINESS_DATE },
);

export const QualityRuleSchema = z.object({
  validFrom,
  moistureThreshold: percentField("Moisture threshold", { positive: false }),
  deductionPerPoint: percentField("Deduction per point", { positive: true }),
});

export type QualityRuleInput = z.infer<typeof QualityRuleSchema>;

/** The Add Rule dialog's schema: every field present, as the write reads it. */
export const QualityRuleFormSchema = formSchema(QualityRuleSchema);

/** The dialog's browser checks, with the latest day a rule may start (known only to the page). */
export const qualityRuleFormConstraint = (today: string): FormConstraint =>
  constraintOf(QualityRuleSchema, { validFrom: { max: addDays(today, QUALITY_RULE_DAYS_AHEAD) } });

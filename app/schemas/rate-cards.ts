// A rate card (docs/decisions/1230): the Rates page's Add Card dialog and POST /api/rate-cards
// parse with the same schema.
import * as z from "zod";
import { RATE_CARD_KINDS } from "~/utils/rate-kinds";
import { EARLIEST_BUSINESS_DATE, tooEarlyRefusal } from "~/utils/business-dates";
import { calendarDate, checked, constraintOf, formSchema, optionalId, optionalText, requiredDecimal } from "./fields";

export { RATE_CARD_KINDS, RATE_KIND_LABELS } from "~/utils/rate-kinds";

/** A card may start at most this many days after today: announced ahead, never set for a far year. */
export const RATE_CARD_DAYS_AHEAD = 366;

export const SITE_MAX = 200;

const kind = checked(
  z.unknown().transform((value, ctx) => {
    if (typeof value !== "string" || !(RATE_CARD_KINDS as readonly string[]).includes(value.trim())) {
      ctx.addIssue({ code: "custom", message: "Kind must be buying, selling, offloading or haulage" });
      return z.NEVER;
    }
    return value.trim() as (typeof RATE_CARD_KINDS)[number];
  }),
  { required: true },
);

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

export const RateCardSchema = z.object({
  kind,
  // Naira, at most two decimals, 0 or more (a free haulage or offloading is 0).
  rate: checked(requiredDecimal({ label: "Rate", precision: 12 }), { required: true, min: 0, step: "0.01" }),
  validFrom,
  clientId: optionalId("Client"),
  agentId: optionalId("Agent"),
  site: optionalText("Pick-up site", SITE_MAX),
});

export type RateCardInput = z.infer<typeof RateCardSchema>;

/** The Add Card dialog's schema: every field present, as the write reads it. */
export const RateCardFormSchema = formSchema(RateCardSchema);

export const rateCardFormConstraint = () => constraintOf(RateCardSchema);

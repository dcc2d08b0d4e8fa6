// The truck register's fields (docs/decisions/1200), one schema for the Add/Edit Truck forms and
// the JSON calls; New Delivery's Truck No. reads its plate with `plateField` too.
import * as z from "zod";
import { PLATE_MAX, plateRefusal, readPlate } from "~/rules/plates";
import { textRefusal } from "~/utils/text";
import { checked, constraintOf, formSchema, optionalText } from "./fields";

export const TRANSPORTER_MAX = 200;
export const TRUCK_PHONE_MAX = 100;
export const TARE_MIN_KG = 1;
export const TARE_MAX_KG = 200_000;

/** What the browser can check of a plate: its characters and length (the server has the last word). */
const PLATE_PATTERN = "[A-Za-z0-9 \\-]*[A-Za-z0-9][A-Za-z0-9 \\-]*";

/**
 * A plate as typed, read as its shown form ("lag  123-xy" → "LAG 123-XY"); anything else is a
 * 400 naming the field. Optional: blank is none (undefined), JSON null is none too.
 */
export function plateField<R extends boolean>(label: string, { required }: { required: R }) {
  const field = z.unknown().transform((value, ctx): R extends true ? string : string | null | undefined => {
    type Out = R extends true ? string : string | null | undefined;
    if (value === null && !required) return null as Out;
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      if (!required) return undefined as Out;
      ctx.addIssue({ code: "custom", message: `${label} is required` });
      return z.NEVER;
    }
    // Invisible and control characters get the house message (decision 0706), not the plate's.
    const refusal = typeof value === "string" ? textRefusal(label, value) : null;
    if (refusal) {
      ctx.addIssue({ code: "custom", message: refusal });
      return z.NEVER;
    }
    const read = typeof value === "string" ? readPlate(value) : null;
    if (!read) {
      ctx.addIssue({ code: "custom", message: plateRefusal(label) });
      return z.NEVER;
    }
    return read.plate as Out;
  });
  return checked(field, {
    ...(required ? { required: true } : {}),
    // A little room for the spaces the server trims and collapses; it counts the plate after.
    maxLength: PLATE_MAX + 10,
    pattern: PLATE_PATTERN,
  });
}

/**
 * A value given (not blank) read as whole kilograms from `min` to `max`; a form may type
 * thousands separators ("12,500"). Anything else is an issue naming the field.
 */
export function wholeKgFrom(value: unknown, label: string, min: number, max: number, ctx: z.RefinementCtx) {
  const text =
    typeof value === "number"
      ? Number.isFinite(value)
        ? String(value)
        : ""
      : typeof value === "string"
        ? value.trim().replace(/,(?=\d{3}(\D|$))/g, "")
        : "";
  if (!/^\d{1,7}$/.test(text)) {
    ctx.addIssue({ code: "custom", message: `${label} must be a whole number of kilograms` });
    return z.NEVER;
  }
  const n = Number(text);
  if (n < min || n > max) {
    ctx.addIssue({ code: "custom", message: `${label} must be between ${min} and ${max.toLocaleString("en-US")} kg` });
    return z.NEVER;
  }
  return n;
}

/**
 * Whole kilograms, 1 to 200,000, optional: blank is none (undefined), JSON null clears (null).
 * A form may type thousands separators ("12,500"); a number that is not whole is refused.
 */
export function optionalKg(label: string) {
  const kg = z.unknown().transform((value, ctx): number | null | undefined => {
    if (value === null) return null;
    if (value === undefined || (typeof value === "string" && value.trim() === "")) return undefined;
    return wholeKgFrom(value, label, TARE_MIN_KG, TARE_MAX_KG, ctx);
  });
  return checked(kg, { min: TARE_MIN_KG, max: TARE_MAX_KG, step: 1 });
}

export const TruckSchema = z.object({
  plate: plateField("Plate", { required: true }),
  transporter: optionalText("Transporter", TRANSPORTER_MAX),
  phone: optionalText("Phone", TRUCK_PHONE_MAX),
  usualTareKg: optionalKg("Usual tare"),
});
export type TruckInput = z.infer<typeof TruckSchema>;

/** The Add/Edit Truck form (the same rules as the JSON calls). */
export const TruckFormSchema = formSchema(TruckSchema);
export const TRUCK_FORM_CONSTRAINT = constraintOf(TruckSchema);

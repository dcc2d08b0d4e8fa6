// Field parsers shared by the HTML forms and the JSON calls. Money and tons stay decimal
// strings: a JSON number is read through its own string form and must still have at most two
// decimals (0.1 + 0.2 arrives as "0.30000000000000004" and is refused, not rounded).
import * as z from "zod";
import { isValidDate } from "~/utils/dates";
import { textRefusal } from "~/utils/text";
import { parseDecimalInput } from "~/utils/money";
import { parseId } from "~/utils/params";
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";

/**
 * What the browser can check of a field (`required`, `maxLength`, `min`...), kept beside its
 * parser when the field is made: `constraintOf` reads a form's constraints from its schema, so
 * they are never written a second time by hand (decision 0820).
 */
const browserRules = new WeakMap<z.ZodType, FieldConstraint>();
export function checked<T extends z.ZodType>(field: T, rules: FieldConstraint): T {
  browserRules.set(field, rules);
  return field;
}

type DecimalOptions = { label: string; precision: number; places?: number; positive?: boolean; max?: string };

function decimalFrom(value: unknown, options: DecimalOptions, ctx: z.RefinementCtx) {
  const raw = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "x") : String(value);
  const parsed = parseDecimalInput(raw, {
    places: options.places ?? 2,
    precision: options.precision,
    label: options.label,
  });
  if (!parsed.ok) {
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  }
  if (options.positive && /^0*(\.0*)?$/.test(parsed.value)) {
    ctx.addIssue({ code: "custom", message: `${options.label} must be greater than 0` });
    return z.NEVER;
  }
  return parsed.value;
}

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** A required decimal ("1,234.50", "65000", 65000.5). */
export function requiredDecimal(options: DecimalOptions) {
  return checked(
    z.unknown().transform((value, ctx) => {
      if (isBlank(value)) {
        ctx.addIssue({ code: "custom", message: `${options.label} is required` });
        return z.NEVER;
      }
      if (typeof value !== "string" && typeof value !== "number") {
        ctx.addIssue({ code: "custom", message: `${options.label} must be a number` });
        return z.NEVER;
      }
      return decimalFrom(value, options, ctx);
    }),
    { required: true },
  );
}

/** An optional decimal: blank means "not given" (undefined); JSON null means "clear" (null). */
export function optionalDecimal(options: DecimalOptions) {
  return checked(
    z.unknown().transform((value, ctx): string | null | undefined => {
      if (value === null) return null;
      if (isBlank(value)) return undefined;
      if (typeof value !== "string" && typeof value !== "number") {
        ctx.addIssue({ code: "custom", message: `${options.label} must be a number` });
        return z.NEVER;
      }
      return decimalFrom(value, options, ctx);
    }),
    {},
  );
}

/** Text options: `multiline` fields (remarks) may hold line breaks and tabs; others none. */
type TextOptions = { multiline?: boolean };

export function requiredText(label: string, max: number, { multiline = false }: TextOptions = {}) {
  return checked(
    z.unknown().transform((value, ctx) => {
      if (typeof value !== "string" || !value.trim()) {
        ctx.addIssue({ code: "custom", message: `${label} is required` });
        return z.NEVER;
      }
      const refusal = textRefusal(label, value, { multiline });
      if (refusal) {
        ctx.addIssue({ code: "custom", message: refusal });
        return z.NEVER;
      }
      // Stored composed (NFC): "é" typed as e + accent matches, sorts and prints as the one letter.
      const text = value.normalize("NFC").trim();
      if (text.length > max) {
        ctx.addIssue({ code: "custom", message: `${label} must be at most ${max} characters` });
        return z.NEVER;
      }
      return text;
    }),
    { required: true, maxLength: max },
  );
}

export function optionalText(label: string, max: number, { multiline = false }: TextOptions = {}) {
  return checked(
    z.unknown().transform((value, ctx): string | null | undefined => {
      if (value === null) return null;
      if (value === undefined) return undefined;
      if (typeof value !== "string") {
        ctx.addIssue({ code: "custom", message: `${label} must be text` });
        return z.NEVER;
      }
      const refusal = textRefusal(label, value, { multiline });
      if (refusal) {
        ctx.addIssue({ code: "custom", message: refusal });
        return z.NEVER;
      }
      const trimmed = value.normalize("NFC").trim();
      if (trimmed.length > max) {
        ctx.addIssue({ code: "custom", message: `${label} must be at most ${max} characters` });
        return z.NEVER;
      }
      return trimmed === "" ? undefined : trimmed;
    }),
    { maxLength: max },
  );
}

export function requiredId(label: string) {
  return checked(
    z.unknown().transform((value, ctx) => {
      const s = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
      if (!s) {
        ctx.addIssue({ code: "custom", message: `${label} is required` });
        return z.NEVER;
      }
      const id = parseId(s);
      if (id === null) {
        ctx.addIssue({ code: "custom", message: `${label} is not valid` });
        return z.NEVER;
      }
      return id;
    }),
    { required: true },
  );
}

export function optionalId(label: string) {
  return checked(
    z.unknown().transform((value, ctx): number | null | undefined => {
      if (value === null) return null;
      if (isBlank(value)) return undefined;
      const id = parseId(value);
      if (id === null) {
        ctx.addIssue({ code: "custom", message: `${label} is not valid` });
        return z.NEVER;
      }
      return id;
    }),
    {},
  );
}

export function calendarDate(label: string, { required }: { required: boolean }) {
  return checked(
    z.unknown().transform((value, ctx): string | undefined => {
      if (isBlank(value)) {
        if (required) ctx.addIssue({ code: "custom", message: `${label} is required` });
        return required ? z.NEVER : undefined;
      }
      // Exactly yyyy-MM-dd and a real calendar day: "2025-02-28T99:00" and "2025-02-30" are refused.
      if (typeof value !== "string" || !isValidDate(value.trim())) {
        ctx.addIssue({ code: "custom", message: `${label} must be a real date (yyyy-mm-dd)` });
        return z.NEVER;
      }
      return value.trim();
    }),
    { required, min: EARLIEST_BUSINESS_DATE },
  );
}

/** zod issues as field errors: one helper for the app, in ~/utils/field-errors. */
export { fieldErrorsOf } from "~/utils/field-errors";

/**
 * Parses with every key of the schema present: a missing field reads as blank, so it gets the
 * field's own message ("Tons is required") rather than zod's generic one.
 */
export function safeParseFields<T extends z.ZodObject>(schema: T, input: Record<string, unknown>) {
  const complete: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) complete[key] = key in input ? input[key] : "";
  return schema.safeParse(complete);
}

/** What the browser checks of one field (Conform's constraint of a field). */
type FieldConstraint = {
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  pattern?: string;
};

/**
 * The browser's constraints of one form, keyed by field name (Conform's `Constraint`). The
 * loader sends them, so the page gets `required`, `maxLength`, `min`... without zod's weight.
 */
export type FormConstraint = Record<string, FieldConstraint>;

/**
 * A form's constraints read from the schema its write parses with (`getZodConstraint` cannot
 * see into the transforms these fields are). `extra` adds what only the page knows: today's
 * date as a date's `max`, or a field the form requires although the write has a default for it.
 * Fields with nothing to check are left out, and so are those named in `omit`.
 */
export function constraintOf(
  schema: z.ZodObject,
  extra: Record<string, FieldConstraint> = {},
  omit: readonly string[] = ["idempotencyKey"],
): FormConstraint {
  const out: FormConstraint = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (omit.includes(key)) continue;
    const rules = { ...browserRules.get(field as z.ZodType), ...extra[key] };
    if (Object.keys(rules).length) out[key] = rules;
  }
  return out;
}

/**
 * A form's schema: `schema` with every one of its keys present, as `safeParseFields` does for
 * the models, so a field the form does not show (a manager's Edit Delivery has no tons) reads
 * as blank instead of failing as "expected nonoptional".
 */
export function formSchema<T extends z.ZodObject>(schema: T) {
  return z.preprocess((input) => {
    const given = (input && typeof input === "object" ? input : {}) as Record<string, unknown>;
    const complete: Record<string, unknown> = { ...given };
    for (const key of Object.keys(schema.shape)) if (!(key in complete)) complete[key] = "";
    return complete;
  }, schema);
}

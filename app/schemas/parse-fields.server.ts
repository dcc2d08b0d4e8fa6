// A model's input read through its schema: the data, or the 400 Failure that names each field's
// problem (decision 0800). Every write that takes a form or a JSON body starts here.
import type * as z from "zod";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, type Failure } from "~/utils/result";
import { safeParseFields } from "./fields";

export function parseFields<T extends z.ZodObject>(
  schema: T,
  input: Record<string, unknown>,
): { ok: true; data: z.output<T> } | Failure<400> {
  const parsed = safeParseFields(schema, input);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors = fieldErrorsOf(parsed.error);
  return fail(400, errors.message, errors.fieldErrors);
}

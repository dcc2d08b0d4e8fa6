// The one way a model's Failure becomes a response (decision 0800): JSON `{ message, errors? }`
// for /api, and the action data `{ message, fieldErrors, ...extra }` the HTML forms read.
import { data } from "@remix-run/node";
import { jsonError } from "./auth.server";
import type { Failure } from "./result";

/** `/api`: the failure's status with `{ message }`, plus `errors` (field -> messages) when there are any. */
export function failureJson(failure: Failure, extra?: Record<string, unknown>) {
  return jsonError(failure.status, failure.message, {
    ...(failure.fieldErrors ? { errors: failure.fieldErrors } : {}),
    ...extra,
  });
}

/** An HTML action: the failure's status with the form's message, its field errors ({} when none) and `extra` (the values typed). */
export function failureData<E extends Record<string, unknown>>(
  failure: Failure,
  extra?: E,
  { prefix = "" }: { prefix?: string } = {},
) {
  return data(
    { message: `${prefix}${failure.message}`, fieldErrors: failure.fieldErrors ?? {}, ...(extra as E) },
    { status: failure.status },
  );
}

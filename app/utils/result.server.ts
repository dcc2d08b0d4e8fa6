// The one way a model's Failure becomes a response (decision 0800): JSON `{ message, errors? }`
// for /api, and the action data `{ message, fieldErrors, ...extra }` the HTML forms read.
import { data } from "@remix-run/node";
import { jsonError } from "./auth.server";
import type { Failure } from "./result";

/** `/api`: the failure's status with `{ message }`, plus `errors` (field -> messages) when there are any. */
export function failureJson(
  failure: Pick<Failure, "status" | "message" | "fieldErrors" | "retryAfterSeconds">,
  extra?: Record<string, unknown>,
) {
  const response = jsonError(failure.status, failure.message, {
    ...(failure.fieldErrors ? { errors: failure.fieldErrors } : {}),
    ...extra,
  });
  const retryAfter = retryAfterHeader(failure);
  if (retryAfter) response.headers.set("Retry-After", retryAfter["Retry-After"]);
  return response;
}

/** `Retry-After` for a failure that says when to try again (a throttled password), else nothing. */
export function retryAfterHeader(failure: Pick<Failure, "retryAfterSeconds">) {
  const seconds = failure.retryAfterSeconds;
  return seconds && seconds > 0 ? { "Retry-After": String(Math.ceil(seconds)) } : undefined;
}

/** An HTML action: the failure's status with the form's message, its field errors ({} when none) and `extra` (the values typed). */
export function failureData<E extends Record<string, unknown>>(
  failure: Failure,
  extra?: E,
  { prefix = "" }: { prefix?: string } = {},
) {
  return data(
    { message: `${prefix}${failure.message}`, fieldErrors: failure.fieldErrors ?? {}, ...(extra as E) },
    { status: failure.status, headers: retryAfterHeader(failure) },
  );
}

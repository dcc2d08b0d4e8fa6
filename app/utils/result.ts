// The one result type of the models (decision 0800). A model entry point answers
// `{ ok: true, ...what it made }` or a Failure: the HTTP status the caller should answer, a
// message a person can read, and (for forms) messages per field. Routes turn a Failure into a
// response with `failureJson` / `failureData` (result.server.ts) or `replyOptions` (Conform).
export type FieldErrors = Record<string, string[]>;

type FailureStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

export type Failure<S extends FailureStatus = FailureStatus> = {
  ok: false;
  status: S;
  message: string;
  fieldErrors?: FieldErrors;
  /** With a 429 (or 503): seconds until a try can succeed, sent as `Retry-After`. */
  retryAfterSeconds?: number;
};

/** Success carrying `T`'s fields, or a Failure. */
export type Result<T extends object = object, S extends FailureStatus = FailureStatus> =
  ({ ok: true } & T) | Failure<S>;

export function fail<S extends FailureStatus>(status: S, message: string, fieldErrors?: FieldErrors): Failure<S> {
  return fieldErrors ? { ok: false, status, message, fieldErrors } : { ok: false, status, message };
}

/**
 * Thrown inside a transaction to roll it back and answer `failure`: the model's `catch` turns it
 * back into the Failure it returns (a refused write leaves nothing behind, its audit event included).
 */
export class Refusal extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/** A failure said under one field as well as at the top of the form. */
export const failOn = <S extends FailureStatus>(status: S, field: string, message: string): Failure<S> =>
  fail(status, message, { [field]: [message] });

/** A Failure as Conform's `submission.reply({...})` options: the message on the form, field errors under their fields. */
export function replyOptions(failure: Failure, prefix = "") {
  return { formErrors: [`${prefix}${failure.message}`], fieldErrors: failure.fieldErrors };
}

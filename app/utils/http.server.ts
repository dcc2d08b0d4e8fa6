import { isApiRequest, jsonError } from "./auth.server";

/** Throws a 404 (or other status) unless the condition holds. */
export function invariantResponse(condition: unknown, message = "Not found", status = 404): asserts condition {
  if (!condition) throw new Response(message, { status });
}

export const isJsonContentType = (value: string | null) =>
  !!value && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(value.trim());

/**
 * Reads a JSON object body, or throws a 400 that says why. A body sent as anything but
 * application/json answers 415 (a cross-site form can send text/plain without a preflight);
 * calls without a body (logout, reset password, passkey options) read as {}.
 */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (!text.trim()) return {};
  if (!isJsonContentType(request.headers.get("Content-Type"))) {
    throw jsonError(415, "The request body must be sent as application/json");
  }
  try {
    const value = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw jsonError(400, "The request body must be a JSON object");
}

const FORM_TYPE = /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i;

export const FORM_TYPE_MESSAGE = "This form must be posted as application/x-www-form-urlencoded or multipart/form-data";
export const UNREADABLE_FORM_MESSAGE = "The form could not be read. Please open the page again and resubmit it.";

/**
 * The refusal of a body that is not a readable form: JSON under /api, the error view's 4xx
 * text on pages (which shows it). Nothing has been written when it is thrown.
 */
export function unreadableForm(request: Request, status: 400 | 415) {
  const message = status === 415 ? FORM_TYPE_MESSAGE : UNREADABLE_FORM_MESSAGE;
  if (isApiRequest(request)) return jsonError(status, message);
  return new Response(message, { status, statusText: status === 415 ? "Unsupported Media Type" : "Bad Request" });
}

/**
 * The posted form of an action. A body sent as anything but a form answers 415, and a form
 * body that cannot be parsed (a broken multipart) 400: a client's mistake is never a 500.
 * Every action reads its form through this (app/components/forms/forms-on-conform.test.ts).
 */
export async function readForm(request: Request): Promise<FormData> {
  if (!FORM_TYPE.test((request.headers.get("Content-Type") ?? "").trim())) throw unreadableForm(request, 415);
  // Read twice is our mistake, not the client's: a real error (logged, a 500), not a 400.
  if (request.bodyUsed) throw new Error("readForm: the request body was already read");
  try {
    return await request.formData();
  } catch (error) {
    // A request the client gave up on is not a bad form: let the abort surface as it is.
    if (request.signal.aborted) throw error;
    throw unreadableForm(request, 400);
  }
}

export function methodNotAllowed() {
  return jsonError(405, "Method not allowed");
}

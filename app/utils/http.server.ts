import { jsonError } from "./auth.server";

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

export function methodNotAllowed() {
  return jsonError(405, "Method not allowed");
}

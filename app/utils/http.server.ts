import { jsonError } from "./auth.server";

/** Throws a 404 (or other status) unless the condition holds. */
export function invariantResponse(condition: unknown, message = "Not found", status = 404): asserts condition {
  if (!condition) throw new Response(message, { status });
}

/** Reads a JSON object body, or throws a 400 that says why. */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (!text.trim()) return {};
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

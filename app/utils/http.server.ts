import { isApiRequest, jsonError } from "./auth.server";
import { parseId } from "./params";
import { isWellFormedText } from "./text";

/** Throws a 404 (or other status) unless the condition holds. */
export function invariantResponse(condition: unknown, message = "Not found", status = 404): asserts condition {
  if (!condition) throw new Response(message, { status });
}

/** The id a URL names (`parseId`), or a 404 with `message` when it names none. */
export function requireIdParam(value: string | undefined, message = "Not found"): number {
  const id = parseId(value);
  invariantResponse(id, message);
  return id;
}

const isJsonContentType = (value: string | null) =>
  !!value && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(value.trim());

/** No call of this app nests deeper than a few levels; a parser's or validator's recursion would at thousands. */
export const MAX_JSON_DEPTH = 32;

// Bytes that are not UTF-8 (or spell half of a character, a lone surrogate) are refused, never
// read as U+FFFD: the text stored must be the text sent (decision 0705).
const utf8 = new TextDecoder("utf-8", { fatal: true });

async function utf8Body(request: Request): Promise<{ bytes: ArrayBuffer; text: string | null }> {
  const bytes = await request.arrayBuffer();
  try {
    return { bytes, text: utf8.decode(bytes) };
  } catch {
    return { bytes, text: null };
  }
}

/** True when arrays and objects nest deeper than `max` (counted on the text, before it is parsed). */
export function jsonNestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** True when a key or a string anywhere in a parsed JSON value holds a lone surrogate ("\ud800"). */
function holdsBrokenText(value: unknown): boolean {
  if (typeof value === "string") return !isWellFormedText(value);
  if (Array.isArray(value)) return value.some(holdsBrokenText);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, item]) => !isWellFormedText(key) || holdsBrokenText(item));
  return false;
}

/**
 * Reads a JSON object body, or throws a 400 that says why. A body sent as anything but
 * application/json answers 415 (a cross-site form can send text/plain without a preflight);
 * calls without a body (logout, reset password, passkey options) read as {}. Bodies that are
 * not UTF-8, nest deeper than MAX_JSON_DEPTH or hold a lone surrogate are refused with 400.
 */
export async function readJsonBody(request: Request): Promise<Record<string, unknown>> {
  const { text } = await utf8Body(request);
  if (text !== null && !text.trim()) return {};
  if (!isJsonContentType(request.headers.get("Content-Type"))) {
    throw jsonError(415, "The request body must be sent as application/json");
  }
  if (text === null) throw jsonError(400, "The request body must be UTF-8 text");
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) throw jsonError(400, "The request body is nested too deeply");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // refused below
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw jsonError(400, "The request body must be a JSON object");
  if (holdsBrokenText(value))
    throw jsonError(400, "The request body holds a broken character (half of a UTF-16 pair); please send it again");
  return value as Record<string, unknown>;
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
    const { bytes, text } = await utf8Body(request);
    if (text === null || !percentEncodingIsUtf8(request, text)) throw unreadableForm(request, 400);
    return await new Request(request.url, { method: request.method, headers: request.headers, body: bytes }).formData();
  } catch (error) {
    // A request the client gave up on is not a bad form: let the abort surface as it is.
    if (request.signal.aborted || error instanceof Response) throw error;
    throw unreadableForm(request, 400);
  }
}

/**
 * An urlencoded form whose escapes spell bytes that are not UTF-8 ("%ED%A0%80", a lone
 * surrogate, or "%FF") is refused: the fetch parser would read each as U+FFFD. Browsers never
 * send one (they escape "%" itself as "%25").
 */
function percentEncodingIsUtf8(request: Request, text: string) {
  if (!/^application\/x-www-form-urlencoded/i.test((request.headers.get("Content-Type") ?? "").trim())) return true;
  try {
    for (const part of text.split(/[&=]/)) decodeURIComponent(part.replace(/\+/g, " "));
    return true;
  } catch {
    return false;
  }
}

export function methodNotAllowed() {
  return jsonError(405, "Method not allowed");
}

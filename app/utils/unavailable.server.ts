// One place turns "the database cannot answer now" into 503 + Retry-After (ADR 0701).
// server.js wraps every route's loader and action with `guardRoutes` before handing the build
// to Remix, so no route file has to remember it:
// - /api: a JSON {message} with status 503;
// - pages: a thrown 503 whose data carries what the person posted (minus secrets), so the
//   error view can show it again in a form with the same idempotency key: retrying is safe.
import { admissionDeadline, isDatabaseUnavailable, limitsFromEnv, unavailableReason } from "~/db.server";
import { logEvent, logUnexpected, safeError } from "~/utils/logger.server";
import { requestScope, scopeOf } from "~/utils/request-scope.server";

export const RETRY_AFTER_SECONDS = 5;

const UNAVAILABLE_MESSAGE = "The database is not answering right now. Please try again in a few seconds.";
const API_WRITE_HINT = " A retry with the same Idempotency-Key is never recorded twice.";

/** What the 503 page receives in its error data. */
export type UnavailableData = {
  unavailable: true;
  message: string;
  retryAfterSeconds: number;
  /** The URL the form was posted to, when the failure happened in an action. */
  action?: string;
  /** Posted fields, secrets removed; strings only (files are never kept). */
  values?: Record<string, string>;
  /** True when fields such as passwords were posted but not kept: the form must be filled again. */
  omitted?: boolean;
};

// Never echoed back into a page: the person types these again.
const SECRET_FIELD = /password|passcode|secret|token|otp|code$/i;

type Args = { request: Request; context: unknown; params: unknown };
type Handler = (args: Args) => unknown;
type RouteModule = Record<string, unknown> & { loader?: Handler; action?: Handler };
type Route = { module: RouteModule } & Record<string, unknown>;

let lastLog = 0;
/**
 * One JSON line at most every 5 s while the database is away, through the logger: a driver's
 * "Failed query: ... params: ..." names a session id or a password hash, which safeError cuts.
 */
function logOnce(reason: string, request: Request, error: unknown) {
  const now = Date.now();
  if (now - lastLog < 5_000) return;
  lastLog = now;
  logEvent("warn", {
    event: "db.unavailable",
    reason,
    method: request.method,
    route: new URL(request.url).pathname,
    error: safeError(error),
  });
}

export function isApiRequest(request: Request) {
  const { pathname } = new URL(request.url);
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** The JSON 503 for /api callers. */
function unavailableJson(request: Request) {
  const write = request.method !== "GET" && request.method !== "HEAD";
  return Response.json(
    { message: UNAVAILABLE_MESSAGE + (write ? API_WRITE_HINT : "") },
    { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } },
  );
}

function isFormPost(request: Request) {
  if (request.method === "GET" || request.method === "HEAD") return false;
  const type = request.headers.get("content-type") ?? "";
  return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data");
}

async function readPosted(copy: Request): Promise<Pick<UnavailableData, "values" | "omitted">> {
  try {
    const form = await copy.formData();
    const values: Record<string, string> = {};
    let omitted = false;
    for (const [name, value] of form) {
      if (typeof value !== "string" || SECRET_FIELD.test(name)) {
        omitted = true;
        continue;
      }
      values[name] = value;
    }
    return { values, omitted };
  } catch {
    return {};
  }
}

function postedTo(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("_data");
  url.searchParams.delete("_routes");
  const path = url.pathname.replace(/\.data$/, "") || "/";
  const search = url.searchParams.toString();
  return search ? `${path}?${search}` : path;
}

// Shared by the loaders that run after a failed action in the same request: the page is
// rendered by whichever boundary catches first, so each 503 carries the posted values.
const posted = new WeakMap<object, Pick<UnavailableData, "values" | "omitted" | "action">>();

/** The 503 a page loader or action throws. */
function unavailablePage(extra: Pick<UnavailableData, "values" | "omitted" | "action"> = {}) {
  const data: UnavailableData = {
    unavailable: true,
    message: UNAVAILABLE_MESSAGE,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    ...extra,
  };
  return Response.json(data, {
    status: 503,
    statusText: "Service Unavailable",
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" },
  });
}

let cachedPoolWait: number | undefined;
function poolWaitMs() {
  return (cachedPoolWait ??= limitsFromEnv().poolWaitMs);
}

export function guardHandler(handler: Handler, kind: "loader" | "action"): Handler {
  return async (args) => {
    const { request } = args;
    const context = args.context && typeof args.context === "object" ? args.context : undefined;
    const copy = kind === "action" && isFormPost(request) && !isApiRequest(request) ? request.clone() : undefined;
    try {
      // All the queries of this loader or action share one wait budget for a connection.
      return await requestScope.run(scopeOf(request, args.context), () =>
        admissionDeadline.run(Date.now() + poolWaitMs(), () => handler(args)),
      );
    } catch (error) {
      const reason = unavailableReason(error);
      if (!reason) {
        if (error instanceof Response || !isApiRequest(request)) throw error;
        return unexpectedJson(request, context, error);
      }
      logOnce(reason, request, error);
      if (isApiRequest(request)) return unavailableJson(request);
      let extra = context ? posted.get(context) : undefined;
      if (copy) {
        extra = { ...(await readPosted(copy)), action: postedTo(request) };
        if (context) posted.set(context, extra);
      }
      throw unavailablePage(extra);
    }
  };
}

/**
 * An unexpected error in an /api call: logged once under the request's id, answered as JSON
 * that shows the same id (the page equivalent is the error view's "Error id").
 */
function unexpectedJson(request: Request, context: { requestId?: unknown } | undefined, error: unknown) {
  const errorId = logUnexpected(request, context, error);
  return Response.json(
    { message: "Something went wrong. Please try again.", errorId },
    { status: 500, headers: { "Cache-Control": "no-store", "X-Request-Id": errorId } },
  );
}

/** Every route's loader and action, guarded. Returns new route records; the input is untouched. */
export function guardRoutes<R extends Record<string, Route>>(routes: R): R {
  const guarded: Record<string, Route> = {};
  for (const [id, route] of Object.entries(routes)) {
    const module: RouteModule = { ...route.module };
    if (typeof module.loader === "function") module.loader = guardHandler(module.loader, "loader");
    if (typeof module.action === "function") module.action = guardHandler(module.action, "action");
    guarded[id] = { ...route, module };
  }
  return guarded as R;
}

/**
 * The next batch of a streamed answer (a JSON list, a CSV export, a statement download), with a
 * connection-wait budget of its own. A stream is read after its loader has returned, as fast as
 * the client takes it: under the request's budget (ADR 0700), long spent by then, any batch that
 * had to wait for a busy connection was refused at once and the download broke off.
 */
export function nextBatch<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
  return admissionDeadline.run(Date.now() + poolWaitMs(), () => iterator.next());
}

/**
 * Reads a stream's first batch before the answer is made (ADR 0701): a database that
 * cannot answer before any data is sent is then the usual 503 with Retry-After, not a 200 whose
 * body breaks off. A failure after that still aborts the body. The returned iterator gives that
 * batch first, then reads on.
 */
export async function firstBatchRead<T>(batches: AsyncIterable<T>): Promise<AsyncIterableIterator<T>> {
  const iterator = batches[Symbol.asyncIterator]();
  let first: IteratorResult<T> | undefined = await iterator.next();
  const read: AsyncIterableIterator<T> = {
    next: async () => {
      if (!first) return iterator.next();
      const result = first;
      first = undefined;
      return result;
    },
    return: async (value?: unknown) => (await iterator.return?.(value)) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => read,
  };
  return read;
}

export { isDatabaseUnavailable };

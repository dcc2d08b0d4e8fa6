// Structured logs: one JSON line per event on stdout, through pino
// (docs/decisions/0600-passwords-throttle-and-logs.md). Events carry ids, e-mails of sign-in
// attempts, routes and addresses; never passwords, codes, secrets, session ids or cookies.
// Anything under those names is removed before it is written, and errors are reduced to
// name, message (with any SQL parameters cut off), code and stack.
import pino, { type Logger } from "pino";

const SECRET_KEYS = [
  "password",
  "currentPassword",
  "newPassword",
  "confirmPassword",
  "temporaryPassword",
  "token",
  "code",
  "recoveryCode",
  "recoveryCodes",
  "recoveryCodesToShow",
  "secret",
  "totpSecret",
  "sid",
  "sessionId",
  "cookie",
  "Cookie",
  "set-cookie",
  "authorization",
  "challenge",
];

const redactPaths = SECRET_KEYS.flatMap((key) =>
  [key, `*.${key}`, `*.*.${key}`].map((p) => (/^[A-Za-z_]\w*$/.test(key) ? p : p.replace(key, `["${key}"]`))),
);

let instance: Logger | undefined;

function level() {
  if (process.env.LOG_LEVEL) return process.env.LOG_LEVEL;
  return process.env.NODE_ENV === "test" ? "silent" : "info";
}

export function logger(): Logger {
  instance ??= pino(
    {
      level: level(),
      base: { app: "pks-back-office" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths, remove: true },
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ sync: true }),
  );
  return instance;
}

/** For tests: log into `stream` (or back to stdout with undefined). */
export function setLoggerDestination(stream: { write(line: string): void } | undefined, levelName = "info") {
  instance = stream
    ? pino(
        {
          level: levelName,
          base: { app: "pks-back-office" },
          redact: { paths: redactPaths, remove: true },
          formatters: { level: (label) => ({ level: label }) },
        },
        stream,
      )
    : undefined;
}

type LogLevel = "debug" | "info" | "warn" | "error";

export function logEvent(levelName: LogLevel, fields: Record<string, unknown> & { event: string }) {
  logger()[levelName](fields);
}

/**
 * What of an error may be logged. A driver's "Failed query: ... params: ..." message carries
 * the statement's values (session ids, e-mails): they are cut off, and PostgreSQL's `detail`
 * (which repeats key values) is left out.
 */
export function safeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) {
    // The router's error answers carry the Error they stand for.
    const inner = error && typeof error === "object" ? (error as { error?: unknown }).error : undefined;
    if (inner instanceof Error) return safeError(inner);
    return { message: scrub(describe(error)) };
  }
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code ?? (cause as { code?: unknown } | undefined)?.code;
  return {
    name: error.name,
    message: scrub(error.message),
    ...(typeof code === "string" ? { errorCode: code } : {}),
    stack: error.stack ? scrub(error.stack) : undefined,
    ...(cause instanceof Error ? { cause: { name: cause.name, message: scrub(cause.message) } } : {}),
  };
}

/**
 * A thrown value that is not an Error, readable in a log line ("[object Object]" is not): an
 * object by its keys only, since its values may be a password or a code.
 */
function describe(value: unknown) {
  if (!value || typeof value !== "object") return String(value);
  const kind = value.constructor?.name ?? "Object";
  return `a thrown ${kind} with keys: ${Object.keys(value).slice(0, 20).join(", ") || "(none)"}`;
}

function scrub(text: string) {
  return text
    .replace(/params:[\s\S]*?(\n\s+at |$)/g, "params: [removed]$1")
    .replace(/\b(sid|session|cookie|password|token|secret)=([^;\s,]+)/gi, "$1=[removed]")
    .slice(0, 4000);
}

/**
 * An unexpected error, logged once as `error.unexpected` under the request's id (the id the
 * error page and the JSON answer show). Returns that id.
 */
export function logUnexpected(request: Request, context: { requestId?: unknown } | undefined, error: unknown) {
  const errorId = typeof context?.requestId === "string" ? context.requestId : crypto.randomUUID();
  logEvent("error", {
    event: "error.unexpected",
    errorId,
    method: request.method,
    route: new URL(request.url).pathname,
    error: safeError(error),
  });
  return errorId;
}

/**
 * An error that reached Express rather than Remix (a stream that failed after its headers, a
 * static file, a bug in a middleware): one JSON line, scrubbed as the others are, in place of
 * Express's own `console.error(stack)`, which printed a driver's SQL parameters as they were.
 */
export function logServerError(error: unknown, request: { method: string; path: string }, status = 500) {
  logEvent(status >= 500 ? "error" : "warn", {
    event: "error.server",
    status,
    method: request.method,
    route: request.path,
    error: safeError(error),
  });
}

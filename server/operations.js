/* global setInterval, setTimeout, clearInterval, clearTimeout */
// Operations plumbing for server.js (ADR 0702): health endpoints, Retry-After on every 503,
// and the graceful drain on SIGTERM/SIGINT. Plain JavaScript: it runs before the Remix build
// is loaded, and the build's entry module supplies the database parts (readiness, close).

export const RETRY_AFTER_SECONDS = 5;
export const DEFAULT_DRAIN_TIMEOUT_MS = 20_000;
/** How long, after SIGTERM, new connections are still taken while /readyz says 503 (production). */
export const DEFAULT_DRAIN_DELAY_MS = 5_000;
/**
 * How long an idle keep-alive connection stays open. Node's 5 s is shorter than the idle timeout
 * of the usual load balancers and proxies (60 s): the server would close a connection the proxy
 * is just reusing, and the proxy answers that request with a 502. Ours outlives theirs.
 */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * /healthz: the process answers (no database). /readyz: the database answers `select 1`
 * within a second and the server is not draining. Mounted before logging, sessions and
 * Remix: no sign-in, no versions, no stack traces.
 */
export function healthRoutes({ isDraining, checkDatabase }) {
  return async (req, res, next) => {
    if (req.path !== "/healthz" && req.path !== "/readyz") return next();
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.status(405).set("Allow", "GET, HEAD").json({ status: "method not allowed" });
      return;
    }
    res.set("Cache-Control", "no-store");
    if (req.path === "/healthz") {
      res.status(200).json({ status: "ok" });
      return;
    }
    if (isDraining()) {
      res.status(503).set("Retry-After", String(RETRY_AFTER_SECONDS)).json({ status: "draining" });
      return;
    }
    let ok = false;
    try {
      ok = await checkDatabase();
    } catch {
      ok = false;
    }
    if (ok) res.status(200).json({ status: "ready" });
    else res.status(503).set("Retry-After", String(RETRY_AFTER_SECONDS)).json({ status: "database unavailable" });
  };
}

/** Any 503, wherever it comes from, tells the client when to come back. */
export function retryAfterOn503() {
  return (_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function patchedWriteHead(statusCode, ...rest) {
      if (statusCode === 503 && !res.getHeader("Retry-After"))
        res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      return writeHead.call(this, statusCode, ...rest);
    };
    next();
  };
}

/**
 * The drain: on SIGTERM or SIGINT, /readyz turns 503 at once, but for `delayMs` the server
 * still takes new connections and answers them, so what a load balancer sends before its next
 * readiness check is served. Then the listener closes (no new connections), requests in
 * flight finish (keep-alive connections are told to close after their response), then
 * `closeDatabase` runs last and the process exits 0. `timeoutMs` after the listener closed,
 * the remaining connections are cut and the exit code is 1.
 */
export function createDrain({
  server,
  closeDatabase,
  timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS,
  delayMs = 0,
  log = console.log,
  exit = process.exit,
  wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}) {
  let draining = false;
  const inFlight = new Set();

  function track(req, res, next) {
    inFlight.add(res);
    res.on("close", () => inFlight.delete(res));
    if (draining) res.set("Connection", "close");
    next();
  }

  async function drain(signal) {
    if (draining) return;
    draining = true;
    if (delayMs > 0) {
      log(`${signal} received: /readyz answers 503; still accepting for ${delayMs} ms`);
      await wait(delayMs);
    }
    const stage = delayMs > 0 ? "no longer accepting" : `${signal} received`;
    log(`${stage}: draining ${inFlight.size} request(s), up to ${timeoutMs} ms`);
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    const closed = new Promise((resolve) => server.close(() => resolve(true)));
    // Idle keep-alive sockets would hold close() open: they carry no request, so end them.
    server.closeIdleConnections?.();
    const idleSweep = setInterval(() => server.closeIdleConnections?.(), 250);
    let timer;
    const timedOut = new Promise((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const finished = await Promise.race([closed, timedOut]);
    clearInterval(idleSweep);
    clearTimeout(timer);
    if (!finished) {
      log(`drain timed out with ${inFlight.size} request(s) still open: closing them`);
      server.closeAllConnections?.();
    }
    let code = finished ? 0 : 1;
    try {
      await closeDatabase();
    } catch (error) {
      log(`closing the database failed: ${error instanceof Error ? error.message : String(error)}`);
      code = 1;
    }
    log(`drained: exit ${code}`);
    exit(code);
  }

  return { track, drain, isDraining: () => draining, inFlight: () => inFlight.size };
}

/**
 * The last Express error handler: a request whose address cannot be made into a URL (a
 * malformed `X-Forwarded-Host` or `X-Forwarded-Proto`; Remix's adapter builds one for every
 * request) is the client's mistake, answered 400. Anything else goes on to Express's own 500.
 */
export function malformedAddressIs400() {
  // Express knows an error handler by its four parameters.
  return (error, req, res, next) => {
    if (error?.code !== "ERR_INVALID_URL" || res.headersSent) return next(error);
    res
      .status(400)
      .set("Connection", "close")
      .type("application/json")
      .send(JSON.stringify({ message: "The request's address is malformed" }));
  };
}

/**
 * The very last Express error handler, in place of Express's own: that one prints the error's
 * stack with `console.error`, where a driver's "Failed query: ... params: ..." carries session
 * ids and password hashes. `log(error, req, status)` writes it scrubbed (the build's
 * `logServerError`); the answer names no detail. After the headers went out, the connection is
 * cut, as Express does, so the client sees a broken answer rather than a short one.
 */
const ERROR_MESSAGES = {
  500: "Unexpected Server Error",
  503: "The server cannot answer right now. Please try again in a few seconds.",
};

export function lastErrorHandler({ log }) {
  // Express knows an error handler by its four parameters.
  return (error, req, res, _next) => {
    const declared = Number(error?.status ?? error?.statusCode);
    const status = declared >= 400 && declared < 600 ? declared : 500;
    try {
      log(error, req, status);
    } catch {
      // a logger that fails must not turn one error into two
    }
    if (res.headersSent) {
      req.socket?.destroy();
      return;
    }
    res
      .status(status)
      .set("Cache-Control", "no-store")
      .type("application/json")
      .send(
        JSON.stringify({ message: ERROR_MESSAGES[status] ?? (status >= 500 ? ERROR_MESSAGES[500] : "Bad request") }),
      );
  };
}

/** DRAIN_DELAY_MS, or 5 s in production and none elsewhere (tests and development stop at once). */
export function drainDelayFromEnv(env = process.env) {
  const value = Number(env.DRAIN_DELAY_MS);
  if (env.DRAIN_DELAY_MS && Number.isFinite(value) && value >= 0) return value;
  return env.NODE_ENV === "production" ? DEFAULT_DRAIN_DELAY_MS : 0;
}

export function drainTimeoutFromEnv(env = process.env) {
  const value = Number(env.DRAIN_TIMEOUT_MS);
  return env.DRAIN_TIMEOUT_MS && Number.isFinite(value) && value >= 0 ? value : DEFAULT_DRAIN_TIMEOUT_MS;
}

/** KEEP_ALIVE_TIMEOUT_MS, or 65 s; the headers timeout is one second more, as Node requires it above. */
export function keepAliveFromEnv(env = process.env) {
  const value = Number(env.KEEP_ALIVE_TIMEOUT_MS);
  const keepAliveTimeout =
    env.KEEP_ALIVE_TIMEOUT_MS && Number.isInteger(value) && value >= 1_000 ? value : DEFAULT_KEEP_ALIVE_TIMEOUT_MS;
  return { keepAliveTimeout, headersTimeout: keepAliveTimeout + 1_000 };
}

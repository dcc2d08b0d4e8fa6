import { PassThrough } from "node:stream";
import { startHousekeeping, stopHousekeeping } from "~/models/housekeeping.server";
import { startReminderTimer, stopReminderTimer } from "~/models/reminder-timer.server";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { closeDb, getDb, getDriver, isDatabaseUnavailable, pingDb } from "~/db.server";
import { startOpsSocket, stopOpsSocket } from "~/utils/backup.server";
import { ensureFirstAdmin } from "~/models/user.server";
import { env } from "~/utils/env.server";
import { ErrorIdContext } from "~/utils/error-id";
import { logEvent, logUnexpected, safeError } from "~/utils/logger.server";
import { NonceContext } from "~/utils/nonce";

const ABORT_DELAY_MS = 5_000;

export { guardRoutes } from "~/utils/unavailable.server";
// server.js's last error handler logs through this (scrubbed, one JSON line).
export { logServerError } from "~/utils/logger.server";
export { backupInProcess } from "~/utils/backup.server";

/**
 * Called once by server.js before it takes requests: migrate, first admin, tidy sessions.
 * A database that is not up yet is waited for (the orchestrator sees /readyz fail meanwhile
 * only once we listen; until then the process simply has not started).
 */
export async function bootstrap() {
  const config = env();
  for (let attempt = 1; ; attempt++) {
    try {
      await getDb();
      break;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || attempt >= 60) throw error;
      console.warn(`database not reachable yet (attempt ${attempt}): retrying in 2 s`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
  if ((await getDriver()) === "pglite") await startOpsSocket(config.PGLITE_DIR);
  await ensureFirstAdmin({ email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });
  startHousekeeping();
  startReminderTimer();
}

/** /readyz: the database answers `select 1` within a second. */
export function readiness() {
  return pingDb(1_000);
}

/** Last step of the drain: the database closes after every request has finished. */
export async function shutdown() {
  stopReminderTimer();
  stopHousekeeping();
  await stopOpsSocket();
  await closeDb();
}

/**
 * Every unexpected error is logged once, as one JSON line, under the request's id (also in the
 * X-Request-Id header and on the error page). Its message is scrubbed of SQL parameters.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  // The router's own 4xx answers (a post to a page that takes none is a 405, a .data call for
  // a route that is not there a 404): the client's mistake, answered as such, not our fault.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // Remix reports a request in its old data protocol (`?_data=`) through here as an Error. It
  // is a client's leftover or a scanner's guess, answered as usual: a warning, not an error.
  if (error instanceof Error && error.message.startsWith(LEGACY_DATA_WARNING)) {
    logEvent("warn", { event: "request.legacy-data", method: request.method, route: new URL(request.url).pathname });
    return;
  }
  logUnexpected(request, context, error);
};

/** How @remix-run/server-runtime words it (server.js, `url.searchParams.has("_data")`). */
export const LEGACY_DATA_WARNING = "Warning: Single fetch-enabled apps should not be making ?_data requests";

// Every page may carry someone's data: never stored by browsers or proxies.
export const handleDataRequest: HandleDataRequestFunction = (response) => {
  response.headers.set("Cache-Control", "no-store");
  return response;
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.cspNonce === "string" ? loadContext.cspNonce : undefined;
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || remixContext.isSpaMode;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let abortTimer: ReturnType<typeof setTimeout> | undefined;
    const respond = () => {
      shellRendered = true;
      const status = responseStatusCode;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set("Cache-Control", "no-store");
      // The document goes out as one chunk once React has finished it (no page defers data, so
      // that is right after the shell). Streamed, React's ~2 KB chunks each became a write, a
      // gzip flush (Remix's adapter flushes after every chunk) and a socket write: a sixth of
      // the server's CPU on /deliveries and 14.2 KB of gzip where one pass makes 9.3 KB
      // (docs/decisions/0504).
      const body = new PassThrough();
      const chunks: Buffer[] = [];
      body.on("data", (chunk: Buffer) => chunks.push(chunk));
      body.on("end", () => resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status })));
      body.on("error", reject);
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ErrorIdContext.Provider value={typeof loadContext.requestId === "string" ? loadContext.requestId : undefined}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
        </ErrorIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          if (waitForAll) return;
          respond();
          // The abort bounds deferred data only, counted from the shell: a render that waited
          // behind other requests on a busy event loop is never cut off before its shell
          // (that was a silent 500 under load).
          abortTimer = setTimeout(abort, ABORT_DELAY_MS);
        },
        onAllReady() {
          clearTimeout(abortTimer);
          if (waitForAll) respond();
        },
        onShellError(error: unknown) {
          clearTimeout(abortTimer);
          logEvent("error", { event: "error.render", route: new URL(request.url).pathname, error: safeError(error) });
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered)
            logEvent("error", { event: "error.render", route: new URL(request.url).pathname, error: safeError(error) });
        },
      },
    );
    if (waitForAll) abortTimer = setTimeout(abort, ABORT_DELAY_MS);
  });
}

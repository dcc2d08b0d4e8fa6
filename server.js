// The production server: Remix behind Express, with per-request CSP nonces, the same-origin
// check for writes, long-lived caching of fingerprinted assets, health checks and a graceful
// drain (server/operations.js).
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { loadContext } from "./server/context.js";
import { bodyLimit, continueUnlessRefused } from "./server/body-limit.js";
import {
  createDrain,
  drainDelayFromEnv,
  drainTimeoutFromEnv,
  healthRoutes,
  keepAliveFromEnv,
  lastErrorHandler,
  malformedAddressIs400,
  retryAfterOn503,
} from "./server/operations.js";
import { isAllowedWrite, makeNonce, refuseUnknownMethods, securityHeaders } from "./server/security.js";

const development = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT || 3000);
// One interface (`HOST=127.0.0.1` behind a proxy on the same machine), or every interface.
const host = process.env.HOST || undefined;
const BUILD_PATH = path.resolve("build/index.js");

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", true);

let build = await import(BUILD_PATH);
const drain = createDrain({
  server: {
    close: (done) => server.close(done),
    closeIdleConnections: () => server.closeIdleConnections(),
    closeAllConnections: () => server.closeAllConnections(),
  },
  closeDatabase: async () => build.entry.module.shutdown?.(),
  timeoutMs: drainTimeoutFromEnv(),
  delayMs: drainDelayFromEnv(),
});
// The security headers go on every answer, health checks and refusals included (decision 0004).
app.use((req, res, next) => {
  const nonce = makeNonce();
  res.locals.cspNonce = nonce;
  res.set(securityHeaders(nonce, { development }));
  // Remix's adapter appends the headers a page or route sets: a Cache-Control or Referrer-Policy
  // of its own (a shared document's no-referrer, decision 1260) replaces the default above
  // instead of sending both.
  const append = res.append.bind(res);
  const replaced = new Set(["cache-control", "referrer-policy"]);
  res.append = (field, value) =>
    replaced.has(String(field).toLowerCase()) ? res.set(field, value) : append(field, value);
  next();
});
app.use(refuseUnknownMethods());
// Health next: no logging, sessions or Remix in front of it.
app.use(
  healthRoutes({
    isDraining: drain.isDraining,
    checkDatabase: async () => (await build.entry.module.readiness?.()) ?? true,
  }),
);
app.use(drain.track);
// A body over its path's limit, or one of no declared length, is refused unread (decision 0705).
app.use(bodyLimit());
app.use(retryAfterOn503());
// gzip at level 1: a third of level 6's CPU for about 15% more bytes (10.8 KB instead of 9.3 KB
// for a 55 KB page); browsers ask for brotli, which stays at quality 4 (decision 0504).
app.use(compression({ level: 1 }));

app.use((req, res, next) => {
  const expectedOrigin = process.env.APP_ORIGIN || `${req.protocol}://${req.get("host")}`;
  const allowed = isAllowedWrite({
    method: req.method,
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    expectedOrigin,
  });
  if (!allowed) {
    res
      .status(403)
      .type("application/json")
      .send(JSON.stringify({ message: "Cross-site request refused" }));
    return;
  }
  next();
});

// Fingerprinted build assets never change: cache for a year.
// (serve-static leaves a Cache-Control already set alone, so each replaces the no-store default.)
const cacheFor = (value) => (res) => res.setHeader("Cache-Control", value);
app.use("/build", express.static("public/build", { setHeaders: cacheFor("public, max-age=31536000, immutable") }));
app.use(express.static("public", { setHeaders: cacheFor("public, max-age=3600") }));

if (development) {
  const { broadcastDevReady } = await import("@remix-run/node");
  broadcastDevReady(build);
}
await build.entry.module.bootstrap?.();
// Every loader and action answers 503 when the database cannot (app/utils/unavailable.server.ts).
const guard = (b) => (b.entry.module.guardRoutes ? { ...b, routes: b.entry.module.guardRoutes(b.routes) } : b);

const getLoadContext = loadContext;

app.all(
  "*",
  development
    ? async (req, res, next) => {
        try {
          build = await import(`${BUILD_PATH}?t=${Date.now()}`);
          return createRequestHandler({ build: guard(build), mode: "development", getLoadContext })(req, res, next);
        } catch (error) {
          next(error);
        }
      }
    : createRequestHandler({ build: guard(build), mode: "production", getLoadContext }),
);
app.use(malformedAddressIs400());
// Anything else: logged scrubbed, as one JSON line, never by Express's console.error.
app.use(
  lastErrorHandler({
    log: (error, req, status) => {
      if (build.entry.module.logServerError)
        build.entry.module.logServerError(error, { method: req.method, path: req.path }, status);
      else console.error(`${req.method} ${req.path}: ${status} (${error?.name ?? "error"})`);
    },
  }),
);

const server = app.listen(port, host, () => {
  console.log(`PKS back office listening on http://${host ?? "localhost"}:${port}`);
});
// Idle keep-alive connections outlive a proxy's (decision 0702): it never reuses one we just closed.
Object.assign(server, keepAliveFromEnv());
// A body that would be refused is refused before the client sends it (decision 0705).
server.on("checkContinue", continueUnlessRefused(app));

process.on("SIGTERM", () => drain.drain("SIGTERM"));
process.on("SIGINT", () => drain.drain("SIGINT"));

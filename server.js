// The production server: Remix behind Express, with per-request CSP nonces, the same-origin
// check for writes, long-lived caching of fingerprinted assets and a clean shutdown.
import path from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import { isAllowedWrite, makeNonce, securityHeaders } from "./server/security.js";

const development = process.env.NODE_ENV !== "production";
const port = Number(process.env.PORT || 3000);
const BUILD_PATH = path.resolve("build/index.js");

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", true);
app.use(compression());

app.use((req, res, next) => {
  const nonce = makeNonce();
  res.locals.cspNonce = nonce;
  res.set(securityHeaders(nonce, { development }));
  const expectedOrigin = process.env.APP_ORIGIN || `${req.protocol}://${req.get("host")}`;
  const allowed = isAllowedWrite({
    method: req.method,
    origin: req.get("origin"),
    secFetchSite: req.get("sec-fetch-site"),
    expectedOrigin,
  });
  if (!allowed) {
    res.status(403).type("application/json").send(JSON.stringify({ message: "Cross-site request refused" }));
    return;
  }
  next();
});

// Fingerprinted build assets never change: cache for a year.
app.use("/build", express.static("public/build", { immutable: true, maxAge: "1y" }));
app.use(express.static("public", { maxAge: "1h" }));

let build = await import(BUILD_PATH);
if (development) {
  const { broadcastDevReady } = await import("@remix-run/node");
  broadcastDevReady(build);
}
await build.entry.module.bootstrap?.();

const getLoadContext = (_req, res) => ({ cspNonce: res.locals.cspNonce });

app.all(
  "*",
  development
    ? async (req, res, next) => {
        try {
          build = await import(`${BUILD_PATH}?t=${Date.now()}`);
          return createRequestHandler({ build, mode: "development", getLoadContext })(req, res, next);
        } catch (error) {
          next(error);
        }
      }
    : createRequestHandler({ build, mode: "production", getLoadContext }),
);

const server = app.listen(port, () => {
  console.log(`PKS back office listening on http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} received: closing`);
  server.close();
  server.closeAllConnections?.();
  try {
    await build.entry.module.shutdown?.();
  } finally {
    process.exit(0);
  }
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));

// Graceful drain (decision 0702): 20 slow requests in flight, SIGTERM; for the drain delay
// /readyz says 503 while new connections are still taken and answered (what a load balancer
// sends before its next check), then no new connection is accepted, all 20 complete with 2xx
// (one of them a write that commits), and the process exits 0; on PostgreSQL (a private
// cluster) and on PGlite.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, REPO, startApp, type AppProcess } from "./support/app";
import { request, signIn } from "./support/client";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { seed, type Seeded } from "./support/seed";

const SLOW = path.join(REPO, "tests/ops/support/slow-requests.mjs");
const missing = buildMissingReason();
const noCluster = clusterUnavailableReason();
if (missing) console.warn(`ops drain tests skipped: ${missing}`);
if (noCluster) console.warn(`ops drain test on PostgreSQL skipped: ${noCluster}`);

const DRAIN_DELAY_MS = 1_500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A GET on a connection of its own (no keep-alive pool): the status, or the connection's error. */
function freshGet(base: string, path: string, cookie?: string) {
  return new Promise<number>((resolve, reject) => {
    const req = http.get(`${base}${path}`, { agent: false, headers: cookie ? { Cookie: cookie } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
  });
}

async function drainScenario(app: AppProcess, seeded: Seeded) {
  const cookie = await signIn(app.url, seeded.staff[0], seeded.password);
  const key = randomUUID();
  // Held past the end of the drain delay: still in flight when the listener closes.
  const slow = { "x-ops-delay-ms": "2500" };
  const inFlight = [
    ...Array.from({ length: 19 }, () => request(app.url, "/api/deliveries?limit=5", { cookie, headers: slow })),
    request(app.url, "/api/deliveries", {
      method: "POST",
      cookie,
      json: { agentId: seeded.agentIds[0], tons: "3.50", location: "Drain yard" },
      headers: { ...slow, "Idempotency-Key": key },
    }),
  ];
  // Wait until the app holds all 20.
  while ((app.logs().match(/ops-slow-start/g) ?? []).length < 20) await new Promise((r) => setTimeout(r, 20));
  const signalled = Date.now();
  app.signal("SIGTERM");
  // During the delay: not ready, but a new connection is still taken and answered.
  await sleep(100);
  expect(await freshGet(app.url, "/readyz")).toBe(503);
  expect(await freshGet(app.url, "/api/deliveries?limit=1", cookie)).toBe(200);
  expect(Date.now() - signalled).toBeLessThan(DRAIN_DELAY_MS);
  // After it, no new connections.
  await sleep(DRAIN_DELAY_MS + 300 - (Date.now() - signalled));
  await expect(freshGet(app.url, "/healthz")).rejects.toThrow();
  await expect(fetch(`${app.url}/healthz`)).rejects.toThrow();
  const replies = await Promise.all(inFlight);
  const code = await app.exited;
  const tookMs = Date.now() - signalled;
  console.log(
    `drain: 20 in flight, statuses ${JSON.stringify(replies.map((r) => r.status))}, exit ${code} after ${tookMs} ms`,
  );
  expect(replies.map((r) => r.status)).toEqual([...Array(19).fill(200), 201]);
  expect(code).toBe(0);
  expect(app.logs()).toContain("drained: exit 0");
  return { deliveryId: (replies[19].body as { id: number }).id };
}

describe.skipIf(!!missing || !!noCluster)("drain on PostgreSQL", () => {
  let cluster: Cluster;
  let seeded: Seeded;
  beforeAll(async () => {
    cluster = startCluster(pgPort(1));
    await cluster.createDatabase("drain");
    seeded = await seed({ driver: "postgres", url: cluster.url("drain") }, { staff: 1, managers: 0 });
  });
  afterAll(() => cluster?.destroy());

  it("finishes the 20 requests in flight, commits the write, closes the database last and exits 0", async () => {
    const app = await startApp({
      port: appPort(11),
      database: { url: cluster.url("drain") },
      preload: SLOW,
      env: { DRAIN_DELAY_MS: String(DRAIN_DELAY_MS) },
    });
    const { deliveryId } = await drainScenario(app, seeded);
    const sql = postgres(cluster.url("drain"), { max: 1, onnotice: () => {} });
    const rows = await sql`select id from deliveries where location = 'Drain yard'`;
    await sql.end();
    expect(rows.map((r) => r.id)).toEqual([deliveryId]);
  });
});

describe.skipIf(!!missing)("drain on PGlite", () => {
  let dir: string;
  let seeded: Seeded;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "pks-ops-drain-"));
    seeded = await seed({ driver: "pglite", dataDir: path.join(dir, "db") }, { staff: 1, managers: 0 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finishes the 20 requests in flight, commits the write, closes PGlite last and exits 0", async () => {
    const app = await startApp({
      port: appPort(12),
      database: { pgliteDir: path.join(dir, "db") },
      preload: SLOW,
      env: { DRAIN_DELAY_MS: String(DRAIN_DELAY_MS) },
    });
    const { deliveryId } = await drainScenario(app, seeded);
    // The app has closed the directory cleanly: it opens again and holds the write.
    const db = await PGlite.create({ dataDir: path.join(dir, "db") });
    const { rows } = await db.query<{ id: number }>("select id from deliveries where location = 'Drain yard'");
    await db.close();
    expect(rows.map((r) => r.id)).toEqual([deliveryId]);
  });
});

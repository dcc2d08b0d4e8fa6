// Two app instances on one PostgreSQL behind a round-robin proxy (decision 0704): nothing an
// instance needs lives in another's memory. Sessions, sign-in throttles and idempotency keys
// are in the database: a session made on one works on the other, failures counted on both add
// up, a key used on one replays on the other. Then the mixed load through the proxy:
// exactly-once deliveries and payments, gapless invoice numbers, no over-payment.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp, type AppProcess } from "./support/app";
import { request, signIn } from "./support/client";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { runMixedLoad, statusSummary } from "./support/load";
import { startProxy } from "./support/proxy";
import { seed, type Seeded } from "./support/seed";
import { dbCheck, ledgerAgainstPostgres } from "./support/verify";

const reason = buildMissingReason() ?? clusterUnavailableReason();
if (reason) console.warn(`ops two-instance test skipped: ${reason}`);

const GUESSER = { "X-Forwarded-For": "192.0.2.77" };

describe.skipIf(!!reason)("two app instances on one PostgreSQL", () => {
  let cluster: Cluster;
  let seeded: Seeded;
  let a: AppProcess;
  let b: AppProcess;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let url: string;

  beforeAll(async () => {
    cluster = startCluster(pgPort(3));
    await cluster.createDatabase("shared");
    url = cluster.url("shared");
    seeded = await seed({ driver: "postgres", url }, { staff: 4, managers: 2 });
    // Each instance with a small pool, as several would share one server's connections. Behind
    // a proxy the client's address comes from its header (decision 0600): the guesser below
    // signs in from an address of its own, so its failures are not charged to the address the
    // mixed load's people sign in from (the socket's, through the proxy).
    const env = { DB_POOL_MAX: "5", TRUSTED_PROXY_HEADER: "X-Forwarded-For" };
    [a, b] = await Promise.all([
      startApp({ port: appPort(31), database: { url }, env }),
      startApp({ port: appPort(32), database: { url }, env }),
    ]);
    proxy = await startProxy(appPort(30), [appPort(31), appPort(32)]);
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    cluster?.destroy();
  });

  it("keeps sessions, throttles and idempotency keys in the database, not in an instance", async () => {
    // A session made on A is valid on B, and signing out on B ends it on A.
    const cookie = await signIn(a.url, seeded.staff[0], seeded.password);
    expect((await request(b.url, "/api/auth/user", { cookie })).status).toBe(200);
    expect((await request(a.url, "/api/auth/user", { cookie })).status).toBe(200);
    await request(b.url, "/api/auth/password/logout", { method: "POST", cookie });
    expect((await request(a.url, "/api/auth/user", { cookie })).status).toBe(401);

    // Failed sign-ins counted on both instances add up to one limit.
    const target = seeded.staff[3];
    const failures = [];
    for (let i = 0; i < 5; i++) {
      const app = i % 2 ? b : a;
      failures.push(
        (
          await request(app.url, "/api/auth/password/login", {
            method: "POST",
            json: { email: target, password: "wrong-password" },
            headers: GUESSER,
          })
        ).status,
      );
    }
    const limited = await request(b.url, "/api/auth/password/login", {
      method: "POST",
      json: { email: target, password: seeded.password },
      headers: GUESSER,
    });
    expect(failures.every((s) => s === 401)).toBe(true);
    expect(limited.status).toBe(429);

    // An idempotency key used on A replays the same delivery on B.
    const staff = await signIn(a.url, seeded.staff[1], seeded.password);
    const key = randomUUID();
    const body = { agentId: seeded.agentIds[0], tons: "2.50", location: "Twin yard" };
    const first = await request(a.url, "/api/deliveries", {
      method: "POST",
      cookie: staff,
      json: body,
      headers: { "Idempotency-Key": key },
    });
    const replay = await request(b.url, "/api/deliveries", {
      method: "POST",
      cookie: staff,
      json: body,
      headers: { "Idempotency-Key": key },
    });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
  });

  it("serves the mixed load through a round-robin proxy: exactly once, gapless, never over-paid, sessions valid on both", async () => {
    const ledger = await runMixedLoad({
      base: proxy.url,
      seeded: { ...seeded, staff: seeded.staff.slice(0, 3) },
      operations: 15,
    });
    console.log(
      `two instances: ${ledger.deliveries.size} deliveries, ${ledger.invoices.size} invoices, ${ledger.payments.size} payments, ${ledger.signIns} sign-ins; statuses ${JSON.stringify(statusSummary(ledger))}`,
    );
    expect(ledger.serverErrors).toEqual([]);
    expect(ledger.statuses.get(503) ?? 0).toBe(0);
    expect(ledger.pendingDeliveries.size).toBe(0);
    expect(ledger.invoices.size).toBeGreaterThan(0);
    expect(ledger.payments.size).toBeGreaterThan(0);
    const found = await ledgerAgainstPostgres(url, ledger);
    expect(found.keysClaimedOnce).toBe(true);
    expect(found.deliveriesPresent).toBe(ledger.deliveries.size);
    expect(found.opsDeliveries).toBe(ledger.deliveries.size);
    expect(found.paymentsPresent).toBe(ledger.payments.size);
    expect(found.paymentsTotal).toBe(ledger.payments.size);
    // Every invoice number the load was given is distinct.
    const numbers = [...ledger.invoices.values()].map((i) => i.invoiceNo);
    expect(new Set(numbers).size).toBe(numbers.length);

    // A session from the proxy works on each instance directly.
    const cookie = await signIn(proxy.url, seeded.managers[0], seeded.password);
    expect((await request(a.url, "/api/auth/user", { cookie })).status).toBe(200);
    expect((await request(b.url, "/api/auth/user", { cookie })).status).toBe(200);

    const check = dbCheck({ DATABASE_URL: url });
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);
  });
});

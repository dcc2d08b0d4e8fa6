// Bad-day faults on a private PostgreSQL cluster (decisions 0700, 0701): a lock held on
// `deliveries` and a database stop and start under load. Waits are bounded, the answer is 503
// with Retry-After, never a 500; the app recovers by itself and nothing acknowledged is lost.
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp, type AppProcess } from "./support/app";
import { request, signIn } from "./support/client";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { newLedger, runMixedLoad, settlePendingDeliveries, statusSummary } from "./support/load";
import { seed, type Seeded } from "./support/seed";
import { dbCheck, ledgerAgainstPostgres } from "./support/verify";

const reason = buildMissingReason() ?? clusterUnavailableReason();
if (reason) console.warn(`ops fault tests skipped: ${reason}`);

describe.skipIf(!!reason)("database faults on a private PostgreSQL cluster", () => {
  let cluster: Cluster;
  let seeded: Seeded;
  let app: AppProcess;
  let url: string;

  beforeAll(async () => {
    cluster = startCluster(pgPort(0));
    await cluster.createDatabase("faults");
    url = cluster.url("faults");
    seeded = await seed({ driver: "postgres", url }, { staff: 4, managers: 2 });
    app = await startApp({ port: appPort(1), database: { url } });
  });
  afterAll(async () => {
    if (app && app.child.exitCode !== null) console.log(`the app exited early:\n${app.logs().slice(-3000)}`);
    await app?.stop();
    cluster?.destroy();
  });

  it("a 20 s lock on deliveries: other tables answer, waits are bounded, 503 with Retry-After, never a 500", async () => {
    const cookie = await signIn(app.url, seeded.managers[0], seeded.password);
    const locker = postgres(url, { max: 1, onnotice: () => {} });
    let release!: () => void;
    let lockHeld = false;
    const released = new Promise<void>((r) => (release = r));
    const holder = locker.begin(async (tx) => {
      await tx`lock table deliveries in access exclusive mode`;
      lockHeld = true;
      // Held for 20 s at most, or until the test has seen what it needs.
      await Promise.race([released, new Promise((r) => setTimeout(r, 20_000))]);
    });
    while (!lockHeld) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();

    const agents = await request(app.url, "/api/agents", { cookie });
    expect(agents.status).toBe(200);

    const timed = async () => {
      const t0 = Date.now();
      const reply = await request(app.url, "/api/deliveries?limit=10", { cookie });
      return { ...reply, ms: Date.now() - t0 };
    };
    const replies = await Promise.all(Array.from({ length: 50 }, timed));
    const slowest = Math.max(...replies.map((r) => r.ms));
    const median = replies.map((r) => r.ms).sort((x, y) => x - y)[25];
    const burstMs = Date.now() - started;
    const page = await request(app.url, "/deliveries", { cookie });
    const key = randomUUID();
    const form = await request(app.url, "/deliveries/new", {
      method: "POST",
      cookie,
      form: {
        idempotencyKey: key,
        returnTo: "/deliveries",
        agentId: String(seeded.agentIds[0]),
        date: "2026-01-05",
        tons: "7.25",
        location: "Lock yard",
      },
    });
    const agentsAgain = await request(app.url, "/api/agents", { cookie });
    const stillHeld = lockHeld && Date.now() - started < 20_000;
    release();
    await holder;
    await locker.end();

    const statuses = replies.map((r) => r.status);
    console.log(
      `lock: 50 deliveries reads answered ${JSON.stringify(countBy(statuses))} within ${burstMs} ms (median ${median} ms, slowest ${slowest} ms); lock still held: ${stillHeld}`,
    );
    // Everything answered while the lock was still held: the waits are bounded.
    expect(stillHeld).toBe(true);
    expect(statuses.every((s) => s === 503)).toBe(true);
    for (const reply of replies) {
      expect(reply.headers.get("retry-after")).toBe("5");
      expect(reply.body).toEqual({ message: expect.stringContaining("database is not answering") });
    }
    // The pages: a friendly 503 page; the form keeps what was typed and its idempotency key.
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("5");
    expect(page.text).toContain("Temporarily unavailable");
    expect(form.status).toBe(503);
    expect(form.text).toContain(`value="${key}"`);
    expect(form.text).toContain('value="7.25"');
    expect(form.text).toContain('value="Lock yard"');
    expect(form.text).toContain("Send again");
    // Another table kept answering, and the pool was not left stuck.
    expect(agentsAgain.status).toBe(200);

    // With the lock gone, the same form sent again records the delivery once.
    const resend = await request(app.url, "/deliveries/new", {
      method: "POST",
      cookie,
      form: {
        idempotencyKey: key,
        returnTo: "/deliveries",
        agentId: String(seeded.agentIds[0]),
        date: "2026-01-05",
        tons: "7.25",
        location: "Lock yard",
      },
    });
    expect(resend.status).toBe(302);
    const again = await request(app.url, "/deliveries/new", {
      method: "POST",
      cookie,
      form: {
        idempotencyKey: key,
        returnTo: "/deliveries",
        agentId: String(seeded.agentIds[0]),
        date: "2026-01-05",
        tons: "7.25",
        location: "Lock yard",
      },
    });
    expect(again.status).toBe(302);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    const rows = await sql`select id from deliveries where location = 'Lock yard'`;
    await sql.end();
    expect(rows).toHaveLength(1);
  });

  it("a database stop and start under load: 503s and no 500, recovery without a restart, nothing acknowledged lost, db:check clean", async () => {
    const ledger = newLedger();
    let stop = false;
    const load = runMixedLoad({ base: app.url, seeded, until: () => stop, ledger, pauseMs: 20 });
    while (ledger.deliveries.size < 20) await new Promise((r) => setTimeout(r, 50));

    cluster.stop();
    const readyDown = await request(app.url, "/readyz");
    const healthDown = await request(app.url, "/healthz");
    await new Promise((r) => setTimeout(r, 3_000));
    const statusesWhileDown = statusSummary(ledger);
    cluster.start();
    const restarted = Date.now();
    let recoveredMs = -1;
    for (let i = 0; i < 300; i++) {
      const ready = await request(app.url, "/readyz");
      const cookie = await signIn(app.url, seeded.staff[0], seeded.password).catch(() => null);
      if (ready.status === 200 && cookie) {
        recoveredMs = Date.now() - restarted;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const beforeMore = ledger.deliveries.size;
    while (ledger.deliveries.size < beforeMore + 10) await new Promise((r) => setTimeout(r, 50));
    stop = true;
    await load;
    await settlePendingDeliveries(ledger, app.url);

    console.log(
      `stop/start: readyz while down ${readyDown.status}; recovered ${recoveredMs} ms after the database was back; statuses ${JSON.stringify(statusSummary(ledger))} (while down ${JSON.stringify(statusesWhileDown)})`,
    );
    expect(readyDown.status).toBe(503);
    expect(healthDown.status).toBe(200);
    expect(recoveredMs).toBeGreaterThanOrEqual(0);
    expect(ledger.statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(ledger.serverErrors.map((r) => `${r.status} ${r.text.slice(0, 200)}`)).toEqual([]);
    expect(ledger.pendingDeliveries.size).toBe(0);

    const found = await ledgerAgainstPostgres(url, ledger);
    expect(found.keysClaimedOnce).toBe(true);
    expect(found.deliveriesPresent).toBe(ledger.deliveries.size);
    expect(found.opsDeliveries).toBe(ledger.deliveries.size);
    expect(found.paymentsPresent).toBe(ledger.payments.size);
    expect(found.paymentsTotal - ledger.payments.size).toBeLessThanOrEqual(ledger.unknownPayments);
    const check = dbCheck({ DATABASE_URL: url });
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);
  });
});

function countBy(values: number[]) {
  return values.reduce<Record<number, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});
}

// The app on a login that does not own the tables (decision 0704, addendum of stop 33): with
// DATABASE_MIGRATION_URL the owner migrates and grants, DATABASE_URL's login serves. The whole
// money path works under the narrower rights, and that login can neither rewrite an append-only
// row nor switch off the trigger that guards it (a table's owner could).
import { randomUUID } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp, type AppProcess } from "./support/app";
import { request, signIn } from "./support/client";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { runMixedLoad, statusSummary } from "./support/load";
import { seed, type Seeded } from "./support/seed";
import { dbCheck, ledgerAgainstPostgres } from "./support/verify";

const reason = buildMissingReason() ?? clusterUnavailableReason();
if (reason) console.warn(`ops app-role test skipped: ${reason}`);

describe.skipIf(!!reason)("the app on a login that does not own the tables", () => {
  let cluster: Cluster;
  let seeded: Seeded;
  let app: AppProcess;
  let ownerUrl: string;
  let appUrl: string;

  beforeAll(async () => {
    cluster = startCluster(pgPort(4));
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe("create role pks_owner login");
      await admin.unsafe("create role pks_app login");
      await admin.unsafe("create database pks owner pks_owner");
      // PostgreSQL 15 and later give PUBLIC no CREATE on the public schema; the owner needs it.
      const inDb = postgres(cluster.url("pks"), { max: 1, onnotice: () => {} });
      await inDb.unsafe("alter schema public owner to pks_owner");
      await inDb.end();
    } finally {
      await admin.end();
    }
    const at = (user: string) => `postgres://${user}@127.0.0.1:${cluster.port}/pks`;
    ownerUrl = at("pks_owner");
    appUrl = at("pks_app");
    // Seeded as the owner (it migrates); the app then starts on its own login and grants itself
    // nothing: the owner's connection does.
    seeded = await seed({ driver: "postgres", url: ownerUrl }, { staff: 2, managers: 1, admins: 1 });
    app = await startApp({
      port: appPort(61),
      database: { url: appUrl },
      env: { DATABASE_MIGRATION_URL: ownerUrl },
    });
  });
  afterAll(async () => {
    await app?.stop();
    cluster?.destroy();
  });

  it("serves the money path: deliveries, invoices, payments, reversals, credit notes, voids, payouts, month close", async () => {
    // The mixed load (sign-ins, deliveries with keys, lists, invoices and payments as they come).
    const ledger = await runMixedLoad({ base: app.url, seeded, operations: 8, pauseMs: 20 });
    console.log(`app role: statuses ${JSON.stringify(statusSummary(ledger))}`);
    expect(ledger.serverErrors).toEqual([]);
    const found = await ledgerAgainstPostgres(ownerUrl, ledger);
    expect(found.deliveriesPresent).toBe(ledger.deliveries.size);
    expect(found.paymentsPresent).toBe(ledger.payments.size);

    // Then each correction once, on invoices of its own.
    const staff = await signIn(app.url, seeded.staff[0], seeded.password);
    const manager = await signIn(app.url, seeded.managers[0], seeded.password);
    const admin = await signIn(app.url, seeded.admins[0], seeded.password);
    const post = async (cookie: string, path: string, json: object) => {
      const reply = await request(app.url, path, {
        method: "POST",
        cookie,
        json,
        headers: { "Idempotency-Key": randomUUID() },
      });
      expect(reply.status, `${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
      return reply.body as { id: number };
    };
    const invoices: number[] = [];
    for (let i = 0; i < 3; i++) {
      const delivery = await post(staff, "/api/deliveries", {
        agentId: seeded.agentIds[1],
        tons: "3.00",
        location: "Role yard",
      });
      invoices.push((await post(manager, "/api/invoices", { deliveryId: delivery.id })).id);
    }
    const payment = await post(manager, "/api/payments", { invoiceId: invoices[0], amount: "5000.00" });
    await post(admin, `/api/payments/${payment.id}/reversal`, { reason: "Recorded twice" });
    await post(manager, `/api/invoices/${invoices[1]}/credit-notes`, { amount: "100.00", reason: "Short weight" });
    await post(admin, `/api/invoices/${invoices[2]}/void`, { reason: "Wrong client" });
    await post(admin, `/api/agents/${seeded.agentIds[0]}/payouts`, { amount: "1000.00", method: "cash" });
    await post(admin, "/api/periods/close", { month: "2020-01" });
    const check = dbCheck({ DATABASE_URL: appUrl, DATABASE_MIGRATION_URL: ownerUrl });
    expect(check.output).toContain("all invariants hold");
  });

  it("cannot rewrite an append-only row, nor switch its trigger off", async () => {
    const sql = postgres(appUrl, { max: 1, onnotice: () => {} });
    try {
      const refusals: Record<string, string> = {};
      for (const statement of [
        "update audit_events set action = 'x'",
        "delete from audit_events",
        "truncate audit_events",
        "update payments set amount = amount + 1",
        "delete from credit_notes",
        "delete from agent_payouts",
        "update invoice_lines set amount = 0",
        "delete from invoices",
        "alter table audit_events disable trigger audit_events_no_update_delete",
        "alter table payments disable trigger user",
      ]) {
        refusals[statement] = await sql
          .unsafe(statement)
          .then(() => "allowed")
          .catch((error: { code?: string }) => error.code ?? "error");
      }
      // 42501: permission denied (no right to the statement); 42501 also for "must be owner".
      expect(
        Object.values(refusals).every((code) => code === "42501"),
        JSON.stringify(refusals),
      ).toBe(true);
      // The rights themselves, beside the triggers (which refuse with the same code).
      const rights = await sql<{ t: string; insert: boolean; update: boolean; delete: boolean }[]>`
        select t, has_table_privilege(t, 'INSERT') as insert, has_table_privilege(t, 'UPDATE') as update,
          has_table_privilege(t, 'DELETE') as delete
        from unnest(array['audit_events', 'payments', 'credit_notes', 'agent_payouts', 'invoice_lines', 'invoices', 'deliveries']) as t`;
      expect(Object.fromEntries(rights.map((r) => [r.t, [r.insert, r.update, r.delete]]))).toEqual({
        audit_events: [true, false, false],
        payments: [true, false, false],
        credit_notes: [true, false, false],
        agent_payouts: [true, false, false],
        invoice_lines: [true, false, false],
        invoices: [true, true, false],
        deliveries: [true, true, true],
      });
      // What the app does need is still there: reading the trail and adding to it.
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from audit_events`;
      expect(n).toBeGreaterThan(0);
    } finally {
      await sql.end();
    }
  });
});

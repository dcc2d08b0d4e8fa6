// The app on a login that does not own the tables (decision 0704): with
// DATABASE_MIGRATION_URL the owner migrates and grants, DATABASE_URL's login serves. The whole
// money path works under the narrower rights, and that login can neither rewrite an append-only
// row nor switch off the trigger that guards it (a table's owner could).
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp, type AppProcess } from "./support/app";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { runMixedLoad, statusSummary } from "./support/load";
import { recordEveryCorrection } from "./support/corrections";
import { seed, type Seeded } from "./support/seed";
import { dbCheck, ledgerAgainstPostgres, runScript } from "./support/verify";

const reason = buildMissingReason() ?? clusterUnavailableReason();
if (reason) console.warn(`ops app-role test skipped: ${reason}`);

describe.skipIf(!!reason)("the app on a login that does not own the tables", () => {
  let cluster: Cluster;
  let seeded: Seeded;
  let app: AppProcess;
  let ownerUrl: string;
  let appUrl: string;
  let at: (user: "pks_owner" | "pks_app", database: string) => string;
  let tmp: string;

  /** A new database owned by the owner, as an operator makes one to restore into. */
  async function ownersDatabase(name: string) {
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name} owner pks_owner`);
      // PostgreSQL 15 and later give PUBLIC no CREATE on the public schema; the owner needs it.
      const inDb = postgres(cluster.url(name), { max: 1, onnotice: () => {} });
      await inDb.unsafe("alter schema public owner to pks_owner");
      await inDb.end();
    } finally {
      await admin.end();
    }
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "pks-ops-app-role-"));
    cluster = startCluster(pgPort(4));
    // Both logins sign in with a password, as in production: the backup and restore hand it to
    // pg_dump and pg_restore in PGPASSWORD, never on their command line.
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe("create role pks_owner login password 'owner-secret'");
      await admin.unsafe("create role pks_app login password 'app-secret'");
    } finally {
      await admin.end();
    }
    cluster.requirePasswords(["pks_owner", "pks_app"]);
    await ownersDatabase("pks");
    const passwords = { pks_owner: "owner-secret", pks_app: "app-secret" };
    at = (user, database) => `postgres://${user}:${passwords[user]}@127.0.0.1:${cluster.port}/${database}`;
    ownerUrl = at("pks_owner", "pks");
    appUrl = at("pks_app", "pks");
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
    rmSync(tmp, { recursive: true, force: true });
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
    await recordEveryCorrection(app.url, seeded, { tons: "3.00", location: "Role yard" });
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
        "update agent_payouts set amount = amount + 1",
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
      // A pending payout's decision is the one change the app may make to a payout (decision 1250).
      const [{ decide }] = await sql<{ decide: boolean }[]>`
        select has_column_privilege('agent_payouts', 'status', 'UPDATE') as decide`;
      expect(decide).toBe(true);
      // What the app does need is still there: reading the trail and adding to it.
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from audit_events`;
      expect(n).toBeGreaterThan(0);
    } finally {
      await sql.end();
    }
  });

  // pg_dump as the app's login once failed on drizzle's own schema, which only the owner could
  // read; and the restore checked and verified through the app's login, which has no rights on
  // tables the owner has just restored.
  it("backs up with the app's login, restores as the owner into a new database, and checks it as the app", async () => {
    const file = path.join(tmp, "app-role.dump");
    const appEnv = { DATABASE_URL: appUrl, DATABASE_MIGRATION_URL: ownerUrl };
    const backup = await runScript("db/backup.ts", [file], appEnv);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain("Backup written");

    await ownersDatabase("pks_restored");
    const restoredEnv = {
      DATABASE_URL: at("pks_app", "pks_restored"),
      DATABASE_MIGRATION_URL: at("pks_owner", "pks_restored"),
    };
    // Two URLs that name different databases: refused before anything is restored.
    const mismatched = await runScript("db/restore.ts", [file], { ...restoredEnv, DATABASE_MIGRATION_URL: ownerUrl });
    expect(mismatched.code).not.toBe(0);
    expect(mismatched.output).toContain("must name the same database");

    const restore = await runScript("db/restore.ts", [file], restoredEnv);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toContain("Figures match the backup's manifest");
    expect(restore.output).toContain("all invariants hold");
    const check = dbCheck(restoredEnv);
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);

    // The restored tables are the owner's; the app's login reads them and still cannot rewrite one.
    const sql = postgres(restoredEnv.DATABASE_URL, { max: 1, onnotice: () => {} });
    try {
      const [{ owner }] = await sql<
        { owner: string }[]
      >`select tableowner as owner from pg_tables where tablename = 'payments'`;
      expect(owner).toBe("pks_owner");
      const refused = await sql
        .unsafe("update payments set amount = amount + 1")
        .then(() => "allowed")
        .catch((error: { code?: string }) => error.code);
      expect(refused).toBe("42501");
    } finally {
      await sql.end();
    }

    // Without its manifest a restore cannot say it matches: refused unless --no-manifest.
    unlinkSync(`${file}.manifest.json`);
    await ownersDatabase("pks_unchecked");
    const uncheckedEnv = {
      DATABASE_URL: at("pks_app", "pks_unchecked"),
      DATABASE_MIGRATION_URL: at("pks_owner", "pks_unchecked"),
    };
    const refusedRestore = await runScript("db/restore.ts", [file], uncheckedEnv);
    expect(refusedRestore.code).toBe(1);
    expect(refusedRestore.output).toContain("--no-manifest");
    const unchecked = await runScript("db/restore.ts", [file, "--no-manifest"], uncheckedEnv);
    expect(unchecked.code, unchecked.output).toBe(0);
    expect(unchecked.output).toContain("figures not compared");
    for (const output of [backup.output, restore.output, unchecked.output]) {
      expect(output).not.toContain("app-secret");
      expect(output).not.toContain("owner-secret");
    }
  });
});

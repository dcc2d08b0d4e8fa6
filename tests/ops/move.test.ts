// The move from the embedded database to PostgreSQL (decision 0707): a PGlite directory with a
// history of money (deliveries, invoices, payments, a reversal, a credit note, a void, a payout,
// a closed month, the logo, the audit trail) moved by `npm run db:move` into an empty database
// on a private cluster, owned by a login of its own: every row, sequence, figure and invariant
// comes across, the append-only guards hold afterwards, and the app serves the moved database
// on the two-login setup. Refusals (a non-empty target, an app holding the directory, a source
// that fails the check) leave the target as it was.
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as pgliteDrizzle } from "drizzle-orm/pglite";
import { drizzle as postgresDrizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.server";
import { moveToPostgres } from "../../db/move";
import { collectFigures } from "../../db/ops";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp } from "./support/app";
import { request, signIn } from "./support/client";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { runMixedLoad } from "./support/load";
import { recordEveryCorrection } from "./support/corrections";
import { seed, type Seeded } from "./support/seed";
import { dbCheck, runScript } from "./support/verify";

const reason = buildMissingReason() ?? clusterUnavailableReason();
if (reason) console.warn(`ops move test skipped: ${reason}`);

const TABLE_COUNTS = `select string_agg(format('%s=%s', table_name,
    (xpath('/row/n/text()', query_to_xml(format('select count(*) as n from %I', table_name), false, true, '')))[1]::text),
    ',' order by table_name) as counts
  from information_schema.tables where table_schema = 'public'`;

const LOGO_MD5 = createHash("md5")
  .update(Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)))
  .digest("hex");

describe.skipIf(!!reason)("db:move from PGlite to PostgreSQL", () => {
  let tmp: string;
  let cluster: Cluster;
  let seeded: Seeded;
  let sourceDir: string;
  let ownerAt: (database: string) => string;
  let appAt: (database: string) => string;

  async function ownersDatabase(name: string) {
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database ${name} owner pks_owner`);
      const inDb = postgres(cluster.url(name), { max: 1, onnotice: () => {} });
      await inDb.unsafe("alter schema public owner to pks_owner");
      await inDb.end();
    } finally {
      await admin.end();
    }
  }

  async function tablesIn(url: string) {
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from pg_tables where schemaname = 'public'`;
      return n;
    } finally {
      await sql.end();
    }
  }

  async function pgliteFigures(dir: string) {
    const client = await PGlite.create({ dataDir: dir });
    try {
      const figures = await collectFigures(pgliteDrizzle(client) as unknown as Db);
      const { rows } = await client.query<{ counts: string }>(TABLE_COUNTS);
      return { figures, counts: rows[0].counts };
    } finally {
      await client.close();
    }
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "pks-ops-move-"));
    cluster = startCluster(pgPort(6));
    const admin = postgres(cluster.url(), { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe("create role pks_owner login password 'owner-secret'");
      await admin.unsafe("create role pks_app login password 'app-secret'");
    } finally {
      await admin.end();
    }
    cluster.requirePasswords(["pks_owner", "pks_app"]);
    ownerAt = (database) => `postgres://pks_owner:owner-secret@127.0.0.1:${cluster.port}/${database}`;
    appAt = (database) => `postgres://pks_app:app-secret@127.0.0.1:${cluster.port}/${database}`;

    // A history on PGlite, written through the app as a business would.
    sourceDir = path.join(tmp, "pglite");
    seeded = await seed({ driver: "pglite", dataDir: sourceDir }, { staff: 2, managers: 1, admins: 1 });
    const app = await startApp({ port: appPort(81), database: { pgliteDir: sourceDir } });
    try {
      const ledger = await runMixedLoad({ base: app.url, seeded, operations: 6 });
      expect(ledger.serverErrors).toEqual([]);
      const { invoices, post, manager } = await recordEveryCorrection(app.url, seeded, {
        tons: "3.25",
        location: "Move yard",
      });
      // A payment that stands, beside the reversed one.
      await post(manager, "/api/payments", { invoiceId: invoices[0], amount: "7000.50" });
    } finally {
      expect(await app.stop()).toBe(0);
    }
    // The attachment: a logo holding every byte value, and text COPY must escape.
    const client = await PGlite.create({ dataDir: sourceDir });
    await client.query(
      `insert into business_details (id, company_name, address, logo, logo_type)
       values (1, $1, $2, $3, 'image/png')`,
      ["Àdé PKS \\ Ltd", "Plot 4\tKm 9\nIbadan \\N", new Uint8Array(Array.from({ length: 512 }, (_, i) => i % 256))],
    );
    await client.close();
  });
  afterAll(() => {
    cluster?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("moves every row, sequence and figure in one command, and the app serves it on two logins", async () => {
    const before = await pgliteFigures(sourceDir);
    expect(Number(before.figures.payments)).toBeGreaterThanOrEqual(3);
    await ownersDatabase("moved");

    const move = await runScript("db/move.ts", ["--to", ownerAt("moved")], { PGLITE_DIR: sourceDir });
    console.log(`db:move: ${move.ms} ms\n${move.output}`);
    expect(move.output).toContain("Figures and row counts match the source");
    expect(move.output).toContain("all invariants hold");
    expect(move.output).not.toContain("owner-secret");
    expect(move.code).toBe(0);

    // Same counts in every table, same figures; the source is untouched.
    const sql = postgres(ownerAt("moved"), { max: 1, onnotice: () => {} });
    try {
      const [{ counts }] = await sql.unsafe<{ counts: string }[]>(TABLE_COUNTS);
      expect(counts).toBe(before.counts);
      const [details] = await sql<{ sum: string; company_name: string; address: string }[]>`
        select md5(logo) as sum, company_name, address from business_details`;
      expect(details).toEqual({ sum: LOGO_MD5, company_name: "Àdé PKS \\ Ltd", address: "Plot 4\tKm 9\nIbadan \\N" });
      expect(await collectFigures(postgresDrizzle(sql) as unknown as Db)).toEqual(before.figures);
    } finally {
      await sql.end();
    }
    expect(await pgliteFigures(sourceDir)).toEqual(before);
    const check = dbCheck({ DATABASE_URL: ownerAt("moved") });
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);

    // The app on its own login, the owner granting at start; new rows continue the sequences.
    const app = await startApp({
      port: appPort(82),
      database: { url: appAt("moved") },
      env: { DATABASE_MIGRATION_URL: ownerAt("moved") },
    });
    try {
      const staff = await signIn(app.url, seeded.staff[1], seeded.password);
      const created = await request(app.url, "/api/deliveries", {
        method: "POST",
        cookie: staff,
        json: { agentId: seeded.agentIds[2], tons: "1.50", location: "After the move" },
        headers: { "Idempotency-Key": randomUUID() },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const manager = await signIn(app.url, seeded.managers[0], seeded.password);
      const invoice = await request(app.url, "/api/invoices", {
        method: "POST",
        cookie: manager,
        json: { deliveryId: (created.body as { id: number }).id },
        headers: { "Idempotency-Key": randomUUID() },
      });
      expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
      expect(BigInt((invoice.body as { invoiceNo: string }).invoiceNo)).toBe(
        BigInt(before.figures.highest_invoice_no) + 1n,
      );
    } finally {
      await app.stop();
    }

    // The append-only guards hold on the target: for the app's login and for the owner alike.
    const refusals: Record<string, string> = {};
    for (const [who, url] of [
      ["app", appAt("moved")],
      ["owner", ownerAt("moved")],
    ] as const) {
      const client = postgres(url, { max: 1, onnotice: () => {} });
      try {
        for (const statement of ["update audit_events set action = 'x'", "update payments set amount = amount + 1"])
          refusals[`${who}: ${statement}`] = await client
            .unsafe(statement)
            .then(() => "allowed")
            .catch(() => "refused");
      } finally {
        await client.end();
      }
    }
    expect(Object.values(refusals)).toEqual(["refused", "refused", "refused", "refused"]);
  });

  it("refuses a target that is not empty, and an app that holds the directory", async () => {
    await ownersDatabase("busy");
    const busy = postgres(ownerAt("busy"), { max: 1, onnotice: () => {} });
    await busy.unsafe("create table keep_me (id int)");
    await busy.end();
    const refused = await runScript("db/move.ts", ["--to", ownerAt("busy")], { PGLITE_DIR: sourceDir });
    expect(refused.output).toContain("The target database is not empty");
    expect(refused.code).toBe(1);
    expect(await tablesIn(ownerAt("busy"))).toBe(1);

    await ownersDatabase("while_running");
    const app = await startApp({ port: appPort(83), database: { pgliteDir: sourceDir } });
    try {
      const running = await runScript("db/move.ts", ["--to", ownerAt("while_running")], { PGLITE_DIR: sourceDir });
      expect(running.output).toContain("stop it first");
      expect(running.code).toBe(1);
    } finally {
      await app.stop();
    }
    expect(await tablesIn(ownerAt("while_running"))).toBe(0);

    const usage = await runScript("db/move.ts", [], { PGLITE_DIR: sourceDir });
    expect(usage.output).toContain("usage: npm run db:move -- --to");
    expect(usage.code).toBe(2);
  });

  it("rolls the whole move back when the moved data fails a check, and batches large tables", async () => {
    // A copy of the source whose kept agent balance no longer equals its deliveries.
    const broken = path.join(tmp, "broken");
    const client = await PGlite.create({ dataDir: sourceDir });
    const dump = await client.dumpDataDir("none");
    await client.close();
    const copy = await PGlite.create({ dataDir: broken, loadDataDir: dump });
    await copy.exec(`alter table agent_balances disable trigger user;
      update agent_balances set earned = earned + 1 where agent_id = (select min(agent_id) from agent_balances)`);
    await copy.close();
    await ownersDatabase("rolled_back");
    const failed = await runScript("db/move.ts", ["--to", ownerAt("rolled_back")], { PGLITE_DIR: broken });
    expect(failed.output).toContain("agent balances equal their deliveries and payouts");
    expect(failed.output).toContain("the target is left as it was");
    expect(failed.code).toBe(1);
    expect(await tablesIn(ownerAt("rolled_back"))).toBe(0);

    // In process, with batches of 7 rows: every batch boundary lands each row once.
    await ownersDatabase("batched");
    const lines: string[] = [];
    const result = await moveToPostgres({
      dataDir: sourceDir,
      targetUrl: ownerAt("batched"),
      batchRows: 7,
      log: (line) => lines.push(line),
    });
    expect(result.figures).toEqual((await pgliteFigures(sourceDir)).figures);
    expect(lines.some((l) => /copied deliveries \((\d+) rows\)/.test(l) && Number(RegExp.$1) > 14)).toBe(true);
  });
});

// Backups and migrations take turns (decisions 0700, 0703), a migration never queues every request behind a
// table lock, /readyz is not fooled by a busy pool, and pg_dump/pg_restore get no password on
// their command line.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { admissionDeadline, closeDb, connect, MIGRATION_LOCK_KEY, pingDb, setConnection } from "../../db/client.server";
import type { Executor } from "../../db/client.server";
import { holdSnapshot } from "../../app/models/statement.server";
import { databaseIdentity, libpqConnection } from "../../db/ops-cli";
import { pgPort } from "./support/ports";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { REPO } from "./support/app";
import { runScript } from "./support/verify";

const noCluster = clusterUnavailableReason();
if (noCluster) console.warn(`ops coordination tests on PostgreSQL skipped: ${noCluster}`);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` has settled within `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

describe("connection strings for pg_dump and pg_restore", () => {
  it("keep the password off the command line, in PGPASSWORD", () => {
    expect(libpqConnection("postgres://app:s%40cret@db.example:6432/pks?sslmode=require")).toEqual({
      dbname: "postgres://app@db.example:6432/pks?sslmode=require",
      env: { PGPASSWORD: "s@cret" },
    });
    expect(libpqConnection("postgres://app@127.0.0.1/pks?password=hidden")).toEqual({
      dbname: "postgres://app@127.0.0.1/pks",
      env: { PGPASSWORD: "hidden" },
    });
    expect(libpqConnection("postgres://app@127.0.0.1/pks")).toEqual({
      dbname: "postgres://app@127.0.0.1/pks",
      env: {},
    });
  });

  it("name a database by host, port and database, whoever signs in", () => {
    expect(databaseIdentity("postgres://owner:x@DB.example/pks")).toBe(
      databaseIdentity("postgres://app@db.example:5432/pks"),
    );
    expect(databaseIdentity("postgres://owner@db.example/pks")).not.toBe(
      databaseIdentity("postgres://app@db.example/pks2"),
    );
    expect(databaseIdentity("postgres://owner@db.example/pks")).not.toBe(
      databaseIdentity("postgres://app@db.example:5433/pks"),
    );
  });
});

describe("/readyz on PGlite", () => {
  afterEach(async () => {
    await closeDb();
  });

  it("is ready while the one connection is merely busy", async () => {
    const connection = connect({ driver: "pglite" });
    setConnection(connection);
    const { gate } = await connection;
    const busy = gate.run(() => pause(2_000));
    await pause(10);
    expect(await pingDb(1_000)).toBe(true);
    await busy;
    expect(await pingDb(1_000)).toBe(true);
  });

  // The statement PDF reads its lines in the async context of the request that started it, long
  // after that request's wait budget is spent (decision 0700).
  it("gives each later batch of a statement download its own wait for the connection", async () => {
    const connection = connect({ driver: "pglite" });
    setConnection(connection);
    const { gate } = await connection;
    async function* lines(ex: Executor) {
      for (let i = 0; i < 3; i++) {
        await ex.execute(sql`select 1`);
        yield i;
      }
    }
    const read = await admissionDeadline.run(Date.now() + 20, async () => {
      const held = await holdSnapshot(async () => "head", lines);
      await pause(40);
      const other = gate.run(() => pause(50));
      const batches: number[] = [];
      for await (const batch of held!.rows) batches.push(batch);
      await other;
      return batches;
    });
    expect(read).toEqual([0, 1, 2]);
  });
});

describe.skipIf(!!noCluster)("backups, migrations and /readyz on PostgreSQL", () => {
  let cluster: Cluster;
  let url: string;
  let tmp: string;
  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "pks-ops-coordination-"));
    cluster = startCluster(pgPort(5));
    await cluster.createDatabase("coord");
    url = cluster.url("coord");
    await (await connect({ driver: "postgres", url, max: 1 })).close();
  });
  afterAll(() => {
    cluster?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("a backup waits for a running migration, and an instance with nothing to migrate does not wait for a backup", async () => {
    const other = postgres(url, { max: 1, onnotice: () => {} });
    try {
      // A migration in progress holds the lock exclusively.
      await other`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      const file = path.join(tmp, "during-migration.dump");
      const backup = runScript("db/backup.ts", [file], { DATABASE_URL: url });
      // The backup's session waits on the advisory lock, and has not started dumping.
      let waiting = false;
      for (let i = 0; i < 300 && !waiting && !(await settledWithin(backup, 0)); i++) {
        const rows = await other<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where application_name = 'pks-backup' and wait_event_type = 'Lock' and wait_event = 'advisory'`;
        waiting = rows[0].n > 0;
        if (!waiting) await pause(200);
      }
      expect(waiting).toBe(true);
      await pause(500);
      expect(await settledWithin(backup, 0)).toBe(false);
      expect(existsSync(file)).toBe(false);
      await other`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      const result = await backup;
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain("Waiting for a migration to finish");

      // A backup in progress holds it shared: a start with nothing to migrate goes straight on.
      await other`select pg_advisory_lock_shared(${MIGRATION_LOCK_KEY})`;
      const migrate = runScript("db/migrate.ts", [], { DATABASE_URL: url });
      expect(await settledWithin(migrate, 60_000)).toBe(true);
      expect((await migrate).code).toBe(0);
    } finally {
      await other.end();
    }
  });

  it("a migration that meets a table lock gives up and retries, instead of queueing every request behind it", async () => {
    // A migration folder with one more migration, which needs the agents table to itself.
    const folder = path.join(tmp, "migrations");
    cpSync(path.join(REPO, "db/migrations"), folder, { recursive: true });
    const journalPath = path.join(folder, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as {
      entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
    };
    const last = journal.entries[journal.entries.length - 1];
    journal.entries.push({
      idx: last.idx + 1,
      version: last.version,
      when: Math.max(Date.now(), last.when + 1),
      tag: "9999_ops_probe",
      breakpoints: true,
    });
    writeFileSync(journalPath, JSON.stringify(journal));
    writeFileSync(path.join(folder, "9999_ops_probe.sql"), "ALTER TABLE agents ADD COLUMN ops_probe integer;");
    const env = { DATABASE_URL: url, MIGRATIONS_DIR: folder, DB_MIGRATION_LOCK_TIMEOUT_MS: "500" };

    // A long reader (a report, a download held open) keeps the table shared.
    const reader = postgres(url, { max: 1, onnotice: () => {} });
    const requests = postgres(url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 5_000 } });
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = reader.begin(async (tx) => {
      await tx`lock table agents in access share mode`;
      await released;
    });
    try {
      await pause(200);
      const migrate = runScript("db/migrate.ts", [], env);
      // Requests on that table while the migration tries: each waits at most one lock_timeout.
      const waits: number[] = [];
      while (!(await settledWithin(migrate, 0)) && waits.length < 40) {
        const started = Date.now();
        await requests`select count(*) from agents`.catch(() => {});
        waits.push(Date.now() - started);
        await pause(200);
      }
      const result = await migrate;
      console.log(
        `coordination: reads on agents during the migration's attempts waited at most ${Math.max(...waits)} ms`,
      );
      expect(result.code).not.toBe(0);
      expect(result.output).toContain("trying again");
      expect(result.output).toMatch(/lock timeout/);
      expect(Math.max(...waits)).toBeLessThan(2_000);
    } finally {
      release();
      await held;
      await reader.end();
    }
    // The reader gone, the same migration goes through.
    const again = await runScript("db/migrate.ts", [], env);
    expect(again.code, again.output).toBe(0);
    const [{ n }] = await requests<{ n: number }[]>`
      select count(*)::int as n from information_schema.columns where table_name = 'agents' and column_name = 'ops_probe'`;
    await requests.end();
    expect(n).toBe(1);
  });

  it("/readyz is ready while every pooled connection is busy", async () => {
    const connection = connect({ driver: "postgres", url, max: 1 });
    setConnection(connection);
    try {
      const { db } = await connection;
      const busy = db.execute(sql`select pg_sleep(2)`);
      await pause(100);
      expect(await pingDb(1_000)).toBe(true);
      await busy;
    } finally {
      await closeDb();
    }
  });
});

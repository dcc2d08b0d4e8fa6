// The restore drill (decision 0703), on both drivers: load data, back up while writes go on,
// restore into a fresh database; row counts, sums, the highest invoice number and db:check
// all match the backup's manifest (figures read in the backup's own snapshot).
import { readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as pgliteDrizzle } from "drizzle-orm/pglite";
import { drizzle as postgresDrizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.server";
import { collectFigures, manifestPath, type Manifest } from "../../db/ops";
import { appPort, pgPort } from "./support/ports";
import { buildMissingReason, startApp } from "./support/app";
import { clusterUnavailableReason, startCluster, type Cluster } from "./support/cluster";
import { newLedger, runMixedLoad } from "./support/load";
import { seed } from "./support/seed";
import { dbCheck, runScript } from "./support/verify";

const missing = buildMissingReason();
const noCluster = clusterUnavailableReason();
if (missing) console.warn(`ops restore drills skipped: ${missing}`);
if (noCluster) console.warn(`ops restore drill on PostgreSQL skipped: ${noCluster}`);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pks-ops-restore-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Load until there is something to back up, back up while the load goes on, then stop it. */
async function backUpUnderWrites(
  base: string,
  seeded: Awaited<ReturnType<typeof seed>>,
  backup: () => ReturnType<typeof runScript>,
) {
  const ledger = newLedger();
  let stop = false;
  const load = runMixedLoad({ base, seeded, until: () => stop, ledger, pauseMs: 10 });
  while (ledger.deliveries.size < 20 || ledger.payments.size < 3) await pause(50);
  const before = ledger.deliveries.size;
  const result = await backup();
  // Writes went on during and after the backup.
  while (ledger.deliveries.size < before + 10) await pause(50);
  stop = true;
  await load;
  return { result, ledger };
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(manifestPath(file), "utf8"));
}

describe.skipIf(!!missing || !!noCluster)("restore drill on PostgreSQL", () => {
  let cluster: Cluster;
  beforeAll(() => {
    cluster = startCluster(pgPort(2));
  });
  afterAll(() => cluster?.destroy());

  it("backs up under writes with pg_dump and restores into a fresh database with matching figures", async () => {
    await cluster.createDatabase("live");
    const live = cluster.url("live");
    const seeded = await seed({ driver: "postgres", url: live }, { staff: 3, managers: 2 });
    const app = await startApp({ port: appPort(21), database: { url: live } });
    const file = path.join(dir, "pg.dump");
    let backup;
    try {
      backup = await backUpUnderWrites(app.url, seeded, () =>
        runScript("db/backup.ts", [file], { DATABASE_URL: live }),
      );
    } finally {
      await app.stop();
    }
    expect(backup.result.output).toContain("Backup written");
    expect(backup.result.code).toBe(0);
    const manifest = readManifest(file);

    await cluster.createDatabase("restored");
    const restored = cluster.url("restored");
    const restore = await runScript("db/restore.ts", [file], { DATABASE_URL: restored });
    console.log(
      `restore drill (PostgreSQL): backup ${backup.result.ms} ms under writes, restore ${restore.ms} ms; figures ${JSON.stringify(manifest.figures)}`,
    );
    expect(restore.output).toContain("Figures match the backup's manifest");
    expect(restore.code).toBe(0);

    const sql = postgres(restored, { max: 1, onnotice: () => {} });
    const figures = await collectFigures(postgresDrizzle(sql) as unknown as Db);
    await sql.end();
    expect(figures).toEqual(manifest.figures);
    expect(Number(figures.deliveries)).toBeGreaterThanOrEqual(20);
    expect(figures.highest_invoice_no).not.toBe("");
    expect(figures.attachments).toBe("1");
    // The live database moved on after the snapshot: the backup is one moment, not a blur.
    const liveSql = postgres(live, { max: 1, onnotice: () => {} });
    const liveFigures = await collectFigures(postgresDrizzle(liveSql) as unknown as Db);
    await liveSql.end();
    expect(Number(liveFigures.deliveries)).toBeGreaterThan(Number(figures.deliveries));
    const check = dbCheck({ DATABASE_URL: restored });
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);
  });
});

describe.skipIf(!!missing)("restore drill on PGlite", () => {
  it("backs up through the running app under writes and restores into a new directory with matching figures", async () => {
    const liveDir = path.join(dir, "live");
    const seeded = await seed({ driver: "pglite", dataDir: liveDir }, { staff: 2, managers: 1 });
    const app = await startApp({ port: appPort(22), database: { pgliteDir: liveDir } });
    const file = path.join(dir, "pglite.tar.gz");
    let backup;
    try {
      backup = await backUpUnderWrites(app.url, seeded, () =>
        runScript("db/backup.ts", [file], { PGLITE_DIR: liveDir }),
      );
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(backup.result.output).toContain("Backup written");
    expect(backup.result.code).toBe(0);
    const manifest = readManifest(file);

    const restoredDir = path.join(dir, "restored");
    const restore = await runScript("db/restore.ts", [file], { PGLITE_DIR: restoredDir });
    console.log(
      `restore drill (PGlite): backup ${backup.result.ms} ms under writes, restore ${restore.ms} ms; figures ${JSON.stringify(manifest.figures)}`,
    );
    expect(restore.output).toContain("Figures match the backup's manifest");
    expect(restore.code).toBe(0);

    const client = await PGlite.create({ dataDir: restoredDir });
    const figures = await collectFigures(pgliteDrizzle(client) as unknown as Db);
    await client.close();
    expect(figures).toEqual(manifest.figures);
    expect(Number(figures.deliveries)).toBeGreaterThanOrEqual(20);
    const check = dbCheck({ PGLITE_DIR: restoredDir });
    expect(check.output).toContain("all invariants hold");
    expect(check.code).toBe(0);
  });
});

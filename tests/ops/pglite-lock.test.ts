// One process per PGlite data directory (decision 0704). Two processes on
// one directory both "worked" and overwrote each other's files: the app checked for another
// process only after it had opened and migrated the directory, and the migrate, seed, backup and
// check scripts did not check at all. A lock beside the directory is now taken before PGlite
// opens it, by every entry point.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, DataDirInUseError } from "../../db/client.server";
import { appPort } from "./support/ports";
import { buildMissingReason, REPO, startApp } from "./support/app";
import { seed } from "./support/seed";
import { dbCheck, runScript } from "./support/verify";

const missing = buildMissingReason();
if (missing) console.warn(`ops PGlite lock tests skipped: ${missing}`);

/** Every file of a directory: path, size, modification time and content. */
function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = path.join(at, name);
      const stat = statSync(full);
      if (stat.isDirectory()) walk(full);
      else
        out[path.relative(dir, full)] =
          `${stat.size} ${stat.mtimeMs} ${createHash("sha1").update(readFileSync(full)).digest("hex")}`;
    }
  };
  walk(dir);
  return out;
}

/** A process holding the directory's lock for `holdMs`, as an app does while it starts. */
async function holdLock(dir: string, holdMs: number) {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/ops/support/hold-lock.ts", dir], {
    cwd: REPO,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOLD_MS: String(holdMs),
    },
  });
  let releasedAt = 0;
  let output = "";
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("locked")) resolve();
      if (output.includes("released")) releasedAt = Date.now();
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", () => reject(new Error(`the lock holder exited: ${output}`)));
  });
  await locked;
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return { pid: child.pid!, releasedAt: () => releasedAt, exited, kill: () => child.kill("SIGKILL") };
}

describe.skipIf(!!missing)("one process per PGlite data directory", () => {
  let dir: string;
  let db: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "pks-ops-lock-"));
    db = path.join(dir, "db");
    await seed({ driver: "pglite", dataDir: db }, { staff: 1, managers: 0 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a second app, db:migrate and db:seed on a directory in use fail at start, having touched nothing", async () => {
    const first = await startApp({ port: appPort(71), database: { pgliteDir: db } });
    try {
      // The first app is idle: nothing it does changes a file meanwhile.
      const before = digest(db);
      await expect(startApp({ port: appPort(72), database: { pgliteDir: db } })).rejects.toThrow(
        /PGlite data directory .* is in use by process/,
      );
      for (const script of ["db/migrate.ts", "db/seed.ts"]) {
        const result = await runScript(script, [], { PGLITE_DIR: db });
        expect(result.code, `${script}: ${result.output}`).not.toBe(0);
        expect(result.output).toMatch(/is in use by process \d+/);
      }
      expect(digest(db)).toEqual(before);
      // The first app never noticed, and still answers; db:check goes through it.
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
      const check = dbCheck({ PGLITE_DIR: db });
      expect(check.output).toContain("all invariants hold");
      expect(check.code).toBe(0);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    // Stopped: the lock went with it, and the script opens the directory itself.
    expect(existsSync(`${db}.lock`)).toBe(false);
    expect(dbCheck({ PGLITE_DIR: db }).code).toBe(0);
  });

  it("db:check and db:backup wait for a process that holds the directory without answering (an app starting)", async () => {
    for (const [script, args] of [
      ["db/check.ts", []],
      ["db/backup.ts", [path.join(dir, "while-starting.tar.gz")]],
    ] as const) {
      const holder = await holdLock(db, 2_500);
      const result = await runScript(script, [...args], { PGLITE_DIR: db });
      const endedAt = Date.now();
      await holder.exited;
      expect(result.code, result.output).toBe(0);
      // It opened the directory only once the holder had let it go.
      expect(holder.releasedAt()).toBeGreaterThan(0);
      expect(endedAt).toBeGreaterThan(holder.releasedAt());
    }
  });

  it("takes over the lock of a process that is gone, and refuses one whose process lives", async () => {
    // A lock left behind by a process that was killed: its pid no longer runs.
    const gone = spawnSync(process.execPath, ["-e", ""]).pid;
    const lock = `${db}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: gone, started: "1", host: os.hostname(), since: "2026-01-01" }));
    expect(dbCheck({ PGLITE_DIR: db }).code).toBe(0);
    expect(existsSync(lock)).toBe(false);

    // In this process, straight through connect(): refused before the directory is even made.
    const fresh = path.join(dir, "fresh");
    const holder = await holdLock(fresh, 60_000);
    try {
      const refused = await connect({ driver: "pglite", dataDir: fresh }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DataDirInUseError);
      expect((refused as DataDirInUseError).holder.pid).toBe(holder.pid);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      holder.kill();
      await holder.exited;
    }
    // Killed (no chance to remove its lock): the next process takes the directory.
    const connection = await connect({ driver: "pglite", dataDir: fresh });
    await connection.close();
    expect(existsSync(`${fresh}.lock`)).toBe(false);
  });
});

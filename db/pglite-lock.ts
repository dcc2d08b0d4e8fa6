import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, statSync, unlinkSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// One process per PGlite data directory (decision 0704).
//
// PGlite is PostgreSQL in WebAssembly inside this process, with no postmaster: two processes on
// one directory both open it, both "work", and each overwrites the other's files. A lock file
// beside the directory (`<dir>.lock`, created with O_EXCL, holding the owner's pid, its start
// time and host) is taken before PGlite opens the directory, in every entry point: the app, the
// migrate and seed scripts, and the operator scripts when no app answers them. A lock whose
// process is gone (killed, crashed: nothing removed the file) is stale and taken over.

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The PGlite data directory ${dir} is in use by process ${holder.pid}${holder.host === os.hostname() ? "" : ` on ${holder.host}`}` +
        ` (lock ${dir}.lock, since ${holder.since}). PGlite allows one process per data directory: stop that process` +
        " first (db:backup and db:check ask a running app instead). If no such process exists, remove the lock file.",
    );
    this.name = "DataDirInUseError";
  }
}

type LockHolder = { pid: number; started: string | null; host: string; since: string };

/** A process's start time (clock ticks since boot) on Linux, to tell a reused pid from its first owner. */
function processStarted(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function holderAlive(holder: LockHolder) {
  // Another machine (a shared volume): its processes cannot be seen from here.
  if (holder.host !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const started = processStarted(holder.pid);
  return !(holder.started && started && started !== holder.started);
}

/** The canonical path of a directory that may not exist yet (its parent is created). */
function canonicalDir(dir: string) {
  const resolved = path.resolve(dir);
  mkdirSync(path.dirname(resolved), { recursive: true });
  return path.join(realpathSync(path.dirname(resolved)), path.basename(resolved));
}

function readHolder(lockPath: string): LockHolder | "gone" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return typeof holder.pid === "number" ? holder : "unreadable";
  } catch {
    return "unreadable";
  }
}

function ageMs(file: string) {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Takes the lock of a PGlite data directory for this process; throws DataDirInUseError when a
 * live process holds it. Returns the release (also run when the process exits).
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const dir = canonicalDir(dataDir);
  const lockPath = `${dir}.lock`;
  const me: LockHolder = {
    pid: process.pid,
    started: processStarted(process.pid),
    host: os.hostname(),
    since: new Date().toISOString(),
  };
  const mine = JSON.stringify(me);
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      const release = () => {
        process.removeListener("exit", release);
        try {
          if (readFileSync(lockPath, "utf8") === mine) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    if (holder === "gone") continue;
    // Just created, not yet written: its owner is a moment away from writing it.
    if (holder === "unreadable" && ageMs(lockPath) < 5_000) {
      await sleep(20);
      continue;
    }
    if (holder !== "unreadable" && holderAlive(holder)) throw new DataDirInUseError(dir, holder);
    await takeOverStale(lockPath);
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

/**
 * Removes a stale lock, under a second lock so that two processes finding the same stale file
 * cannot both remove it (the second would remove the first's fresh lock).
 */
async function takeOverStale(lockPath: string) {
  const guard = `${lockPath}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // A taker that died between its two steps leaves its guard behind.
    if (ageMs(guard) > 10_000) unlinkSync(guard);
    await sleep(50);
    return;
  }
  try {
    const holder = readHolder(lockPath);
    const stale =
      holder === "unreadable" ? ageMs(lockPath) >= 5_000 : holder !== "gone" && !holderAlive(holder as LockHolder);
    if (stale) unlinkSync(lockPath);
  } finally {
    closeSync(fd);
    unlinkSync(guard);
  }
}

/** Opens PGlite on a data directory under its lock; `close` closes it and lets the lock go. */
export async function openPglite(options: { dataDir: string; loadDataDir?: Blob }) {
  const release = await lockDataDir(options.dataDir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    // PGlite does not create parent folders, and its error then reads like a failed CREATE SCHEMA.
    mkdirSync(options.dataDir, { recursive: true });
    const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    const close = async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    };
    return { client, close };
  } catch (error) {
    release();
    throw error;
  }
}

// Helpers for the operator scripts (db/backup.ts, db/restore.ts, db/check.ts).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { DataDirInUseError, openPglite, type Db } from "./client.server";
import * as schema from "./schema";

export function pgliteDir(env: NodeJS.ProcessEnv = process.env) {
  return path.resolve(env.PGLITE_DIR ?? "data/pglite");
}

export function opsSocketPath(dataDir: string) {
  return `${path.resolve(dataDir)}.ops.sock`;
}

/** A PostgreSQL client program: PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH. */
export function pgProgram(name: string, env: NodeJS.ProcessEnv = process.env) {
  if (env.PG_BIN) return path.join(env.PG_BIN, name);
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const candidate = path.join(root, v, "bin", name);
      if (existsSync(candidate)) return candidate;
    }
  }
  return name;
}

/** One JSON request to the running app's ops socket; null when no app answers there. */
export function askApp(socketPath: string, request: unknown): Promise<Record<string, unknown> | null> {
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let text = "";
    let connected = false;
    socket.setEncoding("utf8");
    socket.once("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on("data", (chunk) => (text += chunk));
    socket.on("end", () => {
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
    socket.on("error", (error) => (connected ? reject(error) : resolve(null)));
  });
}

/** Opens the configured database for an operator task, without migrating it (PGlite: under its lock). */
export async function openDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ db: Db; close: () => Promise<void>; driver: "postgres" | "pglite" }> {
  if (env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    return {
      db: drizzle(client, { schema }) as unknown as Db,
      close: () => client.end({ timeout: 5 }),
      driver: "postgres",
    };
  }
  const { client, close } = await openPgliteDir(pgliteDir(env));
  const { drizzle } = await import("drizzle-orm/pglite");
  return { db: drizzle(client, { schema }) as unknown as Db, close, driver: "pglite" };
}

/** An existing PGlite database, opened under its directory's lock (never a new one made by mistake). */
export async function openPgliteDir(dir: string) {
  if (!existsSync(path.join(dir, "PG_VERSION"))) throw new Error(`No PGlite database at ${dir}`);
  return openPglite({ dataDir: dir });
}

/** How long a script waits for an app that holds the directory but does not answer yet (it is starting). */
const APP_STARTING_WAIT_MS = 30_000;

/**
 * PGlite, one process per directory: the running app's answer to `request` over its ops socket,
 * or, when no process holds the directory, the directory opened under its lock for this script.
 * A process that holds the lock but does not answer is an app still starting (it locks before
 * it migrates, and listens after): asked again for a while, then a clear failure. The script
 * never opens a directory another process has open.
 */
export async function askAppOrOpen(
  dir: string,
  request: unknown,
  waitMs = APP_STARTING_WAIT_MS,
): Promise<{ answer: Record<string, unknown> } | { opened: Awaited<ReturnType<typeof openPgliteDir>> }> {
  const started = Date.now();
  for (;;) {
    const answer = await askApp(opsSocketPath(dir), request);
    if (answer) return { answer };
    try {
      return { opened: await openPgliteDir(dir) };
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      if (Date.now() - started >= waitMs) {
        throw new Error(
          `${error.message}\nIt did not answer on ${opsSocketPath(dir)} within ${Math.round(waitMs / 1000)} s: if it is the app, it is still starting or stuck; try again once /readyz answers.`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * A libpq connection for pg_dump and pg_restore: the URL without its password, which goes in
 * PGPASSWORD instead, so that it is not on the command line for every user of `ps` to read.
 */
export function libpqConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : parsed.searchParams.get("password");
  parsed.password = "";
  parsed.searchParams.delete("password");
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** What names a PostgreSQL database in a URL: host, port and database (libpq's defaults filled in). */
export function databaseIdentity(url: string) {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username) || process.env.USER || "";
  const host = (parsed.searchParams.get("host") ?? decodeURIComponent(parsed.hostname)) || "localhost";
  const port = parsed.searchParams.get("port") ?? (parsed.port || "5432");
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || parsed.searchParams.get("dbname") || user;
  return `${host.toLowerCase()}:${port}/${database}`;
}

export function fileArgument(usage: string) {
  const file = process.argv.slice(2).find((a) => !a.startsWith("--"));
  if (!file) {
    console.error(usage);
    process.exit(2);
  }
  return path.resolve(file);
}

/** Runs a program (pg_dump, pg_restore, psql) with its output on ours; rejects unless it exits 0. */
export function run(command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}`)),
    );
  });
}

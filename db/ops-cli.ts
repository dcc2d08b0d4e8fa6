// Helpers for the operator scripts (db/backup.ts, db/restore.ts, db/check.ts).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Db } from "./client.server";
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

/** Opens the configured database for an operator task, without migrating it. */
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
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = pgliteDir(env);
  if (!existsSync(path.join(dir, "PG_VERSION"))) throw new Error(`No PGlite database at ${dir}`);
  const client = await PGlite.create({ dataDir: dir });
  return { db: drizzle(client, { schema }) as unknown as Db, close: () => client.close(), driver: "pglite" };
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
export function run(command: string, args: string[]) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} exited with ${code}`)),
    );
  });
}

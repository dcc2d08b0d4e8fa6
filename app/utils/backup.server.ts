// PGlite allows one process per data directory, so while the app runs, `npm run db:backup`
// and `npm run db:check` ask the app itself over a Unix socket next to the data directory
// (owner-only, like the data). ADR 0703.
import { chmodSync, existsSync, unlinkSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { currentConnection } from "~/db.server";
import { backupPglite, collectFigures, findBreaches } from "../../db/ops";

export function opsSocketPath(dataDir: string) {
  return `${path.resolve(dataDir)}.ops.sock`;
}

/** A consistent PGlite backup taken by the running app: other queries wait (bounded) meanwhile. */
export async function backupInProcess(file: string) {
  const connection = await currentConnection();
  if (!connection?.pglite)
    throw new Error("The in-process backup is for PGlite; use pg_dump (npm run db:backup) on PostgreSQL");
  const { client, db } = connection.pglite;
  return backupPglite(client, db, path.resolve(file), (work) => connection.gate.run(work));
}

async function checkInProcess() {
  const connection = await currentConnection();
  if (!connection) throw new Error("no database connection");
  const breaches = await findBreaches(connection.db);
  const figures = await collectFigures(connection.db);
  return { breaches, figures };
}

let server: net.Server | undefined;

function alive(socketPath: string) {
  return new Promise<boolean>((resolve) => {
    const probe = net.connect(socketPath);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", () => resolve(false));
  });
}

/** Listens for `backup` and `check` from the npm scripts. Refuses a data directory another process has open. */
export async function startOpsSocket(dataDir: string) {
  const socketPath = opsSocketPath(dataDir);
  if (existsSync(socketPath)) {
    if (await alive(socketPath)) {
      throw new Error(`Another process is serving ${dataDir} (PGlite allows one process per data directory)`);
    }
    unlinkSync(socketPath);
  }
  server = net.createServer((socket) => {
    let buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", async (chunk) => {
      buffer += chunk;
      const newline = buffer.indexOf("\n");
      if (newline < 0) return;
      const line = buffer.slice(0, newline);
      let answer: unknown;
      try {
        const request = JSON.parse(line) as { command?: string; file?: string };
        if (request.command === "backup" && typeof request.file === "string")
          answer = { ok: true, manifest: await backupInProcess(request.file) };
        else if (request.command === "check") answer = { ok: true, ...(await checkInProcess()) };
        else answer = { ok: false, error: "unknown command" };
      } catch (error) {
        answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      socket.end(`${JSON.stringify(answer)}\n`);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server!.once("error", reject);
    server!.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 0o600);
}

export async function stopOpsSocket() {
  const current = server;
  server = undefined;
  if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
}

// npm run db:backup -- FILE
// PostgreSQL: pg_dump -Fc on a snapshot exported by this script, whose figures (counts, sums,
// highest invoice number) are read in that same snapshot and written to FILE.manifest.json.
// PGlite: the running app writes a consistent data-directory tarball (over its ops socket);
// with the app stopped, this script opens the directory itself. ADR 0703.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { MIGRATION_LOCK_KEY } from "./client.server";
import { askAppOrOpen, fileArgument, libpqConnection, pgliteDir, pgProgram, run } from "./ops-cli";
import { backupPglite, collectFigures, writeManifest, type Manifest } from "./ops";

const file = fileArgument("usage: npm run db:backup -- FILE");
mkdirSync(path.dirname(file), { recursive: true });
const started = Date.now();
let manifest: Manifest;

if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 5,
    connection: { application_name: "pks-backup" },
  });
  try {
    // Shared with other backups, exclusive with a migration (db/client.server.ts takes it to
    // migrate): no migration starts while this dumps, and this waits for one that runs. Taken
    // before the snapshot, so the snapshot is after any migration that was running.
    const [{ free }] = await client<
      { free: boolean }[]
    >`select pg_try_advisory_lock_shared(${MIGRATION_LOCK_KEY}) as free`;
    if (!free) {
      console.log("Waiting for a migration to finish before the backup starts");
      await client`select pg_advisory_lock_shared(${MIGRATION_LOCK_KEY})`;
    }
    manifest = (await client.begin("isolation level repeatable read read only", async (tx) => {
      const [{ snapshot }] = await tx`select pg_export_snapshot() as snapshot`;
      // drizzle reads the client's options (type parsers); a transaction handle has none of its own.
      const inSnapshot = new Proxy(tx, {
        get: (target, key) => (key === "options" ? client.options : Reflect.get(target, key)),
      });
      const figures = await collectFigures(drizzle(inSnapshot as unknown as typeof client) as never);
      // The password goes in PGPASSWORD, never on pg_dump's command line.
      const target = libpqConnection(url);
      await run(
        pgProgram("pg_dump"),
        ["--format=custom", `--snapshot=${snapshot}`, "--no-owner", `--file=${file}`, `--dbname=${target.dbname}`],
        target.env,
      );
      return {
        driver: "postgres",
        format: "pg_dump-custom",
        createdAt: new Date(started).toISOString(),
        tookMs: Date.now() - started,
        figures,
      } as Manifest;
    })) as Manifest;
  } finally {
    // Ending the session lets the shared lock go.
    await client.end({ timeout: 5 });
  }
  writeManifest(file, manifest);
} else {
  // The running app backs up (one process per data directory); with none, this script opens the
  // directory under its lock. An app that is starting is waited for; never both at once.
  const found = await askAppOrOpen(pgliteDir(), { command: "backup", file });
  if ("answer" in found) {
    if (!found.answer.ok) throw new Error(`the app could not back up: ${String(found.answer.error)}`);
    manifest = found.answer.manifest as Manifest;
  } else {
    const { drizzle } = await import("drizzle-orm/pglite");
    const { client, close } = found.opened;
    try {
      manifest = await backupPglite(client, drizzle(client) as never, file);
    } finally {
      await close();
    }
  }
}

console.log(`Backup written to ${file} (${manifest.driver}, ${Date.now() - started} ms)`);
console.log(`Figures: ${JSON.stringify(manifest.figures)}`);

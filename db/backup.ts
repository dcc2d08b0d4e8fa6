// npm run db:backup -- FILE
// PostgreSQL: pg_dump -Fc on a snapshot exported by this script, whose figures (counts, sums,
// highest invoice number) are read in that same snapshot and written to FILE.manifest.json.
// PGlite: the running app writes a consistent data-directory tarball (over its ops socket);
// with the app stopped, this script opens the directory itself. ADR 0703.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { askApp, fileArgument, openDatabase, opsSocketPath, pgliteDir, pgProgram, run } from "./ops-cli";
import { backupPglite, collectFigures, writeManifest, type Manifest } from "./ops";

const file = fileArgument("usage: npm run db:backup -- FILE");
mkdirSync(path.dirname(file), { recursive: true });
const started = Date.now();
let manifest: Manifest;

if (process.env.DATABASE_URL) {
  const url = process.env.DATABASE_URL;
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    manifest = (await client.begin("isolation level repeatable read read only", async (tx) => {
      const [{ snapshot }] = await tx`select pg_export_snapshot() as snapshot`;
      // drizzle reads the client's options (type parsers); a transaction handle has none of its own.
      const inSnapshot = new Proxy(tx, {
        get: (target, key) => (key === "options" ? client.options : Reflect.get(target, key)),
      });
      const figures = await collectFigures(drizzle(inSnapshot as unknown as typeof client) as never);
      await run(pgProgram("pg_dump"), [
        "--format=custom",
        `--snapshot=${snapshot}`,
        "--no-owner",
        `--file=${file}`,
        `--dbname=${url}`,
      ]);
      return {
        driver: "postgres",
        format: "pg_dump-custom",
        createdAt: new Date(started).toISOString(),
        tookMs: Date.now() - started,
        figures,
      } as Manifest;
    })) as Manifest;
  } finally {
    await client.end({ timeout: 5 });
  }
  writeManifest(file, manifest);
} else {
  const answer = await askApp(opsSocketPath(pgliteDir()), { command: "backup", file });
  if (answer) {
    if (!answer.ok) throw new Error(`the app could not back up: ${String(answer.error)}`);
    manifest = answer.manifest as Manifest;
  } else {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    await openDatabase().then((c) => c.close()); // says clearly when there is no database there
    const client = await PGlite.create({ dataDir: pgliteDir() });
    try {
      manifest = await backupPglite(client, drizzle(client) as never, file);
    } finally {
      await client.close();
    }
  }
}

console.log(`Backup written to ${file} (${manifest.driver}, ${Date.now() - started} ms)`);
console.log(`Figures: ${JSON.stringify(manifest.figures)}`);

// npm run db:restore -- FILE
// Restores a db:backup file into the configured database, which must be new and empty
// (PostgreSQL: a freshly created database; PGlite: a data directory that does not exist yet,
// with the app stopped). Then compares the figures with FILE.manifest.json and runs the
// reconciliation check; exits 1 on any difference. ADR 0703.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { askApp, fileArgument, openDatabase, opsSocketPath, pgliteDir, pgProgram, run } from "./ops-cli";
import { collectFigures, compareFigures, describeBreaches, findBreaches, manifestPath, type Manifest } from "./ops";

const file = fileArgument("usage: npm run db:restore -- FILE");
if (!existsSync(file)) throw new Error(`No backup at ${file}`);
const manifest: Manifest | null = existsSync(manifestPath(file))
  ? JSON.parse(readFileSync(manifestPath(file), "utf8"))
  : null;
const started = Date.now();

if (process.env.DATABASE_URL) {
  const { db, close } = await openDatabase();
  const tables = (await db.execute(
    "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')" as never,
  )) as unknown as Array<{ n: number }>;
  await close();
  if (tables[0].n > 0)
    throw new Error("The target database is not empty: create a new database and point DATABASE_URL at it");
  await run(pgProgram("pg_restore"), [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    // As the tables' owner when the app runs on a login of its own (decision 0704).
    `--dbname=${process.env.DATABASE_MIGRATION_URL?.trim() || process.env.DATABASE_URL}`,
    file,
  ]);
} else {
  const dir = pgliteDir();
  if (await askApp(opsSocketPath(dir), { command: "check" }))
    throw new Error(`The app is running on ${dir}: stop it first`);
  if (existsSync(dir) && readdirSync(dir).length)
    throw new Error(`${dir} is not empty: restore into a new directory (PGLITE_DIR) or move it aside`);
  const { PGlite } = await import("@electric-sql/pglite");
  const client = await PGlite.create({ dataDir: dir, loadDataDir: new Blob([new Uint8Array(readFileSync(file))]) });
  await client.close();
}

const { db, close } = await openDatabase();
let failed = false;
try {
  const figures = await collectFigures(db);
  const differences = manifest ? compareFigures(manifest.figures, figures) : [];
  const breaches = await findBreaches(db);
  console.log(`Restored ${path.basename(file)} in ${Date.now() - started} ms`);
  console.log(`Figures: ${JSON.stringify(figures)}`);
  if (!manifest) console.log("No manifest next to the backup: figures not compared");
  else if (differences.length) {
    failed = true;
    console.log(["Figures differ from the backup's manifest:", ...differences.map((d) => `  - ${d}`)].join("\n"));
  } else console.log("Figures match the backup's manifest");
  console.log(describeBreaches(breaches));
  failed ||= breaches.length > 0;
} finally {
  await close();
}
process.exit(failed ? 1 : 0);

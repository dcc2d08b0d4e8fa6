// npm run db:restore -- FILE [--no-manifest]
// Restores a db:backup file into the configured database, which must be new and empty
// (PostgreSQL: a freshly created database; PGlite: a data directory that does not exist yet,
// with the app stopped). Then compares the figures with FILE.manifest.json and runs the
// reconciliation check; exits 1 on any difference, and refuses a backup without its manifest
// unless --no-manifest says to restore it unchecked. ADR 0703.
//
// With DATABASE_MIGRATION_URL (two logins, decision 0704) the restore runs as the owner, into
// the database both URLs name; the owner then grants the app's login its rights, and the
// figures and the check are read as the app's login, as the app will read them.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { grantToAppLogin, openPglite } from "./client.server";
import {
  askApp,
  databaseIdentity,
  fileArgument,
  libpqConnection,
  openDatabase,
  opsSocketPath,
  pgliteDir,
  pgProgram,
  run,
} from "./ops-cli";
import { collectFigures, compareFigures, describeBreaches, findBreaches, manifestPath, type Manifest } from "./ops";

const file = fileArgument("usage: npm run db:restore -- FILE [--no-manifest]");
const withoutManifest = process.argv.slice(2).includes("--no-manifest");
if (!existsSync(file)) throw new Error(`No backup at ${file}`);
const manifest: Manifest | null = existsSync(manifestPath(file))
  ? JSON.parse(readFileSync(manifestPath(file), "utf8"))
  : null;
if (!manifest && !withoutManifest) {
  console.error(
    `No manifest next to the backup (${manifestPath(file)}): nothing to compare the restored figures with.\n` +
      "Put it beside the backup, or run again with --no-manifest to restore without comparing (the check still runs).",
  );
  process.exit(1);
}
const started = Date.now();

if (process.env.DATABASE_URL) {
  const appUrl = process.env.DATABASE_URL;
  const ownerUrl = process.env.DATABASE_MIGRATION_URL?.trim() || undefined;
  if (ownerUrl && databaseIdentity(ownerUrl) !== databaseIdentity(appUrl)) {
    throw new Error(
      `DATABASE_URL names ${databaseIdentity(appUrl)} and DATABASE_MIGRATION_URL names ${databaseIdentity(ownerUrl)}: ` +
        "they must name the same database (the owner restores it, the app's login reads it)",
    );
  }
  // As the tables' owner when the app runs on a login of its own (decision 0704): the database
  // restored into is the one checked for emptiness.
  const target = ownerUrl ?? appUrl;
  const { db, close } = await openDatabase({ ...process.env, DATABASE_URL: target });
  const tables = (await db.execute(
    "select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')" as never,
  )) as unknown as Array<{ n: number }>;
  await close();
  if (tables[0].n > 0)
    throw new Error("The target database is not empty: create a new database and point DATABASE_URL at it");
  // The password goes in PGPASSWORD, never on pg_restore's command line.
  const connection = libpqConnection(target);
  await run(
    pgProgram("pg_restore"),
    ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${connection.dbname}`, file],
    connection.env,
  );
  // The restored tables belong to the owner: the app's login gets its rights before it reads them.
  if (ownerUrl) await grantToAppLogin(ownerUrl, appUrl);
} else {
  const dir = pgliteDir();
  if (await askApp(opsSocketPath(dir), { command: "check" }))
    throw new Error(`The app is running on ${dir}: stop it first`);
  if (existsSync(dir) && readdirSync(dir).length)
    throw new Error(`${dir} is not empty: restore into a new directory (PGLITE_DIR) or move it aside`);
  // Under the directory's lock: a process starting on it meanwhile fails instead of sharing it.
  const { close } = await openPglite({ dataDir: dir, loadDataDir: new Blob([new Uint8Array(readFileSync(file))]) });
  await close();
}

const { db, close } = await openDatabase();
let failed = false;
try {
  const figures = await collectFigures(db);
  const differences = manifest ? compareFigures(manifest.figures, figures) : [];
  const breaches = await findBreaches(db);
  console.log(`Restored ${path.basename(file)} in ${Date.now() - started} ms`);
  console.log(`Figures: ${JSON.stringify(figures)}`);
  if (!manifest) console.log("No manifest next to the backup (--no-manifest): figures not compared");
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

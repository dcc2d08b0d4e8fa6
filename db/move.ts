// npm run db:move -- --to postgres://owner@host:5432/pks
// Moves a business from the embedded database to PostgreSQL, with its whole history (decision
// 0707): the PGlite directory (PGLITE_DIR, the app stopped, the directory locked) is read and
// written into an empty PostgreSQL database in ONE transaction on the target: the same
// migrations, then every table's rows (attachments and the audit trail included), the
// sequences, then the foreign keys checked and the kept totals recounted (db:check). Row counts
// of every table, the money sums and the highest invoice number are compared with the source
// before the transaction commits; any difference rolls it back, so a failed move leaves the
// target as empty as it was, and the source is only read.
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import type postgres from "postgres";
import { MIGRATIONS_DIR, type Db } from "./client.server";
import { askApp, opsSocketPath, openPgliteDir, pgliteDir } from "./ops-cli";
import { collectFigures, compareFigures, describeBreaches, findBreaches } from "./ops";
import * as schema from "./schema";

type PGliteClient = Awaited<ReturnType<typeof openPgliteDir>>["client"];
type Log = (line: string) => void;

/** Rows per COPY batch: a batch is held in memory on both sides, so a million rows never are. */
const BATCH_ROWS = 20_000;

class MoveRefused extends Error {}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function sourceRows<T>(client: PGliteClient, query: string, params: unknown[] = []) {
  return (await client.query<T>(query, params)).rows;
}

/** The migrations the source has applied must be exactly the ones this version ships. */
async function requireCurrentSource(client: PGliteClient) {
  const { readMigrationFiles } = await import("drizzle-orm/migrator");
  const shipped = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m) => m.hash);
  const present = await sourceRows<{ ok: boolean }>(
    client,
    "select to_regclass('drizzle.__drizzle_migrations') is not null as ok",
  );
  const applied = present[0]?.ok
    ? (await sourceRows<{ hash: string }>(client, "select hash from drizzle.__drizzle_migrations order by id")).map(
        (r) => r.hash,
      )
    : [];
  if (applied.length !== shipped.length || applied.some((hash, i) => hash !== shipped[i]))
    throw new MoveRefused(
      `The database in the PGlite directory has ${applied.length} of this version's ${shipped.length} migrations: ` +
        "start the app once on this version (it migrates), stop it, then move",
    );
}

/** Nothing in the target but what PostgreSQL creates itself. */
async function requireEmptyTarget(target: postgres.Sql) {
  const [row] = await target<{ relations: number; schemas: string | null; functions: number }[]>`
    select
      (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
          and n.nspname not like 'pg_temp%') as relations,
      (select string_agg(nspname, ', ') from pg_namespace
        where nspname not in ('public', 'pg_catalog', 'information_schema') and nspname not like 'pg_toast%'
          and nspname not like 'pg_temp%') as schemas,
      (select count(*)::int from pg_proc where pronamespace = 'public'::regnamespace) as functions`;
  if (row.relations > 0 || row.schemas || row.functions > 0)
    throw new MoveRefused(
      "The target database is not empty: create a new, empty database (createdb) and point --to at it",
    );
}

type Table = { name: string; columns: string[]; key: string | null };

/** The source's tables, their columns in order, and a single-column primary key to batch by. */
async function sourceTables(client: PGliteClient): Promise<Table[]> {
  const columns = await sourceRows<{ table_name: string; column_name: string }>(
    client,
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and is_generated = 'NEVER'
     order by table_name, ordinal_position`,
  );
  const keys = await sourceRows<{ table_name: string; column_name: string }>(
    client,
    `select c.conrelid::regclass::text as table_name, min(a.attname) as column_name
     from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
     where c.contype = 'p' and c.connamespace = 'public'::regnamespace
     group by c.conrelid having count(*) = 1`,
  );
  const keyOf = new Map(keys.map((k) => [k.table_name.replace(/^"|"$/g, ""), k.column_name]));
  const tables = new Map<string, Table>();
  for (const c of columns) {
    const table = tables.get(c.table_name) ?? { name: c.table_name, columns: [], key: keyOf.get(c.table_name) ?? null };
    table.columns.push(c.column_name);
    tables.set(c.table_name, table);
  }
  return [...tables.values()];
}

/** One table's rows, COPY'd out of PGlite and into PostgreSQL a batch at a time, in key order. */
async function copyTable(client: PGliteClient, target: postgres.TransactionSql, table: Table, batchRows: number) {
  const list = table.columns.map(quoteIdent).join(", ");
  const name = quoteIdent(table.name);
  // Batch bounds: every batchRows-th key, read once; without a single-column key, one batch.
  const bounds = table.key
    ? (
        await sourceRows<{ k: string }>(
          client,
          `select k::text as k from (select ${quoteIdent(table.key)} as k, row_number() over (order by ${quoteIdent(table.key)}) as n
           from ${name}) b where n % ${batchRows} = 0 order by n`,
        )
      ).map((r) => r.k)
    : [];
  const ranges: Array<[string | null, string | null]> = [];
  let lower: string | null = null;
  for (const upper of bounds) {
    ranges.push([lower, upper]);
    lower = upper;
  }
  ranges.push([lower, null]);
  for (const [from, to] of ranges) {
    const key = table.key ? quoteIdent(table.key) : null;
    // PGlite's COPY takes no parameters: the bounds are literals, cast to the key's own type.
    const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
    const conditions = [
      key && from !== null ? `${key} > ${literal(from)}` : null,
      key && to !== null ? `${key} <= ${literal(to)}` : null,
    ].filter(Boolean);
    const where = conditions.length ? ` where ${conditions.join(" and ")}` : "";
    const select = `select ${list} from ${name}${where}${key ? ` order by ${key}` : ""}`;
    const result = await client.query(`copy (${select}) to '/dev/blob'`);
    const blob = result.blob;
    if (!blob || blob.size === 0) continue;
    const bytes = Buffer.from(await blob.arrayBuffer());
    await pipeline(Readable.from([bytes]), await target.unsafe(`copy ${name} (${list}) from stdin`).writable());
  }
}

/** Exact row counts of every table, for the comparison. */
async function countRows(read: (query: string) => Promise<Array<{ n: string }>>, tables: Table[]) {
  const counts: Record<string, string> = {};
  for (const table of tables) {
    const [row] = await read(`select count(*)::text as n from ${quoteIdent(table.name)}`);
    counts[`rows of ${table.name}`] = row.n;
  }
  return counts;
}

type MoveResult = { tables: number; rows: number; figures: Record<string, string>; ms: number };

/**
 * The move itself: `dataDir` (PGlite, opened under its lock) into the empty database at
 * `targetUrl`. Throws MoveRefused when a precondition fails (nothing touched), and any other
 * error after rolling the target back.
 */
export async function moveToPostgres(options: {
  dataDir: string;
  targetUrl: string;
  log?: Log;
  batchRows?: number;
}): Promise<MoveResult> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  if (await askApp(opsSocketPath(options.dataDir), { command: "check" }))
    throw new MoveRefused(`The app is running on ${options.dataDir}: stop it first`);
  const { default: postgresClient } = await import("postgres");
  const { drizzle: pgliteDrizzle } = await import("drizzle-orm/pglite");
  const { drizzle: postgresDrizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");

  // Under the directory's lock: a process starting on it meanwhile fails instead of sharing it.
  const source = await openPgliteDir(options.dataDir);
  const target = postgresClient(options.targetUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await requireCurrentSource(source.client);
    await requireEmptyTarget(target);
    const sourceDb = pgliteDrizzle(source.client, { schema }) as unknown as Db;
    const tables = await sourceTables(source.client);
    const expectedFigures = await collectFigures(sourceDb);
    const expectedCounts = await countRows((q) => sourceRows(source.client, q), tables);
    const timeZone = (
      await sourceRows<{ tz: string }>(source.client, "select current_setting('pks.time_zone', true) as tz")
    )[0]?.tz;

    const result = await target.begin(async (tx) => {
      // The migrations' statements see the business time zone, as the app's migrator sets it.
      await tx`select set_config('pks.time_zone', ${timeZone || process.env.APP_TIME_ZONE?.trim() || "Africa/Lagos"}, true)`;
      // drizzle's own migrator, inside this transaction: its transaction becomes a savepoint, and
      // drizzle reads the client's options (type parsers), which a transaction handle lacks.
      const inTx = new Proxy(tx, {
        get: (t, key) =>
          key === "begin"
            ? (fn: (s: postgres.TransactionSql) => unknown) => t.savepoint(fn)
            : key === "options"
              ? target.options
              : Reflect.get(t, key),
      });
      const db = postgresDrizzle(inTx as unknown as postgres.Sql, { schema }) as unknown as Db;
      await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
      log(`migrated the target (${tables.length} tables)`);

      // The rows go in as they are, kept totals included: the triggers that keep the totals and
      // guard the append-only tables are off while they load, and the foreign keys are put back
      // (and so checked against every row) once all are in.
      const foreignKeys = await tx<{ table: string; name: string; definition: string }[]>`
        select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
        from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`;
      for (const fk of foreignKeys) await tx.unsafe(`alter table ${fk.table} drop constraint ${quoteIdent(fk.name)}`);
      const triggers = await tx<{ table: string; name: string }[]>`
        select t.tgrelid::regclass::text as table, t.tgname as name from pg_trigger t
        join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and t.tgenabled = 'O' and c.relnamespace = 'public'::regnamespace`;
      for (const t of triggers) await tx.unsafe(`alter table ${t.table} disable trigger ${quoteIdent(t.name)}`);
      // Rows the migrations wrote themselves (counters, defaults) make way for the source's.
      await tx.unsafe(`truncate ${tables.map((t) => quoteIdent(t.name)).join(", ")}`);

      let rows = 0;
      for (const table of tables) {
        if (table.name === "__drizzle_migrations") continue;
        await copyTable(source.client, tx, table, options.batchRows ?? BATCH_ROWS);
        rows += Number(expectedCounts[`rows of ${table.name}`]);
        log(`copied ${table.name} (${expectedCounts[`rows of ${table.name}`]} rows)`);
      }
      // Sequences (identity columns included) continue where the source's stand.
      const sequences = await sourceRows<{ name: string; last_value: string | null; is_called: boolean }>(
        source.client,
        `select quote_ident(schemaname) || '.' || quote_ident(sequencename) as name, last_value::text, last_value is not null as is_called
         from pg_sequences where schemaname = 'public'`,
      );
      for (const s of sequences)
        if (s.last_value !== null)
          await tx`select setval(${s.name}::regclass, ${s.last_value}::bigint, ${s.is_called})`;

      for (const t of triggers) await tx.unsafe(`alter table ${t.table} enable trigger ${quoteIdent(t.name)}`);
      for (const fk of foreignKeys)
        await tx.unsafe(`alter table ${fk.table} add constraint ${quoteIdent(fk.name)} ${fk.definition}`);

      // The same figures, read inside the transaction: any difference and nothing is committed.
      const figures = await collectFigures(db);
      const counts = await countRows((q) => tx.unsafe(q) as never, tables);
      const differences = [...compareFigures(expectedFigures, figures), ...compareFigures(expectedCounts, counts)].map(
        (d) => d.replace("backup", "source").replace("restored", "target"),
      );
      if (differences.length)
        throw new Error(["The target differs from the source:", ...differences.map((d) => `  - ${d}`)].join("\n"));
      const breaches = await findBreaches(db);
      if (breaches.length) throw new Error(describeBreaches(breaches));
      return { tables: tables.length, rows, figures };
    });
    return { ...result, ms: Date.now() - started };
  } finally {
    await target.end({ timeout: 5 });
    await source.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--to");
  const targetUrl = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith("--to="))?.slice("--to=".length);
  if (!targetUrl || !/^postgres(ql)?:\/\//.test(targetUrl)) {
    console.error("usage: npm run db:move -- --to postgres://USER@HOST:5432/DATABASE");
    process.exit(2);
  }
  const dataDir = pgliteDir();
  console.log(`Moving ${dataDir} to ${targetUrl.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")}`);
  try {
    const result = await moveToPostgres({ dataDir, targetUrl, log: (line) => console.log(`  ${line}`) });
    console.log(`Figures: ${JSON.stringify(result.figures)}`);
    console.log("Figures and row counts match the source");
    console.log(describeBreaches([]));
    console.log(`Moved ${result.rows} rows of ${result.tables} tables in ${result.ms} ms`);
    console.log(
      "Start the app with DATABASE_URL set to the target (README, Operations: Moving from PGlite to PostgreSQL).",
    );
  } catch (error) {
    console.error(`db:move failed, the target is left as it was: ${(error as Error).message}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();

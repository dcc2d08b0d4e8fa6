// The database connection of a process: which driver, opened once, and the types models use.
// Its parts live beside it by job: db/limits.ts (waits and time zone), db/migrator.ts (migrating
// and grants), db/pglite-lock.ts (one process per PGlite directory), db/postgres-client.ts
// (postgres.js, its gate and named statements).
import path from "node:path";
import { sql, type ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "./schema";
import { limitsFromEnv, migrationTimeZone, type DbLimits } from "./limits";
import { MIGRATIONS_DIR } from "./migrator";
import { openPglite } from "./pglite-lock";
import { connectPostgres } from "./postgres-client";
import { ConnectionGate } from "./unavailable";

export {
  admissionDeadline,
  ConnectionGate,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  unavailableReason,
} from "./unavailable";
export { limitsFromEnv, type DbLimits } from "./limits";
export { grantToAppLogin, MIGRATION_LOCK_KEY, MIGRATIONS_DIR } from "./migrator";
export { DataDirInUseError, lockDataDir, openPglite } from "./pglite-lock";
export { isPostgresJsWriteAfterClose } from "./postgres-client";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `execute`: postgres-js answers the rows array, PGlite `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Either the database or an open transaction: models accept both so callers can compose. */
export type Executor = Db | Tx;

export type Connection = {
  db: Db;
  driver: "postgres" | "pglite";
  close: () => Promise<void>;
  /** The bounded queue in front of the connection(s). */
  gate: ConnectionGate;
  /** PGlite only: the ungated client and a drizzle over it, for the in-process backup. */
  pglite?: { client: PGlite; db: Db };
  /** `select 1` outside the request gate, for /readyz (decision 0702). */
  ping: () => Promise<boolean>;
};

export type ConnectOptions =
  | { driver: "postgres"; url: string; migrationUrl?: string; max?: number; limits?: Partial<DbLimits> }
  | { driver: "pglite"; dataDir?: string; loadDataDir?: Blob; limits?: Partial<DbLimits> };

/** Opens a connection and applies pending migrations. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const limits = { ...limitsFromEnv(), ...options.limits };
  if (options.driver === "postgres") return connectPostgres(options, limits);
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // A data directory is locked before PGlite opens it: a second process fails here, having
  // touched nothing (decision 0704). In memory there is nothing to share.
  const opened = options.dataDir
    ? await openPglite({ dataDir: options.dataDir, loadDataDir: options.loadDataDir })
    : { client: await PGlite.create({ loadDataDir: options.loadDataDir }), close: undefined };
  const client = opened.client;
  const closeClient = opened.close ?? (() => client.close());
  try {
    await client.query("select set_config('pks.time_zone', $1, false)", [migrationTimeZone()]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await closeClient().catch(() => {});
    throw error;
  }
  // One connection: everyone queues on PGlite's own lock, without limit. The gate bounds the
  // wait; a statement already running cannot be interrupted (no statement_timeout in WASM).
  const gate = new ConnectionGate(1, limits.poolWaitMs);
  // drizzle sees a gated stand-in; the client itself stays ungated for the backup, which
  // holds the gate while it works.
  const gatedMethods: Record<string, unknown> = {
    query: ((...args: Parameters<PGlite["query"]>) => gate.run(() => client.query(...args))) as PGlite["query"],
    exec: ((...args: Parameters<PGlite["exec"]>) => gate.run(() => client.exec(...args))) as PGlite["exec"],
    transaction: ((...args: Parameters<PGlite["transaction"]>) =>
      gate.run(() => client.transaction(...args))) as PGlite["transaction"],
  };
  // Everything else (dumpDataDir, close...) reaches the client itself, bound to it: PGlite
  // keeps its state in private fields that a proxy receiver cannot reach.
  const gated = new Proxy(client, {
    get(target, property) {
      if (typeof property === "string" && property in gatedMethods) return gatedMethods[property];
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const db = drizzle({ client: gated, schema });
  const raw = drizzle(client, { schema });
  return {
    db: db as unknown as Db,
    driver: "pglite",
    gate,
    pglite: { client, db: raw as unknown as Db },
    // The one connection answers when it is free; when it is merely busy (a long page, the
    // in-process backup), the database is there all the same: ready.
    ping: async () => {
      if (client.closed) return false;
      if (gate.busy >= gate.size) return true;
      await gate.run(() => client.query("select 1"));
      return true;
    },
    close: closeClient,
  };
}

/** Inside a transaction: allow this one transaction a longer statement_timeout (a report). */
export async function allowLongStatements(tx: Tx, ms: number) {
  await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(0, Math.floor(ms))}`));
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectOptions {
  if (env.DATABASE_URL) {
    const migrationUrl = env.DATABASE_MIGRATION_URL?.trim() || undefined;
    return { driver: "postgres", url: env.DATABASE_URL, ...(migrationUrl ? { migrationUrl } : {}) };
  }
  return { driver: "pglite", dataDir: path.resolve(env.PGLITE_DIR ?? "data/pglite") };
}

// One connection per process, kept on globalThis so development rebuilds reuse it.
const globalStore = globalThis as unknown as { __pksDb?: Promise<Connection> };

export function setConnection(connection: Promise<Connection> | undefined) {
  globalStore.__pksDb = connection;
}

async function getConnection(): Promise<Connection> {
  if (!globalStore.__pksDb) {
    globalStore.__pksDb = connect(optionsFromEnv()).catch((error) => {
      globalStore.__pksDb = undefined;
      throw error;
    });
  }
  return globalStore.__pksDb;
}

export async function getDb(): Promise<Db> {
  return (await getConnection()).db;
}

export async function getDriver() {
  return (await getConnection()).driver;
}

export async function closeDb() {
  const connection = globalStore.__pksDb;
  globalStore.__pksDb = undefined;
  if (connection) await (await connection).close();
}

/**
 * `select 1` within `timeoutMs`: true when the database answers. For /readyz; never throws.
 * Outside the request gate (`Connection.ping`): a full pool is busy, not down.
 */
export async function pingDb(timeoutMs = 1_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = (async () => (await getConnection()).ping())().catch(() => false);
  try {
    return await Promise.race([ping, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The open connection, if any (for the backup and for tests). */
export async function currentConnection(): Promise<Connection | undefined> {
  return globalStore.__pksDb;
}

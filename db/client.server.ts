import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql, type ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "./schema";
import { ConnectionGate } from "./unavailable";

export {
  admissionDeadline,
  ConnectionGate,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  unavailableReason,
} from "./unavailable";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The rows of a raw `execute`: postgres-js answers the rows array, PGlite `{ rows }`. */
export const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : (result as { rows: T[] }).rows);
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Either the database or an open transaction: models accept both so callers can compose. */
export type Executor = Db | Tx;

/**
 * The business time zone, for migrations and functions that turn a stored time into a business
 * date (0019: an invoice's issue date; 0026: an agent's first activity), set as `pks.time_zone`
 * on every session. The app's own default when APP_TIME_ZONE is not set.
 */
const migrationTimeZone = () => process.env.APP_TIME_ZONE?.trim() || "Africa/Lagos";

type Connection = {
  db: Db;
  driver: "postgres" | "pglite";
  close: () => Promise<void>;
  /** The bounded queue in front of the connection(s). */
  gate: ConnectionGate;
  /** PGlite only: the ungated client and a drizzle over it, for the in-process backup. */
  pglite?: { client: PGlite; db: Db };
};

/**
 * How long a request may wait on the database (ADR 0700). Every bound is an environment
 * variable so an operator can widen one without a release.
 */
export type DbLimits = {
  /** PostgreSQL statement_timeout for the app's sessions. */
  statementTimeoutMs: number;
  /** PostgreSQL lock_timeout: a row or table lock held elsewhere fails fast instead of queueing. */
  lockTimeoutMs: number;
  /** PostgreSQL idle_in_transaction_session_timeout: a forgotten transaction frees its locks. */
  idleInTransactionMs: number;
  /** Longest wait for a free connection (PostgreSQL pool or PGlite's single connection). */
  poolWaitMs: number;
  /** Longest wait to open a PostgreSQL connection. */
  connectTimeoutS: number;
  /** PostgreSQL pool size. */
  poolMax: number;
};

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number) {
  const value = Number(env[name]);
  return env[name] && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): DbLimits {
  return {
    statementTimeoutMs: envNumber(env, "DB_STATEMENT_TIMEOUT_MS", 5_000),
    lockTimeoutMs: envNumber(env, "DB_LOCK_TIMEOUT_MS", 2_000),
    idleInTransactionMs: envNumber(env, "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", 10_000),
    poolWaitMs: envNumber(env, "DB_POOL_WAIT_MS", 3_000),
    connectTimeoutS: envNumber(env, "DB_CONNECT_TIMEOUT_S", 3),
    poolMax: envNumber(env, "DB_POOL_MAX", 10) || 10,
  };
}

export type ConnectOptions =
  | { driver: "postgres"; url: string; migrationUrl?: string; max?: number; limits?: Partial<DbLimits> }
  | { driver: "pglite"; dataDir?: string; loadDataDir?: Blob; limits?: Partial<DbLimits> };

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/**
 * The tables whose rows are never changed or removed once written (decision 0900, 0920, 0980):
 * their append-only triggers refuse it, and the app's own login gets no right to it either, so
 * a login that is not the owner cannot switch the triggers off (only an owner can).
 */
const APPEND_ONLY_TABLES = ["audit_events", "payments", "credit_notes", "agent_payouts", "invoice_lines"];

/**
 * Run by the tables' owner after migrating, at every start (grants are idempotent, and a
 * migration may have added a table): the app's login (`appUrl`'s) may read and write what the
 * app writes, insert but never update or delete the append-only tables, and never delete or
 * truncate invoices. Nothing is done when both URLs are the same login.
 */
async function grantAppRights(owner: import("postgres").Sql, appUrl: string, connectTimeoutS: number) {
  const { default: postgres } = await import("postgres");
  const app = postgres(appUrl, { max: 1, onnotice: () => {}, connect_timeout: connectTimeoutS });
  let role: string;
  try {
    [{ role }] = await app<{ role: string }[]>`select current_user as role`;
  } finally {
    await app.end({ timeout: 5 });
  }
  const [{ me }] = await owner<{ me: string }[]>`select current_user as me`;
  if (role === me) return;
  const who = owner(role);
  await owner`grant usage on schema public to ${who}`;
  await owner`grant select, insert, update, delete on all tables in schema public to ${who}`;
  await owner`grant usage, select, update on all sequences in schema public to ${who}`;
  await owner`revoke update, delete, truncate on ${owner(APPEND_ONLY_TABLES)} from ${who}`;
  await owner`revoke delete, truncate on invoices from ${who}`;
}

/** Opens a connection and applies pending migrations. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const limits = { ...limitsFromEnv(), ...options.limits };
  if (options.driver === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    // Migrations on their own connection, without the request timeouts: an index build on a
    // big table may rightly take longer than any request.
    // With `migrationUrl` (DATABASE_MIGRATION_URL) they run as the tables' owner, and the app's
    // own login gets only the rights it needs (decision 0704, addendum of stop 33).
    const migrator = postgres(options.migrationUrl ?? options.url, {
      max: 1,
      onnotice: () => {},
      connect_timeout: limits.connectTimeoutS,
    });
    try {
      // Several instances may start at once: one migrates, the others wait, then find nothing to do.
      await migrator`select pg_advisory_lock(7261012)`;
      await migrator`select set_config('pks.time_zone', ${migrationTimeZone()}, false)`;
      await migrate(drizzle(migrator, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      if (options.migrationUrl) await grantAppRights(migrator, options.url, limits.connectTimeoutS);
    } finally {
      await migrator.end({ timeout: 5 });
    }
    const max = options.max ?? limits.poolMax;
    ignorePostgresJsWriteAfterClose();
    const client = postgres(options.url, {
      max,
      onnotice: () => {},
      connect_timeout: limits.connectTimeoutS,
      // postgres.js waits up to 20 s (exponential) before reusing a connection that failed;
      // at most 1 s here, so the app is back within seconds of the database (issue 12).
      backoff: (retries: number) => Math.min(0.1 * retries, 1),
      connection: {
        application_name: "pks-back-office",
        // The business time zone, read by the functions that turn a stored time into a business
        // date (migration 0026: an agent's first activity); PGlite's one session sets it below.
        "pks.time_zone": migrationTimeZone(),
        statement_timeout: limits.statementTimeoutMs,
        lock_timeout: limits.lockTimeoutMs,
        idle_in_transaction_session_timeout: limits.idleInTransactionMs,
        // Queries outside transactions go as named statements, kept per connection (decision
        // 0509): drizzle sends them unnamed, which postgres.js does in two round trips (parse
        // and describe, then bind and execute) with a fresh parse each time. Every execution
        // is still planned for its own values, as an unnamed statement is: a plan made once
        // for all values could not use the partial indexes the lists rely on.
        plan_cache_mode: "force_custom_plan",
        // No JIT compilation (decision 0509, addendum): PostgreSQL compiles a query to machine
        // code once its estimated cost passes jit_above_cost, which the client statement's
        // queries do at 100,000 deliveries (an invoice lookup per payment of the period). The
        // compiling took 23 ms of a 29 ms query, on every request; the app's queries are short.
        jit: "off",
      },
    });
    // postgres.js queues without limit once every connection is busy: the gate bounds that
    // wait. Only the entry points drizzle uses are gated; queries inside a transaction run on
    // its reserved connection and pass straight through.
    const gate = new ConnectionGate(max, limits.poolWaitMs);
    const db = drizzle(gateClient(client, gate), { schema });
    return { db: db as unknown as Db, driver: "postgres", gate, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite does not create parent folders, and its error then reads like a failed CREATE SCHEMA.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  await client.query("select set_config('pks.time_zone', $1, false)", [migrationTimeZone()]);
  await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
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
    close: () => client.close(),
  };
}

type PostgresClient = {
  unsafe: (...args: never[]) => { values: () => Promise<unknown> } & Promise<unknown>;
  begin: (...args: never[]) => Promise<unknown>;
};

/**
 * postgres.js 3.4 can throw from a timer when the server closes a connection under it
 * ("Cannot read properties of null (reading 'write')" in connection.js nextWrite): the query
 * on that connection has already failed with CONNECTION_CLOSED, so the throw carries no
 * information, but uncaught it would end the process on every database restart. That one
 * throw is logged and ignored; anything else still ends the process as before. ADR 0700.
 */
function ignorePostgresJsWriteAfterClose() {
  const store = globalThis as unknown as { __pksIgnoreWriteAfterClose?: boolean };
  if (store.__pksIgnoreWriteAfterClose) return;
  store.__pksIgnoreWriteAfterClose = true;
  process.prependListener("uncaughtException", (error) => {
    if (isPostgresJsWriteAfterClose(error)) return;
    // Not ours: behave as Node does without a handler.
    if (process.listenerCount("uncaughtException") === 1) {
      console.error(error);
      process.exit(1);
    }
  });
}

export function isPostgresJsWriteAfterClose(error: unknown) {
  return (
    error instanceof TypeError &&
    error.message === "Cannot read properties of null (reading 'write')" &&
    /postgres[\\/]src[\\/]connection\.js/.test(error.stack ?? "") &&
    /nextWrite/.test(error.stack ?? "")
  );
}

// A stand-in for drizzle: postgres.js itself keeps calling its own (ungated) methods inside.
function gateClient<C extends object>(client: C, gate: ConnectionGate): C {
  const sqlClient = client as unknown as PostgresClient;
  const unsafe = sqlClient.unsafe.bind(sqlClient) as (
    ...args: unknown[]
  ) => { values: () => Promise<unknown> } & Promise<unknown>;
  const begin = sqlClient.begin.bind(sqlClient) as (...args: unknown[]) => Promise<unknown>;
  // postgres.js queries are lazy thenables; drizzle either awaits one or calls .values().
  const gated: Record<string, unknown> = {
    // Named (prepared) statements: see the client's options above.
    unsafe: (query: unknown, params?: unknown, options?: object) => {
      const args = [query, params, { ...options, prepare: true }];
      let started: Promise<unknown> | undefined;
      const run = () => (started ??= gate.run(async () => await unsafe(...args)));
      return {
        values: () => gate.run(async () => await unsafe(...args).values()),
        then: (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) =>
          run().then(onFulfilled, onRejected),
        catch: (onRejected?: (reason: unknown) => unknown) => run().catch(onRejected),
        finally: (onFinally?: () => void) => run().finally(onFinally),
      };
    },
    begin: (...args: unknown[]) => gate.run(() => begin(...args)),
  };
  return new Proxy(client, {
    get(target, property, receiver) {
      if (typeof property === "string" && property in gated) return gated[property];
      return Reflect.get(target, property, receiver);
    },
  });
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
 */
export async function pingDb(timeoutMs = 1_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const ping = (async () => {
    const db = await getDb();
    await db.execute(sql`select 1`);
    return true;
  })().catch(() => false);
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

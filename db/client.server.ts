import { closeSync, mkdirSync, openSync, readFileSync, realpathSync, statSync, unlinkSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql, type ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "./schema";
import { causeChain, ConnectionGate } from "./unavailable";

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
  /** `select 1` outside the request gate, for /readyz (decision 0702, addendum of stop 33). */
  ping: () => Promise<boolean>;
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
  /**
   * PostgreSQL lock_timeout of the migrator: a migration that waits this long for a table lock
   * (a long report, a held download) gives up and tries again, instead of queueing every request
   * on that table behind its own pending lock.
   */
  migrationLockTimeoutMs: number;
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
    migrationLockTimeoutMs: envNumber(env, "DB_MIGRATION_LOCK_TIMEOUT_MS", 5_000),
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
  // drizzle's record of applied migrations: read only, but read by `db:backup` (pg_dump as the
  // app's login dumps every schema and failed on this one; stop 33).
  await owner`grant usage on schema drizzle to ${who}`;
  await owner`grant select on all tables in schema drizzle to ${who}`;
  await owner`grant select on all sequences in schema drizzle to ${who}`;
}

/** The advisory lock key of migrations (exclusive) and backups (shared): decisions 0700, 0703. */
export const MIGRATION_LOCK_KEY = 7261012;
/** Held while the owner grants, so two instances starting at once never grant at the same moment. */
const GRANT_LOCK_KEY = 7261013;
/** How many times a migration that met a lock timeout is tried before the start fails. */
const MIGRATION_ATTEMPTS = 4;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when `error` or anything in its cause chain carries the SQLSTATE `code`. */
function hasCode(error: unknown, code: string) {
  for (const current of causeChain(error)) if ((current as { code?: unknown }).code === code) return true;
  return false;
}

/** Whether the migrations folder holds a migration the database has not applied (drizzle's own rule). */
async function migrationsPending(sqlClient: import("postgres").Sql) {
  const { readMigrationFiles } = await import("drizzle-orm/migrator");
  const files = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  const [{ present }] = await sqlClient<
    { present: boolean }[]
  >`select to_regclass('drizzle.__drizzle_migrations') is not null as present`;
  if (!present) return files.length > 0;
  const [{ last }] = await sqlClient<
    { last: string | null }[]
  >`select max(created_at)::text as last from drizzle.__drizzle_migrations`;
  return files.some((file) => last === null || Number(last) < file.folderMillis);
}

/**
 * Migrations on their own connection, without the request timeouts (an index build on a big
 * table may rightly take longer than any request), as the tables' owner when `migrationUrl` is
 * set; then the grants to the app's login (decision 0704, addendum of stop 33).
 *
 * - Several instances may start at once: one migrates under the advisory lock, the others wait,
 *   then find nothing to do. `db:backup` holds the same lock shared while it dumps, so a
 *   migration never runs in the middle of a backup (and waits for it; decision 0703).
 * - Nothing pending: no lock is taken, so an instance starting during a backup does not wait.
 * - The migration's statements run with `lock_timeout` (DB_MIGRATION_LOCK_TIMEOUT_MS, 5 s): an
 *   ALTER that waits for a table lock would queue every request on that table behind it. It gives
 *   up, the transaction rolls back, and it is tried again a few times before the start fails.
 */
async function migratePostgres(url: string, migrationUrl: string | undefined, limits: DbLimits) {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const migrator = postgres(migrationUrl ?? url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: limits.connectTimeoutS,
    connection: { application_name: "pks-migrate" },
  });
  try {
    await migrator`select set_config('pks.time_zone', ${migrationTimeZone()}, false)`;
    if (await migrationsPending(migrator)) {
      // Waiting for the advisory lock is not bounded: another instance's migration or a backup.
      await migrator`select set_config('lock_timeout', '0', false)`;
      const [{ free }] = await migrator<
        { free: boolean }[]
      >`select pg_try_advisory_lock(${MIGRATION_LOCK_KEY}) as free`;
      if (!free) {
        console.warn("migrations: waiting for another instance's migration or a running backup (db:backup)");
        await migrator`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      }
      await migrator`select set_config('lock_timeout', ${String(limits.migrationLockTimeoutMs)}, false)`;
      for (let attempt = 1; ; attempt++) {
        try {
          await migrate(drizzle(migrator, { schema }), { migrationsFolder: MIGRATIONS_DIR });
          break;
        } catch (error) {
          if (!hasCode(error, "55P03") || attempt >= MIGRATION_ATTEMPTS) throw error;
          console.warn(
            `migrations: a table stayed locked for ${limits.migrationLockTimeoutMs} ms (attempt ${attempt} of ${MIGRATION_ATTEMPTS}); trying again`,
          );
          await sleep(1_000 * attempt);
        }
      }
      await migrator`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
    }
    if (migrationUrl) {
      await migrator`select set_config('lock_timeout', '0', false)`;
      await migrator`select pg_advisory_lock(${GRANT_LOCK_KEY})`;
      await migrator`select set_config('lock_timeout', ${String(limits.migrationLockTimeoutMs)}, false)`;
      await grantAppRights(migrator, url, limits.connectTimeoutS);
      await migrator`select pg_advisory_unlock(${GRANT_LOCK_KEY})`;
    }
  } finally {
    await migrator.end({ timeout: 5 });
  }
}

/**
 * The owner's grants to the app's login, without migrating: for `db:restore`, whose restored
 * tables belong to the owner and must be readable by the app's login before it verifies them.
 */
export async function grantToAppLogin(migrationUrl: string, appUrl: string) {
  const { default: postgres } = await import("postgres");
  const limits = limitsFromEnv();
  const owner = postgres(migrationUrl, { max: 1, onnotice: () => {}, connect_timeout: limits.connectTimeoutS });
  try {
    await owner`select pg_advisory_lock(${GRANT_LOCK_KEY})`;
    await grantAppRights(owner, appUrl, limits.connectTimeoutS);
  } finally {
    await owner.end({ timeout: 5 });
  }
}

// ---- One process per PGlite data directory (decision 0704, addendum of stop 33).
//
// PGlite is PostgreSQL in WebAssembly inside this process, with no postmaster: two processes on
// one directory both open it, both "work", and each overwrites the other's files. A lock file
// beside the directory (`<dir>.lock`, created with O_EXCL, holding the owner's pid, its start
// time and host) is taken before PGlite opens the directory, in every entry point: the app, the
// migrate and seed scripts, and the operator scripts when no app answers them. A lock whose
// process is gone (killed, crashed: nothing removed the file) is stale and taken over.

export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holder: LockHolder,
  ) {
    super(
      `The PGlite data directory ${dir} is in use by process ${holder.pid}${holder.host === os.hostname() ? "" : ` on ${holder.host}`}` +
        ` (lock ${dir}.lock, since ${holder.since}). PGlite allows one process per data directory: stop that process` +
        " first (db:backup and db:check ask a running app instead). If no such process exists, remove the lock file.",
    );
    this.name = "DataDirInUseError";
  }
}

type LockHolder = { pid: number; started: string | null; host: string; since: string };

/** A process's start time (clock ticks since boot) on Linux, to tell a reused pid from its first owner. */
function processStarted(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function holderAlive(holder: LockHolder) {
  // Another machine (a shared volume): its processes cannot be seen from here.
  if (holder.host !== os.hostname()) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  const started = processStarted(holder.pid);
  return !(holder.started && started && started !== holder.started);
}

/** The canonical path of a directory that may not exist yet (its parent is created). */
function canonicalDir(dir: string) {
  const resolved = path.resolve(dir);
  mkdirSync(path.dirname(resolved), { recursive: true });
  return path.join(realpathSync(path.dirname(resolved)), path.basename(resolved));
}

function readHolder(lockPath: string): LockHolder | "gone" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return typeof holder.pid === "number" ? holder : "unreadable";
  } catch {
    return "unreadable";
  }
}

function ageMs(file: string) {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Takes the lock of a PGlite data directory for this process; throws DataDirInUseError when a
 * live process holds it. Returns the release (also run when the process exits).
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  const dir = canonicalDir(dataDir);
  const lockPath = `${dir}.lock`;
  const me: LockHolder = {
    pid: process.pid,
    started: processStarted(process.pid),
    host: os.hostname(),
    since: new Date().toISOString(),
  };
  const mine = JSON.stringify(me);
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      const release = () => {
        process.removeListener("exit", release);
        try {
          if (readFileSync(lockPath, "utf8") === mine) unlinkSync(lockPath);
        } catch {
          // already gone
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    if (holder === "gone") continue;
    // Just created, not yet written: its owner is a moment away from writing it.
    if (holder === "unreadable" && ageMs(lockPath) < 5_000) {
      await sleep(20);
      continue;
    }
    if (holder !== "unreadable" && holderAlive(holder)) throw new DataDirInUseError(dir, holder);
    await takeOverStale(lockPath);
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

/**
 * Removes a stale lock, under a second lock so that two processes finding the same stale file
 * cannot both remove it (the second would remove the first's fresh lock).
 */
async function takeOverStale(lockPath: string) {
  const guard = `${lockPath}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // A taker that died between its two steps leaves its guard behind.
    if (ageMs(guard) > 10_000) unlinkSync(guard);
    await sleep(50);
    return;
  }
  try {
    const holder = readHolder(lockPath);
    const stale =
      holder === "unreadable" ? ageMs(lockPath) >= 5_000 : holder !== "gone" && !holderAlive(holder as LockHolder);
    if (stale) unlinkSync(lockPath);
  } finally {
    closeSync(fd);
    unlinkSync(guard);
  }
}

/** Opens PGlite on a data directory under its lock; `close` closes it and lets the lock go. */
export async function openPglite(options: { dataDir: string; loadDataDir?: Blob }) {
  const release = await lockDataDir(options.dataDir);
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    // PGlite does not create parent folders, and its error then reads like a failed CREATE SCHEMA.
    mkdirSync(options.dataDir, { recursive: true });
    const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
    const close = async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    };
    return { client, close };
  } catch (error) {
    release();
    throw error;
  }
}

/** Opens a connection and applies pending migrations. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const limits = { ...limitsFromEnv(), ...options.limits };
  if (options.driver === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    // With `migrationUrl` (DATABASE_MIGRATION_URL) migrations run as the tables' owner, and the
    // app's own login gets only the rights it needs (decision 0704, addendum of stop 33).
    await migratePostgres(options.url, options.migrationUrl, limits);
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
        // Queries go as named statements, kept per connection, inside transactions too (decision
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
    // /readyz asks on a connection of its own, outside the gate: a busy pool is not a database
    // that is down, and a load balancer must not pull every instance for it (stop 33).
    let pinger: ReturnType<typeof postgres> | undefined;
    const ping = async () => {
      pinger ??= postgres(options.url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: limits.connectTimeoutS,
        idle_timeout: 60,
        backoff: (retries: number) => Math.min(0.1 * retries, 1),
        connection: { application_name: "pks-back-office-readyz", statement_timeout: 1_000 },
      });
      await pinger`select 1`;
      return true;
    };
    const close = async () => {
      await Promise.all([client.end({ timeout: 5 }), pinger?.end({ timeout: 1 })]);
    };
    return { db: db as unknown as Db, driver: "postgres", gate, ping, close };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // A data directory is locked before PGlite opens it: a second process fails here, having
  // touched nothing (decision 0704, addendum of stop 33). In memory there is nothing to share.
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

type PostgresClient = {
  unsafe: (...args: unknown[]) => { values: () => Promise<unknown> } & Promise<unknown>;
  begin: (...args: unknown[]) => Promise<unknown>;
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
  const named = namedStatements(client) as unknown as PostgresClient;
  // postgres.js queries are lazy thenables; drizzle either awaits one or calls .values().
  return overriding(client, {
    unsafe: (...args: unknown[]) => {
      let started: Promise<unknown> | undefined;
      const run = () => (started ??= gate.run(async () => await named.unsafe(...args)));
      return {
        values: () => gate.run(async () => await named.unsafe(...args).values()),
        then: (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) =>
          run().then(onFulfilled, onRejected),
        catch: (onRejected?: (reason: unknown) => unknown) => run().catch(onRejected),
        finally: (onFinally?: () => void) => run().finally(onFinally),
      };
    },
    begin: (...args: unknown[]) => gate.run(() => named.begin(...args)),
  });
}

/**
 * `client` asking for named (prepared) statements (see the client's options above), and so does
 * the connection it hands a transaction's or a savepoint's body (decision 0509, addendum of stop
 * 38): unnamed, each query with values took two round trips (parse and describe, then bind and
 * execute) and a fresh parse of its text. The root client has `begin`, a transaction's `savepoint`.
 */
function namedStatements<C extends object>(client: C): C {
  const own = client as unknown as Partial<Record<"unsafe" | "begin" | "savepoint", (...args: unknown[]) => unknown>>;
  const namedInside = (arg: unknown) =>
    typeof arg === "function" ? (inner: object) => (arg as (sql: object) => unknown)(namedStatements(inner)) : arg;
  const methods: Record<string, unknown> = {
    unsafe: (query: unknown, params?: unknown, options?: object) =>
      own.unsafe!.call(client, query, params, { ...options, prepare: true }),
  };
  for (const name of ["begin", "savepoint"] as const) {
    const method = own[name];
    if (method) methods[name] = (...args: unknown[]) => method.apply(client, args.map(namedInside));
  }
  return overriding(client, methods);
}

/** `client` with the given methods in place of its own; everything else is its own. */
function overriding<C extends object>(client: C, methods: Record<string, unknown>): C {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (typeof property === "string" && Object.hasOwn(methods, property)) return methods[property];
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

// The app's PostgreSQL client: postgres.js with the request bounds (decision 0700), a gate in
// front of its pool (decision 0701), named statements (decision 0509) and its own ping for
// /readyz (decision 0702).
import { migrationTimeZone, type DbLimits } from "./limits";
import { migratePostgres } from "./migrator";
import * as schema from "./schema";
import { ConnectionGate } from "./unavailable";
import type { Connection, Db } from "./client.server";

/** Migrates (as the owner when `migrationUrl` is set), then opens the app's pool. */
export async function connectPostgres(
  options: { url: string; migrationUrl?: string; max?: number },
  limits: DbLimits,
): Promise<Connection> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // With `migrationUrl` (DATABASE_MIGRATION_URL) migrations run as the tables' owner, and the
  // app's own login gets only the rights it needs (decision 0704).
  await migratePostgres(options.url, options.migrationUrl, limits);
  const max = options.max ?? limits.poolMax;
  ignorePostgresJsWriteAfterClose();
  const client = postgres(options.url, {
    max,
    onnotice: () => {},
    connect_timeout: limits.connectTimeoutS,
    // postgres.js waits up to 20 s (exponential) before reusing a connection that failed;
    // at most 1 s here, so the app is back within seconds of the database (decision 0700).
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
      // No JIT compilation (decision 0509): PostgreSQL compiles a query to machine
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
  // that is down, and a load balancer must not pull every instance for it.
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
 * the connection it hands a transaction's or a savepoint's body (decision 0509): unnamed, each
 * query with values took two round trips (parse and describe, then bind and execute) and a fresh
 * parse of its text. The root client has `begin`, a transaction's `savepoint`.
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

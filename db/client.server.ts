import { mkdirSync } from "node:fs";
import path from "node:path";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import * as schema from "./schema";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
/** Either the database or an open transaction: models accept both so callers can compose. */
export type Executor = Db | Tx;

type Connection = { db: Db; driver: "postgres" | "pglite"; close: () => Promise<void> };

export type ConnectOptions =
  | { driver: "postgres"; url: string; max?: number }
  | { driver: "pglite"; dataDir?: string; loadDataDir?: Blob };

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/** Opens a connection and applies pending migrations. */
export async function connect(options: ConnectOptions): Promise<Connection> {
  if (options.driver === "postgres") {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    const client = postgres(options.url, { max: options.max ?? 10, onnotice: () => {} });
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db: db as unknown as Db, driver: "postgres", close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  // PGlite does not create parent folders, and its error then reads like a failed CREATE SCHEMA.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const client = await PGlite.create({ dataDir: options.dataDir, loadDataDir: options.loadDataDir });
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return { db: db as unknown as Db, driver: "pglite", close: () => client.close() };
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ConnectOptions {
  if (env.DATABASE_URL) return { driver: "postgres", url: env.DATABASE_URL };
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

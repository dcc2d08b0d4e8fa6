// Migrating a PostgreSQL database at start, as the tables' owner, and the owner's grants to the
// app's own login (decisions 0700, 0703, 0704).
import path from "node:path";
import * as schema from "./schema";
import { limitsFromEnv, migrationTimeZone, type DbLimits } from "./limits";
import { causeChain } from "./unavailable";

export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? "db/migrations");

/**
 * The tables whose rows are never changed or removed once written (decision 0900, 0920, 0980, 1210):
 * their append-only triggers refuse it, and the app's own login gets no right to it either, so
 * a login that is not the owner cannot switch the triggers off (only an owner can).
 */
const APPEND_ONLY_TABLES = [
  "audit_events",
  "payments",
  "credit_notes",
  "agent_payouts",
  "invoice_lines",
  "client_quality_rules",
];

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
  // A pending payout's decision is the one change the app makes to a payout (decision 1250): its
  // four columns only; the table's trigger still refuses anything but that one change.
  await owner`grant update (status, decided_by, decided_at, decision_reason) on agent_payouts to ${who}`;
  await owner`revoke delete, truncate on invoices from ${who}`;
  // A rate card is never changed; an unused one may be deleted (docs/decisions/1230).
  await owner`revoke update, truncate on rate_cards from ${who}`;
  // drizzle's record of applied migrations: read only, but read by `db:backup` (pg_dump as the
  // app's login dumps every schema and failed on this one).
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
 * set; then the grants to the app's login (decision 0704).
 *
 * - Several instances may start at once: one migrates under the advisory lock, the others wait,
 *   then find nothing to do. `db:backup` holds the same lock shared while it dumps, so a
 *   migration never runs in the middle of a backup (and waits for it; decision 0703).
 * - Nothing pending: no lock is taken, so an instance starting during a backup does not wait.
 * - The migration's statements run with `lock_timeout` (DB_MIGRATION_LOCK_TIMEOUT_MS, 5 s): an
 *   ALTER that waits for a table lock would queue every request on that table behind it. It gives
 *   up, the transaction rolls back, and it is tried again a few times before the start fails.
 */
export async function migratePostgres(url: string, migrationUrl: string | undefined, limits: DbLimits) {
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

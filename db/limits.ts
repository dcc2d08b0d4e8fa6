// How long the app waits on its database, and the business time zone its sessions carry: read
// once from the environment by every way of connecting (decision 0700).
/**
 * The business time zone, for migrations and functions that turn a stored time into a business
 * date (0019: an invoice's issue date; 0026: an agent's first activity), set as `pks.time_zone`
 * on every session. The app's own default when APP_TIME_ZONE is not set.
 */
export const migrationTimeZone = () => process.env.APP_TIME_ZONE?.trim() || "Africa/Lagos";

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

import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve("app") };
// TEST_BCRYPT_COST: new password hashes at bcrypt's lowest cost, honoured only under NODE_ENV=test
// (app/utils/password-cost.server.ts, decision 0840); a production server keeps the full cost.
const env: Record<string, string> = {
  NODE_ENV: "test",
  SESSION_SECRET: "test-secret",
  APP_TIME_ZONE: "Africa/Lagos",
  TEST_BCRYPT_COST: "4",
};
// Database tests check behaviour, not timing: on a busy machine the request bounds (ADR 0700)
// would turn a slow bulk insert or a queue of concurrent writes into a spurious 503. The ops
// tests run the real bounds.
const dbEnv: Record<string, string> = {
  ...env,
  DB_POOL_WAIT_MS: "60000",
  DB_STATEMENT_TIMEOUT_MS: "120000",
  DB_LOCK_TIMEOUT_MS: "60000",
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.js", "db/**/*.test.ts"],
          environment: "node",
          env,
          // Test files share their worker's modules (decision 0840): a fresh process and a fresh
          // import of the app for each file was most of the time these tests took.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // Database tests: each file gets a fresh database cloned from a migrated template,
          // on PGlite (default) or PostgreSQL (TEST_DB_DRIVER=postgres with DATABASE_URL).
          name: "db",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          env: dbEnv,
          globalSetup: ["tests/db/global-setup.ts"],
          setupFiles: ["tests/db/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
          // Each file still gets its own database (setup.ts), and the environment it changed is
          // put back after it; the modules, PGlite's compiled WebAssembly and the password
          // hashing threads are shared by the files of a worker (decision 0840).
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          // Operations tests (tests/ops): the built app as child processes, private PostgreSQL
          // clusters, faults, drains, backups. Two files at a time: each file has its own ports
          // and its own cluster (tests/ops/support/ports.ts), and the files mostly wait on their
          // child processes, so a second one uses the core the first leaves idle (decision 0840).
          name: "ops",
          include: ["tests/ops/**/*.test.ts"],
          environment: "node",
          env,
          testTimeout: 240_000,
          hookTimeout: 180_000,
          pool: "forks",
          maxWorkers: 2,
        },
      },
    ],
  },
});

import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve("app") };
const env: Record<string, string> = { NODE_ENV: "test", SESSION_SECRET: "test-secret", APP_TIME_ZONE: "Africa/Lagos" };

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
          env,
          globalSetup: ["tests/db/global-setup.ts"],
          setupFiles: ["tests/db/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: "forks",
        },
      },
    ],
  },
});

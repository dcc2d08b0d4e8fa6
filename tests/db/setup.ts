import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { connect, setConnection } from "../../db/client.server";
import { resetEnv } from "../../app/utils/env.server";
import { withDatabase } from "./template";

// Each test file gets its own database, cloned from the migrated template: tests never see
// each other's rows, nor the developer's data.
let cleanup: (() => Promise<void>) | undefined;
// Files share their worker's process (isolate: false): what a file changes in the environment
// is put back when it ends, and the app's cached reading of it forgotten.
let envBefore: Record<string, string | undefined> = {};

beforeAll(async () => {
  envBefore = { ...process.env };
  const template = inject("dbTemplate");
  if (template.driver === "pglite") {
    const blob = new Blob([new Uint8Array(readFileSync(template.location))]);
    const connection = connect({ driver: "pglite", loadDataDir: blob });
    setConnection(connection);
    const c = await connection;
    cleanup = () => c.close();
    return;
  }
  const name = `pks_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template.location}`);
  const connection = connect({ driver: "postgres", url: withDatabase(process.env.DATABASE_URL!, name), max: 10 });
  setConnection(connection);
  const c = await connection;
  cleanup = async () => {
    await c.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
});

afterAll(async () => {
  setConnection(undefined);
  await cleanup?.();
  for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
  Object.assign(process.env, envBefore);
  resetEnv();
});

import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { connect } from "../../db/client.server";

export const TEMPLATE_DB = "pks_test_template";

export function testDriver(): "pglite" | "postgres" {
  const driver = process.env.TEST_DB_DRIVER ?? "pglite";
  if (driver !== "pglite" && driver !== "postgres") throw new Error(`Unknown TEST_DB_DRIVER ${driver}`);
  if (driver === "postgres" && !process.env.DATABASE_URL) throw new Error("TEST_DB_DRIVER=postgres needs DATABASE_URL");
  return driver;
}

export function withDatabase(url: string, database: string) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Migrates once; returns what each test file needs to clone a fresh database. */
export async function prepareTemplate(): Promise<{ driver: "pglite" | "postgres"; location: string }> {
  const driver = testDriver();
  if (driver === "pglite") {
    const connection = await connect({ driver: "pglite" });
    // Reach the PGlite client through drizzle's session to dump the migrated data directory.
    const client = (connection.db as unknown as { $client: { dumpDataDir: (c: string) => Promise<Blob> } }).$client;
    const dump = await client.dumpDataDir("gzip");
    const dir = mkdtempSync(path.join(os.tmpdir(), "pks-template-"));
    const file = path.join(dir, "template.tar.gz");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await connection.close();
    return { driver, location: file };
  }
  const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${TEMPLATE_DB} with (force)`);
  await admin.unsafe(`create database ${TEMPLATE_DB}`);
  await admin.end();
  const connection = await connect({ driver: "postgres", url: withDatabase(process.env.DATABASE_URL!, TEMPLATE_DB), max: 1 });
  await connection.close();
  return { driver, location: TEMPLATE_DB };
}

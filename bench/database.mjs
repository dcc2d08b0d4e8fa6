// A fresh database for one bench run: a temporary PGlite directory, or a PostgreSQL database
// (on DATABASE_URL's server) named per run, so a bench never meets another run's or another
// engineer's database. `drop()` removes it afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export async function benchDatabase(driver, name) {
  if (driver === "pglite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), `${name}-`));
    return {
      driver,
      env: { DATABASE_URL: "", PGLITE_DIR: dir },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const { default: postgres } = await import("postgres");
  const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    driver,
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

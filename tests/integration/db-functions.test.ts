// Every PL/pgSQL function and trigger of the database has one current source text in
// db/functions/<function>.sql (docs/database-functions.md). The migrations are the history, the
// files the present: this test migrates a fresh database, then applies every file over it in a
// transaction it rolls back, and fails when anything the files say differs from what the
// migrations left: a function or trigger changed in a file without a migration re-applying it,
// or changed by a migration without its file following.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../app/db.server";
import { rowsOf } from "../../db/client.server";
import type { Executor } from "../../db/client.server";

const DIR = path.resolve("db/functions");

/** Each function's definition and each trigger's, as PostgreSQL prints them back. */
async function definitions(db: Executor) {
  const functions = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`
      select p.proname as name, pg_get_functiondef(p.oid) as definition
      from pg_proc p where p.pronamespace = 'public'::regnamespace order by 1, 2`),
  );
  const triggers = rowsOf<{ name: string; definition: string; enabled: string }>(
    await db.execute(sql`
      select t.tgrelid::regclass::text || '.' || t.tgname as name, pg_get_triggerdef(t.oid) as definition,
        t.tgenabled::text as enabled
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where not t.tgisinternal and c.relnamespace = 'public'::regnamespace order by 1`),
  );
  return { functions, triggers };
}

function sourceFiles() {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((file) => ({ file, text: readFileSync(path.join(DIR, file), "utf8") }));
}

/** A file's statements: separated as in a migration, so a migration can carry the file as it is. */
const statements = (text: string) =>
  text
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter(Boolean);

class RollBack extends Error {}

describe("db/functions: one source text per database function", () => {
  it("names each file after the one function it defines, and defines every function and trigger there is", async () => {
    const db = await getDb();
    const { functions, triggers } = await definitions(db);
    const files = sourceFiles();
    for (const { file, text } of files) {
      const defined = [...text.matchAll(/CREATE OR REPLACE FUNCTION "?(\w+)"?\s*\(/g)].map((m) => m[1]);
      expect(defined, `${file} defines exactly its own function`).toEqual([file.replace(/\.sql$/, "")]);
    }
    expect(files.map((f) => f.file.replace(/\.sql$/, ""))).toEqual([...new Set(functions.map((f) => f.name))].sort());
    const created = files.flatMap(({ text }) =>
      [...text.matchAll(/CREATE (?:OR REPLACE )?(?:CONSTRAINT )?TRIGGER "?(\w+)"?[\s\S]*?\sON "?(\w+)"?/g)].map(
        (m) => `${m[2]}.${m[1]}`,
      ),
    );
    expect(created.sort()).toEqual(triggers.map((t) => t.name).sort());
  });

  it("says what the migrations left: applying every file over a migrated database changes nothing", async () => {
    const db = await getDb();
    const before = await definitions(db);
    let after: typeof before | undefined;
    await db
      .transaction(async (tx) => {
        for (const { text } of sourceFiles())
          for (const statement of statements(text)) await tx.execute(sql.raw(statement));
        after = await definitions(tx);
        throw new RollBack();
      })
      .catch((error) => {
        if (!(error instanceof RollBack)) throw error;
      });
    expect(after!.functions).toEqual(before.functions);
    expect(after!.triggers).toEqual(before.triggers);
    // The rollback left the database as the migrations made it.
    expect(await definitions(db)).toEqual(before);
  });

  it("fails when a file says something else than the migrations (the check can fail)", async () => {
    const db = await getDb();
    const before = await definitions(db);
    let after: typeof before | undefined;
    const plpgsql = sourceFiles().find((f) => statements(f.text)[0].includes("BEGIN"))!;
    const changed = statements(plpgsql.text)[0].replace("BEGIN", "BEGIN\n  -- changed");
    await db
      .transaction(async (tx) => {
        await tx.execute(sql.raw(changed));
        after = await definitions(tx);
        throw new RollBack();
      })
      .catch((error) => {
        if (!(error instanceof RollBack)) throw error;
      });
    expect(after!.functions).not.toEqual(before.functions);
  });
});

// Decision 0509: on PostgreSQL, queries go as named statements (inside transactions too),
// parsed once per connection, and each execution is still planned for its own values; and no query is
// compiled by JIT.
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { connect } from "../../db/client.server";
import { getDb, rowsOf, schema } from "../../app/db.server";
import { testDriver, withDatabase } from "../db/template";
import { isDatabaseUnavailable } from "../../db/unavailable";

/** A connection of its own to this file's database, of one session, so the statements it keeps can be read back. */
async function ownConnection() {
  const [{ name }] = rowsOf<{ name: string }>(await (await getDb()).execute(sql`select current_database() as name`));
  return connect({ driver: "postgres", url: withDatabase(process.env.DATABASE_URL!, name), max: 1 });
}

describe.runIf(testDriver() === "postgres")("named statements on PostgreSQL", () => {
  it("parses a query once per connection and plans every execution for its values", async () => {
    const own = await ownConnection();
    try {
      for (const id of [1, 2, 3, 4, 5, 6, 7]) {
        await own.db.select({ id: schema.clients.id }).from(schema.clients).where(eq(schema.clients.id, id));
      }
      const kept = rowsOf<{ statement: string; generic_plans: string; custom_plans: string }>(
        await own.db.execute(sql`select statement, generic_plans, custom_plans from pg_prepared_statements`),
      ).filter((s) => s.statement.includes('from "clients"'));
      expect(kept).toHaveLength(1);
      // Seven executions, seven plans for their own values; never one plan for all values.
      expect(Number(kept[0].custom_plans)).toBe(7);
      expect(Number(kept[0].generic_plans)).toBe(0);
    } finally {
      await own.close();
    }
  });

  it("names the statements inside transactions and their savepoints too", async () => {
    const own = await ownConnection();
    try {
      const marker = (label: string, id: number) =>
        sql`select ${id}::int as id, ${label}::text as label from clients where id > ${-id} limit 1`;
      for (const id of [1, 2, 3]) {
        await own.db.transaction(async (tx) => {
          await tx.execute(marker("in a transaction", id));
          await tx.transaction(async (inner) => {
            await inner.execute(sql`select ${id}::int as savepoint_id from clients where id > ${-id} limit 1`);
          });
        });
      }
      const kept = rowsOf<{ statement: string; custom_plans: string }>(
        await own.db.execute(sql`select statement, custom_plans from pg_prepared_statements`),
      );
      // One statement each, parsed once and executed three times.
      const inTransaction = kept.filter((s) => s.statement.includes("as label from clients"));
      const inSavepoint = kept.filter((s) => s.statement.includes("as savepoint_id from clients"));
      expect([inTransaction.length, inSavepoint.length]).toEqual([1, 1]);
      expect([Number(inTransaction[0].custom_plans), Number(inSavepoint[0].custom_plans)]).toEqual([3, 3]);
    } finally {
      await own.close();
    }
  });

  it("answers a transaction whose statement's table changed its column types as 'try again', and the next try works", async () => {
    // postgres.js prepares such a statement again by itself outside a transaction, but inside
    // one the transaction is already lost (decision 0509).
    const db = await getDb();
    await db.execute(sql`create table named_probe (id int primary key, v numeric(10,2))`);
    await db.execute(sql`insert into named_probe values (1, 1.50)`);
    const own = await ownConnection();
    try {
      const read = () =>
        own.db.transaction(async (tx) => rowsOf(await tx.execute(sql`select v from named_probe where id = ${1}`)));
      const readAll = () => own.db.execute(sql`select v from named_probe where id > ${0}`).then(rowsOf);
      expect([await read(), await readAll()]).toEqual([[{ v: "1.50" }], [{ v: "1.50" }]]);
      // What a newer instance's migration could do while this one runs.
      await db.execute(sql`alter table named_probe alter column v type numeric(12,3)`);
      const failed = await read().then(
        () => null,
        (error: unknown) => error,
      );
      expect(failed).not.toBeNull();
      expect(isDatabaseUnavailable(failed)).toBe(true);
      expect(await read()).toEqual([{ v: "1.500" }]);
      // Outside a transaction postgres.js tries again by itself.
      expect(await readAll()).toEqual([{ v: "1.500" }]);
    } finally {
      await own.close();
    }
  });

  it("runs the app's sessions without JIT compilation", async () => {
    const [{ jit }] = rowsOf<{ jit: string }>(await (await getDb()).execute(sql`show jit`));
    expect(jit).toBe("off");
  });
});

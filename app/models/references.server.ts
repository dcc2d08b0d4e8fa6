// "Cannot delete X: N rows refer to it": the bounded count behind every refused delete of a
// directory entry (clients, agents), decision 0500 ("Deleting a client or an agent").
import { sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "~/db.server";

/**
 * Counting stops past this many: a client such as Kodan has nearly every delivery (a million in
 * time), and its row stays locked, holding back every write for it, while they are counted.
 */
export const REFERENCES_COUNTED_UP_TO = 100;

/** How many rows of `table` match `where`, counted through its index up to one past the bound. */
export async function countReferences(tx: Executor, table: PgTable, where: SQL): Promise<number> {
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`(select 1 from ${table} where ${where} limit ${REFERENCES_COUNTED_UP_TO + 1}) as referring`);
  return n;
}

/** "1 delivery", "2 deliveries", or past the bound "more than 100 deliveries". */
export function referenceCount(n: number, one: string, many: string): string {
  if (n > REFERENCES_COUNTED_UP_TO) return `more than ${REFERENCES_COUNTED_UP_TO} ${many}`;
  return `${n} ${n === 1 ? one : many}`;
}

// Receivables (docs/decisions/0995): what every client owes today, aged by how long it has been
// due, one row per client and a total over all of them. The buckets are the client statement's
// (app/rules/ageing.ts and its SQL twin): each client's row equals the ageing of its statement
// to today, and a client's credit counts in Current as a negative, so a row adds up to the
// client's balance.
//
// The cost does not grow with the invoices: each client's ageing starts from the statement's
// kept parts (keptAgeingPartsSql in statement.server.ts): its one client_balances row, and of
// client_owed_totals only the due dates of the last 90 days and later, read through its
// (client_id, due_date) key (both kept by the invoice trigger, migrations 0010 and 0025).
import { sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf } from "~/db.server";
import { directoryBatches, encodeNameCursor } from "~/models/directory-list.server";
import { keptAgeingPartsSql } from "~/models/statement.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { ageingBucketSql, type Ageing, type AgeingBucket } from "~/rules/statements.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { add, toFixed } from "~/utils/money";

export const RECEIVABLES_PER_PAGE = 50;

export type Receivable = Ageing & { clientId: number; name: string };
export type ReceivablesPage = { asOf: string; items: Receivable[]; nextCursor: string | null };
export type ReceivablesTotals = Ageing & { asOf: string; clients: number };

const asOfDay = (now: Date) => todayIn(env().APP_TIME_ZONE, now);

/**
 * The ageing buckets of the kept parts `from` gives (one client's, or every client's) as of
 * `asOf`, as a JSON object of exact amounts: the statement's parts, bucketed by its rule.
 */
function bucketsSql(asOf: string, from: SQL) {
  const bucket = ageingBucketSql(asOf, sql.raw("p.due"), sql.raw("p.sign"));
  return sql`(select coalesce(json_object_agg(x.bucket, x.amount), '{}')::text
    from (select ${bucket} as bucket, sum(p.amount)::text as amount from ${from} group by 1) x)`;
}

/** A page of balance rows with their buckets, in one statement (one snapshot). */
export const receivablesPageQuery = (asOf: string, after: string | null, limit: number) => sql`
  select b.client_id as "clientId", c.name, b.owed::text as owed, b.credit::text as credit,
    ${bucketsSql(asOf, sql`(${keptAgeingPartsSql(sql.raw("b.client_id"), asOf)}) p`)} as buckets
  from client_balances b join clients c on c.id = b.client_id
  where (b.owed <> 0 or b.credit <> 0) ${after === null ? sql`` : sql`and lower(c.name) > ${after}`}
  order by lower(c.name)
  limit ${limit}`;

/** Every client's balance summed, with the buckets of all, in one statement. */
export const receivablesTotalsQuery = (asOf: string) => sql`
  select count(*) filter (where b.owed <> 0 or b.credit <> 0)::int as clients,
    coalesce(sum(b.owed), 0)::text as owed, coalesce(sum(b.credit), 0)::text as credit,
    ${bucketsSql(
      asOf,
      sql`client_balances o cross join lateral (${keptAgeingPartsSql(sql.raw("o.client_id"), asOf)}) p
        where o.owed <> 0 or o.credit <> 0`,
    )} as buckets
  from client_balances b`;

/** A balance's ageing: its buckets as the query summed them, and its balance. */
function aged(owed: string, credit: string, bucketsJson: string): Ageing {
  const buckets = JSON.parse(bucketsJson) as Partial<Record<AgeingBucket, string>>;
  const part = (bucket: AgeingBucket) => toFixed(buckets[bucket] ?? "0");
  return {
    current: part("current"),
    d1_30: part("d1_30"),
    d31_60: part("d31_60"),
    d61_90: part("d61_90"),
    over90: part("over90"),
    total: toFixed(add(owed, credit)),
  };
}

type BalanceRow = { clientId: number; name: string; owed: string; credit: string; buckets: string };

/** A page of the clients that owe or hold a credit, by name, 50 at a time. */
export async function listReceivables(
  actor: Actor,
  { after = null, limit = RECEIVABLES_PER_PAGE }: { after?: string | null; limit?: number } = {},
  now = new Date(),
): Promise<ReceivablesPage> {
  assertCan(actor, "client.statement", "receivables");
  const db = await getDb();
  const asOf = asOfDay(now);
  const rows = rowsOf<BalanceRow>(await db.execute(receivablesPageQuery(asOf, after, limit + 1)));
  const page = rows.slice(0, limit);
  const items = page.map((r) => ({
    clientId: Number(r.clientId),
    name: r.name,
    ...aged(r.owed, r.credit, r.buckets),
  }));
  const last = page[page.length - 1];
  return { asOf, items, nextCursor: rows.length > limit && last ? encodeNameCursor(last.name) : null };
}

/** Every client together: the count of those with a balance and the aged total. */
export async function receivablesTotals(actor: Actor, now = new Date()): Promise<ReceivablesTotals> {
  assertCan(actor, "client.statement", "receivables");
  const db = await getDb();
  const asOf = asOfDay(now);
  const [totals] = rowsOf<Omit<BalanceRow, "clientId" | "name"> & { clients: number }>(
    await db.execute(receivablesTotalsQuery(asOf)),
  );
  return { asOf, clients: Number(totals.clients), ...aged(totals.owed, totals.credit, totals.buckets) };
}

/** Every client with a balance, by name, in batches (the CSV export and the full JSON list). */
export const receivableBatches = (actor: Actor, now = new Date(), batchSize = 1000) =>
  directoryBatches((after, limit) => listReceivables(actor, { after, limit }, now), null, batchSize);

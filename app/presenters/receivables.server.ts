// Receivables (docs/decisions/0995): what every client owes today, aged by how long it has been
// due, one row per client and a total over all of them. The buckets are the client statement's
// (app/rules/ageing.ts and its SQL twin): each client's row equals the ageing of its statement
// to today, and a client's credit counts in Current as a negative, so a row adds up to the
// client's balance.
//
// The cost does not grow with the invoices. A client's balance is one row of client_balances,
// and the due dates of the last 90 days and later are rows of client_owed_totals read through
// its (client_id, due_date) key (both kept by the invoice trigger, migrations 0010 and 0025).
// What is owed on older due dates is the balance less those: Over 90 days.
import { and, eq, sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf, schema } from "~/db.server";
import { decodeNameCursor, encodeNameCursor } from "~/models/directory-list.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, ageingBucketSql, type Ageing, type AgeingBucket } from "~/rules/statements.server";
import { addDays, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { add, sub, toFixed } from "~/utils/money";

export const RECEIVABLES_PER_PAGE = 50;
/** Due dates older than this many days before today are all Over 90 days. */
const AGED_WINDOW_DAYS = 90;

export type Receivable = Ageing & { clientId: number; name: string };
export type ReceivablesPage = { asOf: string; items: Receivable[]; nextCursor: string | null };
export type ReceivablesTotals = Ageing & { asOf: string; clients: number };

const b = schema.clientBalances;
const c = schema.clients;
const hasBalance = sql`(${b.owed} <> 0 or ${b.credit} <> 0)`;
/** The balance rows of these clients, in the raw query's alias. */
const ofClients = (ids: number[]) =>
  sql`b.client_id in (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** The cursor of a page (the last client name seen), or "invalid" when it is not one of ours. */
export const readReceivablesCursor = (value: string | null) => decodeNameCursor(value);

const asOfDay = (now: Date) => todayIn(env().APP_TIME_ZONE, now);

/**
 * What the clients whose balance rows `clients` selects owe on due dates from 90 days ago on,
 * by bucket as of `asOf`: per client when `perClient`, else summed. Each client's recent due
 * dates are read through client_owed_totals' key, never the whole table (the scale test's
 * EXPLAIN, at the size of years of unpaid invoices).
 */
function recentOwedQuery(asOf: string, clients: SQL, perClient: boolean) {
  const due = sql.raw("t.due_date");
  const bucket = ageingBucketSql(asOf, due, sql`1`);
  return sql`
    select ${perClient ? sql`b.client_id` : sql`0`} as client_id, ${bucket} as bucket, sum(t.owed)::text as owed
    from client_balances b cross join lateral (
      select t.due_date, t.owed from client_owed_totals t
      where t.client_id = b.client_id and t.due_date >= ${addDays(asOf, -AGED_WINDOW_DAYS)}::date and t.owed <> 0
    ) t
    where b.owed <> 0 and ${clients}
    group by 1, 2`;
}

/** The ageing of one balance: its recent buckets, the rest of what is owed Over 90 days, its credit in Current. */
function aged(owed: string, credit: string, recent: { bucket: AgeingBucket; owed: string }[]): Ageing {
  const sums = Object.fromEntries(AGEING_BUCKETS.map((k) => [k, "0"])) as Record<AgeingBucket, string>;
  for (const r of recent) sums[r.bucket] = toFixed(add(sums[r.bucket], r.owed));
  const recentTotal = add(...recent.map((r) => r.owed));
  return {
    current: toFixed(add(sums.current, credit)),
    d1_30: toFixed(sums.d1_30),
    d31_60: toFixed(sums.d31_60),
    d61_90: toFixed(sums.d61_90),
    over90: toFixed(sub(owed, recentTotal)),
    total: toFixed(add(owed, credit)),
  };
}

type RecentRow = { client_id: number; bucket: AgeingBucket; owed: string };

/** A page of the clients that owe or hold a credit, by name, 50 at a time. */
export async function listReceivables(
  actor: Actor,
  { after = null, limit = RECEIVABLES_PER_PAGE }: { after?: string | null; limit?: number } = {},
  now = new Date(),
): Promise<ReceivablesPage> {
  assertCan(actor, "client.statement", "receivables");
  const db = await getDb();
  const asOf = asOfDay(now);
  const rows = await db
    .select({
      clientId: b.clientId,
      name: c.name,
      owed: sql<string>`${b.owed}::text`,
      credit: sql<string>`${b.credit}::text`,
    })
    .from(b)
    .innerJoin(c, eq(c.id, b.clientId))
    .where(and(hasBalance, after === null ? undefined : sql`lower(${c.name}) > ${after}`))
    .orderBy(sql`lower(${c.name})`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const ids = page.map((r) => r.clientId);
  const recent = ids.length ? rowsOf<RecentRow>(await db.execute(recentOwedQuery(asOf, ofClients(ids), true))) : [];
  const items = page.map((r) => ({
    clientId: r.clientId,
    name: r.name,
    ...aged(
      r.owed,
      r.credit,
      recent.filter((x) => Number(x.client_id) === r.clientId),
    ),
  }));
  const last = page[page.length - 1];
  return { asOf, items, nextCursor: rows.length > limit && last ? encodeNameCursor(last.name) : null };
}

/** Every client together: the count of those with a balance and the aged total. */
export async function receivablesTotals(actor: Actor, now = new Date()): Promise<ReceivablesTotals> {
  assertCan(actor, "client.statement", "receivables");
  const db = await getDb();
  const asOf = asOfDay(now);
  const [[totals], recent] = await Promise.all([
    db
      .select({
        clients: sql<number>`count(*) filter (where ${hasBalance})::int`,
        owed: sql<string>`coalesce(sum(${b.owed}), 0)::text`,
        credit: sql<string>`coalesce(sum(${b.credit}), 0)::text`,
      })
      .from(b),
    db.execute(recentOwedQuery(asOf, sql`true`, false)),
  ]);
  return { asOf, clients: totals.clients, ...aged(totals.owed, totals.credit, rowsOf<RecentRow>(recent)) };
}

/** Every client with a balance, by name, in batches (the CSV export and the full JSON list). */
export async function* receivableBatches(actor: Actor, now = new Date(), batchSize = 500) {
  let after: string | null = null;
  for (;;) {
    const page = await listReceivables(actor, { after, limit: batchSize }, now);
    if (page.items.length) yield page.items;
    if (!page.nextCursor) return;
    after = page.items[page.items.length - 1].name.toLowerCase();
  }
}

/** The SQL of a page's recent due dates, for the scale test's EXPLAIN. */
export const receivablesRecentQuery = (asOf: string, clientIds: number[] | null) =>
  recentOwedQuery(asOf, clientIds ? ofClients(clientIds) : sql`true`, clientIds !== null);

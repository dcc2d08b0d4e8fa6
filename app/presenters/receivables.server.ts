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
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "~/db.server";
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

/** The cursor of a page (the last client name seen), or "invalid" when it is not one of ours. */
export const readReceivablesCursor = (value: string | null) => decodeNameCursor(value);

const asOfDay = (now: Date) => todayIn(env().APP_TIME_ZONE, now);

/**
 * What the balance row `b` (or, with `b` left free, every client) owes on due dates from 90 days
 * ago on, by bucket as of `asOf`, as a JSON object of exact amounts. Each client's recent due
 * dates are read through client_owed_totals' key, never the whole table (the scale test's
 * EXPLAIN, at the size of years of unpaid invoices).
 */
function recentSql(asOf: string, clients: "one" | "all") {
  const bucket = ageingBucketSql(asOf, sql.raw("t.due_date"), sql`1`);
  const from = addDays(asOf, -AGED_WINDOW_DAYS);
  const rows =
    clients === "one"
      ? sql`select ${bucket} as bucket, t.owed from client_owed_totals t
          where t.client_id = b.client_id and t.due_date >= ${from}::date and t.owed <> 0`
      : sql`select ${bucket} as bucket, t.owed from client_balances o cross join lateral (
            select t.due_date, t.owed from client_owed_totals t
            where t.client_id = o.client_id and t.due_date >= ${from}::date and t.owed <> 0
          ) t where o.owed <> 0`;
  return sql`(select coalesce(json_object_agg(x.bucket, x.owed), '{}')::text
    from (select r.bucket, sum(r.owed)::text as owed from (${rows}) r group by 1) x)`;
}

/** A page of balance rows with their recent buckets, in one statement (one snapshot). */
export const receivablesPageQuery = (asOf: string, after: string | null, limit: number) => sql`
  select b.client_id as "clientId", c.name, b.owed::text as owed, b.credit::text as credit,
    ${recentSql(asOf, "one")} as recent
  from client_balances b join clients c on c.id = b.client_id
  where (b.owed <> 0 or b.credit <> 0) ${after === null ? sql`` : sql`and lower(c.name) > ${after}`}
  order by lower(c.name)
  limit ${limit}`;

/** Every client's balance summed, with the recent buckets of all, in one statement. */
export const receivablesTotalsQuery = (asOf: string) => sql`
  select count(*) filter (where b.owed <> 0 or b.credit <> 0)::int as clients,
    coalesce(sum(b.owed), 0)::text as owed, coalesce(sum(b.credit), 0)::text as credit,
    ${recentSql(asOf, "all")} as recent
  from client_balances b`;

/** The ageing of one balance: its recent buckets, the rest of what is owed Over 90 days, its credit in Current. */
function aged(owed: string, credit: string, recentJson: string): Ageing {
  const recent = JSON.parse(recentJson) as Partial<Record<AgeingBucket, string>>;
  const part = (bucket: AgeingBucket) => recent[bucket] ?? "0";
  return {
    current: toFixed(add(part("current"), credit)),
    d1_30: toFixed(part("d1_30")),
    d31_60: toFixed(part("d31_60")),
    d61_90: toFixed(part("d61_90")),
    over90: toFixed(sub(owed, add(...AGEING_BUCKETS.map(part)))),
    total: toFixed(add(owed, credit)),
  };
}

type BalanceRow = { clientId: number; name: string; owed: string; credit: string; recent: string };

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
    ...aged(r.owed, r.credit, r.recent),
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
  return { asOf, clients: Number(totals.clients), ...aged(totals.owed, totals.credit, totals.recent) };
}

/** Every client with a balance, by name, in batches (the CSV export and the full JSON list). */
export async function* receivableBatches(actor: Actor, now = new Date(), batchSize = 1000) {
  let after: string | null = null;
  for (;;) {
    const page = await listReceivables(actor, { after, limit: batchSize }, now);
    if (page.items.length) yield page.items;
    if (!page.nextCursor) return;
    after = page.items[page.items.length - 1].name.toLowerCase();
  }
}

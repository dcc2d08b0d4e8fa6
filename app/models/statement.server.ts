// What a client's statement (docs/decisions/0970) and the Receivables page (decision 0995) stand
// on: the ageing of what a client owes as of a day, read from kept totals, and the one snapshot a
// statement's figures and lines are read in. The statement pages themselves are presenters
// (app/presenters/client-statement.server.ts, agent-statement.server.ts).
import { sql, type SQL } from "drizzle-orm";
import { getDb, getDriver, rowsOf, type Db, type Executor, type Tx } from "~/db.server";
import { AGEING_BUCKETS, ageingBucketSql, type Ageing, type AgeingBucket } from "~/rules/statements.server";
import { add, toFixed } from "~/utils/money";
import { nextBatch } from "~/utils/unavailable.server";

/**
 * The invoice of a payment or credit note (`row.invoice_id`), read by its primary key: the
 * period's payments are found by date and then their invoices one by one, so the cost is the
 * period's, never a hash of every invoice the client ever had (`offset 0` keeps the planner
 * from turning this back into that join). A payment is never on a void invoice (a void invoice
 * has none), and neither is a credit note.
 */
export const invoiceOf = (row: SQL) =>
  sql`select i.id, i.invoice_no, i.client_id, i.payment_status from invoices i where i.id = ${row}.invoice_id offset 0`;

/**
 * What the client `client` (a value, or a column of an outer query) owes now, from its kept
 * totals, as `(due, amount, sign)` rows for the ageing rule as of `asOf`: what is owed on each due
 * date from 90 days before `asOf` on; the rest of what is owed as one row 91 days before it (all
 * Over 90 days); its credit as one row of sign -1 (Current). Read through client_owed_totals' key
 * and the client's one client_balances row, so the cost is its recent due dates, never its
 * history. The statement's ageing and the Receivables page (decision 0995) both start here.
 */
export const keptAgeingPartsSql = (client: SQL, asOf: string) => sql`
  select kt.due_date as due, kt.owed as amount, 1::numeric as sign from client_owed_totals kt
    where kt.client_id = ${client} and kt.due_date >= ${asOf}::date - 90 and kt.owed <> 0
  union all
  select ${asOf}::date - 91, kb.owed - coalesce((select sum(kr.owed) from client_owed_totals kr
      where kr.client_id = ${client} and kr.due_date >= ${asOf}::date - 90), 0), 1::numeric
    from client_balances kb where kb.client_id = ${client}
  union all
  select ${asOf}::date, kb.credit, -1::numeric from client_balances kb where kb.client_id = ${client} and kb.credit <> 0`;

/**
 * The ageing of the balance at `asOf`: per invoice (not void) what it owed at the end of that
 * day (its amount if issued by then, less its payments, withholdings and credit notes dated by then), in the
 * bucket of its due date (app/rules/statements.server.ts; a balance below zero, a credit, is
 * Current). The buckets add up to the closing balance.
 *
 * It starts from what every invoice owes now, kept per due date with owed and credit apart
 * (client_owed_totals, migration 0010), and per client (client_balances, migration 0025). Only
 * the due dates from 90 days before `asOf` on are read one by one: what is owed on older ones is
 * the client's owed total less those, all Over 90 days, and its credit is all Current. So the
 * cost is the client's recent due dates, not its history (as the Receivables page, decision 0995).
 * Only the invoices that changed after `asOf` are read one by one: those issued after it (they
 * owed nothing then: their balance now is taken away) and those paid or credited after it (their
 * balance now is taken away and their balance then added back, each in the bucket of its own
 * sign). For a statement to today that is none.
 */
export async function ageingAsOf(clientId: number, asOf: string, ex?: Executor): Promise<Ageing> {
  const result = await (ex ?? (await getDb())).execute(sql`
    with later_payments as (
      select p.invoice_id, sum(p.amount) as amount from payments p cross join lateral (${invoiceOf(sql.raw("p"))}) i
        where i.client_id = ${clientId} and p.payment_date > ${asOf}::date group by p.invoice_id
    ), later_credits as (
      select c.invoice_id, sum(c.amount) as amount from credit_notes c cross join lateral (${invoiceOf(sql.raw("c"))}) i
        where i.client_id = ${clientId} and c.issue_date > ${asOf}::date group by c.invoice_id
    ), later_withholdings as (
      select w.invoice_id, sum(w.wht + w.vat) as amount from withholdings w
        where w.client_id = ${clientId} and w.withholding_date > ${asOf}::date group by w.invoice_id
    ), changed as (
      select i.id, i.expected_payment_date as due, i.issue_date, i.amount - i.amount_paid - i.amount_withheld - i.amount_credited as now_bal
        from invoices i
        where i.client_id = ${clientId} and i.payment_status <> 'void' and i.issue_date > ${asOf}::date
      union
      select i.id, i.expected_payment_date, i.issue_date, i.amount - i.amount_paid - i.amount_withheld - i.amount_credited
        from invoices i where i.payment_status <> 'void'
          and i.id in (select invoice_id from later_payments union select invoice_id from later_credits
            union select invoice_id from later_withholdings)
    ), parts (due, amount, sign) as (
      ${keptAgeingPartsSql(sql`${clientId}`, asOf)}
      union all
      select x.due, -x.now_bal, x.now_bal from changed x where x.now_bal <> 0
      union all
      select x.due, y.then_bal, y.then_bal
        from changed x
          left join later_payments lp on lp.invoice_id = x.id
          left join later_credits lc on lc.invoice_id = x.id
          left join later_withholdings lw on lw.invoice_id = x.id
          cross join lateral (select case when x.issue_date <= ${asOf}::date
            then x.now_bal + coalesce(lp.amount, 0) + coalesce(lc.amount, 0) + coalesce(lw.amount, 0) else 0 end as then_bal) y
        where y.then_bal <> 0
    )
    select ${ageingBucketSql(asOf, sql.raw("p.due"), sql.raw("p.sign"))} as bucket,
      sum(p.amount)::numeric(20,2)::text as amount
    from parts p
    group by 1`);
  const sums = Object.fromEntries(AGEING_BUCKETS.map((b) => [b, "0.00"])) as Record<AgeingBucket, string>;
  for (const row of rowsOf<{ bucket: AgeingBucket; amount: string }>(result)) sums[row.bucket] = row.amount;
  return { ...sums, total: toFixed(add(...AGEING_BUCKETS.map((b) => sums[b]))) };
}

// ---- One snapshot for a statement (decision 0970).
//
// A statement's figures are several queries: the opening balance, the period's totals, the
// ageing, the lines. Run one after the other on the pool, each sees the database as it is when it
// starts, so a payment committed between two of them showed in some figures and not in others
// (an ageing total that was not the closing balance, lines that did not end at it). They run in
// one read-only REPEATABLE READ transaction instead: one snapshot, no locks taken, no writer
// waits for it. On PGlite (one connection) the transaction holds the connection while it runs,
// as every PGlite transaction does; nothing inside it may use `getDb()`, only its `tx`.

const SNAPSHOT = { isolationLevel: "repeatable read", accessMode: "read only" } as const;

/** `work` in one read-only REPEATABLE READ transaction: every query in it sees the same data. */
export async function inSnapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(work, SNAPSHOT);
}

/**
 * How long a held snapshot waits for its reader to ask for the next batch before letting go: a
 * download that stalls this long fails rather than keep a connection (PGlite's only one) in a
 * transaction. Under PostgreSQL's idle_in_transaction_session_timeout (10 s by default, ADR 0700).
 */
const SNAPSHOT_READER_STALL_MS = 5_000;

/**
 * `head(tx)` in one read-only REPEATABLE READ transaction that stays open for `rows(tx, head)`, a
 * stream read as the response is sent. Null (and the transaction ended) when `head` finds
 * nothing. The transaction ends when the rows are read to the end, when the reader stops
 * (`return`, a cancelled download) or fails, or after `stallMs` without a call for more; a call
 * after that fails, so a stalled download fails rather than end short.
 */
export async function holdSnapshot<H, B>(
  head: (tx: Tx) => Promise<H | null>,
  rows: (ex: Executor, head: H) => AsyncIterator<B>,
  stallMs = SNAPSHOT_READER_STALL_MS,
): Promise<{ head: H; rows: AsyncIterableIterator<B> } | null> {
  const db = await getDb();
  if ((await getDriver()) === "pglite") return figuresInSnapshot(db, head, rows);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let opened: (value: { head: H | null; tx: Tx }) => void = () => {};
  const open = new Promise<{ head: H | null; tx: Tx }>((resolve) => (opened = resolve));
  const ended = db.transaction(async (tx) => {
    const value = await head(tx);
    opened({ head: value, tx });
    if (value !== null) await released;
  }, SNAPSHOT);
  // Seen by `close`; a failure before the head is read rejects the race below.
  ended.catch(() => {});
  const { head: value, tx } = await Promise.race([open, ended.then(() => open)]);
  if (value === null) {
    await ended;
    return null;
  }
  const source = rows(tx, value);
  let state: "open" | "closed" | "stalled" = "open";
  let timer: NodeJS.Timeout | undefined;
  const close = async () => {
    clearTimeout(timer);
    if (state === "open") state = "closed";
    release();
    await ended;
  };
  const waitForReader = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state = "stalled";
      release();
      void source.return?.()?.catch(() => {});
    }, stallMs);
  };
  waitForReader();
  const iterator: AsyncIterableIterator<B> = {
    async next() {
      clearTimeout(timer);
      if (state === "stalled") throw new Error(`The download stalled for ${stallMs} ms and was stopped`);
      if (state === "closed") return { done: true, value: undefined };
      try {
        const result = await source.next();
        if (result.done) await close();
        else waitForReader();
        return result;
      } catch (error) {
        await close().catch(() => {});
        throw error;
      }
    },
    async return() {
      clearTimeout(timer);
      if (state === "open") await source.return?.();
      await close();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return { head: value, rows: iterator };
}

/**
 * PGlite's form of `holdSnapshot`: the figures in one snapshot, the rows read batch by batch as
 * the reader asks, each on its own. PGlite has one connection: a transaction held at the reader's
 * pace (a slow phone downloading five years) would make every other request wait behind it, then
 * answer 503. So there a payment recorded while the lines are being sent can show in them
 * (decision 0970); the figures still agree with one another.
 */
async function figuresInSnapshot<H, B>(
  db: Db,
  head: (tx: Tx) => Promise<H | null>,
  rows: (ex: Executor, head: H) => AsyncIterator<B>,
): Promise<{ head: H; rows: AsyncIterableIterator<B> } | null> {
  const value = await db.transaction(head, SNAPSHOT);
  if (value === null) return null;
  const source = rows(db, value);
  const iterator: AsyncIterableIterator<B> = {
    // Each batch waits for the connection on a budget of its own, not the spent one of the
    // request that started the download (the PDF reads on in the loader's context).
    next: () => nextBatch(source),
    return: async () => (await source.return?.()) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => iterator,
  };
  return { head: value, rows: iterator };
}

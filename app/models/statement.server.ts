// A client's statement of account (issue 15 item 4, docs/decisions/0970): the balance brought
// forward before `from`, every invoice (debit, by its invoice date), credit note (credit, by its
// issue date) and payment (credit, by its payment date) of the period in date order with a
// running balance, the closing balance at `to`, and the ageing of that closing balance by due
// date. Every sum is SQL numeric; the lines are keyset pages so a client with years of trade
// never renders an unbounded page. Void invoices are zero lines marked void and count nowhere.
import { eq, sql, type SQL } from "drizzle-orm";
import { getDb, getDriver, rowsOf, schema, type Db, type Executor, type Tx } from "~/db.server";
import { paymentLinksSql } from "~/models/payment.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, ageingBucketSql, type Ageing, type AgeingBucket } from "~/rules/statements.server";
import { addDays, isValidDate, todayIn } from "~/utils/dates";
import { EARLIEST_BUSINESS_DATE } from "~/utils/business-dates";
import { add, sub, toFixed } from "~/utils/money";
import { env } from "~/utils/env.server";
import { parseId } from "~/utils/params";
import { fail, type Result } from "~/utils/result";
import { nextBatch } from "~/utils/unavailable.server";

export const STATEMENT_PAGE_SIZE = 100;
export const MAX_STATEMENT_YEARS = 5;

export type StatementPeriod = { from: string; to: string };
export type StatementLineKind =
  | "invoice"
  | "credit_note"
  | "credit_note_reversal"
  | "payment"
  | "payment_reversal"
  | "refund"
  | "credit_moved_out"
  | "credit_moved_in";
/** Where a page of lines starts: after the line (date, kind order, id). */
export type StatementCursor = { date: string; order: number; id: number };

export type StatementLine = {
  kind: StatementLineKind;
  id: number;
  date: string;
  /** Invoice number, credit note number (on a credit note reversal, the one it takes back), or the payment's reference. */
  reference: string | null;
  /** The invoice the line belongs to. */
  invoiceId: number;
  invoiceNo: string;
  debit: string;
  credit: string;
  /** The balance after this line. */
  balance: string;
  void: boolean;
  /**
   * On a payment reversal (a negative credit): the payment it takes back; its reason is `note`.
   * A credit note reversal (also a negative credit) names its credit note in `reference` and
   * keeps its reason in `note`.
   */
  reversesPaymentId: number | null;
  note: string | null;
  /** On a payment reversal: what it takes back (a payment, a refund, half of a credit move). */
  reversesKind: string | null;
  cursor: string;
};

export type Statement = {
  client: { id: number; name: string; address: string | null; email: string | null; phone: string | null };
  period: StatementPeriod;
  openingBalance: string;
  closingBalance: string;
  totalDebits: string;
  totalCredits: string;
  /** The period's lines after `after` (the first page without it). */
  lines: StatementLine[];
  /** The cursor of the next page of lines, null on the last. */
  nextCursor: string | null;
  /** True when this page does not start at the period's first line. */
  continued: boolean;
  ageing: Ageing;
};

const KIND_ORDER: Record<StatementLineKind, number> = {
  invoice: 1,
  credit_note: 2,
  credit_note_reversal: 2,
  payment: 3,
  payment_reversal: 3,
  refund: 3,
  credit_moved_out: 3,
  credit_moved_in: 3,
};
const LINE_CURSOR_RE = /^(\d{4}-\d{2}-\d{2})\.([123])\.(\d{1,10})$/;

export const formatStatementCursor = (c: StatementCursor) => `${c.date}.${c.order}.${c.id}`;

export function parseStatementCursor(value: string | null): StatementCursor | null | "invalid" {
  if (value === null || value === "") return null;
  const match = LINE_CURSOR_RE.exec(value);
  if (!match || !isValidDate(match[1])) return "invalid";
  const id = parseId(match[3]);
  return id === null ? "invalid" : { date: match[1], order: Number(match[2]), id };
}

/** The same day `years` later; 29 February becomes 1 March in a year without one. */
function addYears(date: string, years: number): string {
  const year = String(Number(date.slice(0, 4)) + years).padStart(4, "0");
  const same = `${year}${date.slice(4)}`;
  return isValidDate(same) ? same : `${year}-03-01`;
}

/**
 * The period of `?from=&to=`: the current month so far by default (either date alone keeps the
 * other's default). `from` after `to`, an impossible date or more than five years: a 400.
 */
export function parseStatementPeriod(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; period: StatementPeriod } | { ok: false; status: 400; message: string } {
  const today = todayIn(env().APP_TIME_ZONE, now);
  const fromRaw = params.get("from")?.trim() || `${today.slice(0, 8)}01`;
  const toRaw = params.get("to")?.trim() || today;
  if (!isValidDate(fromRaw))
    return { ok: false, status: 400, message: "The start date is not a valid date (yyyy-mm-dd)" };
  if (!isValidDate(toRaw)) return { ok: false, status: 400, message: "The end date is not a valid date (yyyy-mm-dd)" };
  if (fromRaw > toRaw) return { ok: false, status: 400, message: "The start date is after the end date" };
  // A statement's days are days of business: none before 2000, none beyond a year from today.
  if (fromRaw < EARLIEST_BUSINESS_DATE)
    return { ok: false, status: 400, message: "The start date must be on or after 1 January 2000" };
  if (toRaw > addDays(today, 366))
    return { ok: false, status: 400, message: "The end date must be within a year from today" };
  // Five years: 2021-03-01 to 2026-02-28 is fine, to 2026-03-01 is not.
  if (toRaw >= addYears(fromRaw, MAX_STATEMENT_YEARS)) {
    return { ok: false, status: 400, message: `A statement covers at most ${MAX_STATEMENT_YEARS} years` };
  }
  return { ok: true, period: { from: fromRaw, to: toRaw } };
}

/**
 * The invoice of a payment or credit note (`row.invoice_id`), read by its primary key: the
 * period's payments are found by date and then their invoices one by one, so the cost is the
 * period's, never a hash of every invoice the client ever had (`offset 0` keeps the planner
 * from turning this back into that join). A payment is never on a void invoice (a void invoice
 * has none), and neither is a credit note.
 */
const invoiceOf = (row: SQL) =>
  sql`select i.id, i.invoice_no, i.client_id, i.payment_status from invoices i where i.id = ${row}.invoice_id offset 0`;

/**
 * What the client was invoiced (`debits`), and paid and credited (`credits`), on the days
 * `dated(column)` holds, as two scalar subqueries over indexes and kept totals: the invoices (not
 * void) by client and issue date, the payments (every payment, reversal, refund and moved credit,
 * signed) from payment_day_totals, the credit notes one by one (few). The same as the lines of
 * those days add up to: a void invoice is a zero line and holds no payment or credit note
 * (migration 0030). Read by the opening balance and the period's totals alike.
 */
function movementsSql(clientId: number, dated: (column: SQL) => SQL) {
  return {
    debits: sql`coalesce((select sum(i.amount) from invoices i
        where i.client_id = ${clientId} and i.payment_status <> 'void' and ${dated(sql.raw("i.issue_date"))}), 0)`,
    credits: sql`(coalesce((select sum(t.amount) from payment_day_totals t
        where t.client_id = ${clientId} and ${dated(sql.raw("t.payment_date"))}), 0)
      + coalesce((select sum(c.amount) from credit_notes c cross join lateral (${invoiceOf(sql.raw("c"))}) i
        where i.client_id = ${clientId} and i.payment_status <> 'void' and ${dated(sql.raw("c.issue_date"))}), 0))`,
  };
}

/**
 * What the client owed at the start of `day` (everything dated before it): what it owes now (its
 * kept balance, one row, migration 0025) less what was invoiced, paid and credited from `day` on.
 * Each part reads an index range from `day`, so a statement of recent months costs the same
 * however long the client has traded.
 */
async function balanceBefore(ex: Executor, clientId: number, day: string): Promise<string> {
  const since = movementsSql(clientId, (column) => sql`${column} >= ${day}::date`);
  const result = await ex.execute(sql`
    select (
      coalesce((select b.owed + b.credit from client_balances b where b.client_id = ${clientId}), 0)
      - ${since.debits} + ${since.credits}
    )::numeric(20,2)::text as balance`);
  return rowsOf<{ balance: string }>(result)[0].balance;
}

/**
 * The lines dated from `from` to `to` as one SQL union (date, kind order, id), void invoices as
 * zero lines. The bounds are SQL dates: the period's, or a page's (`pageLastDaySql`).
 */
function periodLinesSql(clientId: number, period: StatementPeriod, bounds = periodBounds(period)) {
  const { from, to } = bounds;
  const links = paymentLinksSql({
    reversesPaymentId: sql.raw("p.reverses_payment_id"),
    creditMovedToInvoiceId: sql.raw("p.credit_moved_to_invoice_id"),
    creditFromPaymentId: sql.raw("p.credit_from_payment_id"),
  });
  return sql`
    select 1 as ord, 'invoice' as kind, i.id, i.issue_date as day, i.invoice_no as reference,
        i.id as invoice_id, i.invoice_no,
        case when i.payment_status = 'void' then 0 else i.amount end as debit, 0::numeric as credit,
        i.payment_status = 'void' as is_void, null::int as reverses_id, null::text as note,
        null::text as reverses_kind
      from invoices i
      where i.client_id = ${clientId}
        and i.issue_date between ${from} and ${to}
    union all
    select 2, case when c.reverses_credit_note_id is null then 'credit_note' else 'credit_note_reversal' end,
        c.id, c.issue_date,
        coalesce(c.credit_note_no, (select r.credit_note_no from credit_notes r where r.id = c.reverses_credit_note_id)),
        i.id, i.invoice_no,
        -- A reversal is a negative credit, as a payment reversal is.
        0, c.amount, false, null,
        case when c.reverses_credit_note_id is null then null else c.reason end, null
      from credit_notes c cross join lateral (${invoiceOf(sql.raw("c"))}) i
      where i.client_id = ${clientId} and i.payment_status <> 'void'
        and c.issue_date between ${from} and ${to}
    union all
    select 3, case when p.reverses_payment_id is not null then 'payment_reversal' when p.refund then 'refund'
          when p.credit_moved_to_invoice_id is not null then 'credit_moved_out'
          when p.credit_from_payment_id is not null then 'credit_moved_in' else 'payment' end,
        p.id, p.payment_date, p.reference, i.id, i.invoice_no,
        -- A reversal or a refund is a negative credit, so the period's credits ("paid and
        -- credited") are net of it, as a payout reversal is a negative payout on an agent statement.
        -- A credit moved between invoices keeps the other invoice's number in note.
        0, p.amount, false, p.reverses_payment_id,
        coalesce(${links.creditMovedToInvoiceNo}, ${links.creditFromInvoiceNo}, p.note), ${links.reversesKind}
      from payments p cross join lateral (${invoiceOf(sql.raw("p"))}) i
      where i.client_id = ${clientId} and i.payment_status <> 'void'
        and p.payment_date between ${from} and ${to}`;
}

const periodBounds = (period: StatementPeriod) => ({ from: sql`${period.from}::date`, to: sql`${period.to}::date` });

/**
 * The last day a page of `limit` lines starting on `first` (after a line of that day when
 * `continued`) can reach: the first day by which the lines from `first` add up to more than
 * `limit`, or the period's end `to`. Counted from the invoices' index and the kept payment counts
 * per day (payment_day_totals), so a page builds the lines of its own days, not the whole
 * period's (decision 0970, addendum of stop 38); a later
 * page's running balance still starts from a sum over the lines before it (`upToSql`). The count
 * may only fall short, never exceed: credit notes are left out, and on a later page every line of
 * the cursor's own day is taken off. A short count only makes the page read further (to the
 * period's end, at worst). It relies on no void invoice having payment rows (migration 0030).
 */
function pageLastDaySql(clientId: number, first: string, to: string, continued: boolean, limit: number) {
  return sql`(select coalesce(min(d.day), ${to}::date) from (
      select x.day, sum(sum(x.n)) over (order by x.day)
          - ${continued ? sql`coalesce(sum(sum(x.n)) filter (where x.day = ${first}::date) over (), 0)` : sql`0`} as running
        from (
          select i.issue_date as day, count(*) as n from invoices i
            where i.client_id = ${clientId} and i.issue_date between ${first}::date and ${to}::date group by 1
          union all
          select t.payment_date, t.n from payment_day_totals t
            where t.client_id = ${clientId} and t.payment_date between ${first}::date and ${to}::date
        ) x group by x.day
    ) d where d.running > ${limit})`;
}

const afterCursorSql = (c: StatementCursor | null) =>
  c ? sql`where (l.day, l.ord, l.id) > (${c.date}::date, ${c.order}::int, ${c.id}::int)` : sql``;

/** The sum of the period's lines up to and including the cursor's line. */
const upToSql = (lines: SQL, after: StatementCursor | null) =>
  after
    ? sql`(select coalesce(sum(l.debit - l.credit), 0) from (${lines}) l
          where (l.day, l.ord, l.id) <= (${after.date}::date, ${after.order}::int, ${after.id}::int))`
    : sql`0`;

type LineRow = {
  ord: number;
  kind: StatementLineKind;
  id: number;
  day: string;
  reference: string | null;
  invoice_id: number;
  invoice_no: string;
  debit: string;
  credit: string;
  balance: string;
  is_void: boolean;
  reverses_id: number | null;
  note: string | null;
  reverses_kind: string | null;
};

/**
 * One keyset page of the period's lines after `after`, each with its running balance: the
 * balance before the page (opening + the period's lines up to the cursor, one aggregate) plus
 * the page's own lines in order.
 */
export async function statementLinesPage(
  ex: Executor,
  clientId: number,
  period: StatementPeriod,
  openingBalance: string,
  after: StatementCursor | null,
  limit = STATEMENT_PAGE_SIZE,
  /** The balance after `after`'s line when the caller knows it (the export's previous batch). */
  balanceAfterCursor?: string,
): Promise<{ lines: StatementLine[]; nextCursor: string | null }> {
  const start =
    balanceAfterCursor !== undefined
      ? sql`${balanceAfterCursor}::numeric`
      : sql`${openingBalance}::numeric + ${upToSql(periodLinesSql(clientId, period), after)}`;
  // The page's first day: the period's, or the day of the line it follows.
  const first = after ? after.date : period.from;
  const pageLines = periodLinesSql(clientId, period, {
    from: sql`${first}::date`,
    to: sql`(select b.last_day from bound b)`,
  });
  const result = await ex.execute(sql`
    with bound as materialized (select ${pageLastDaySql(clientId, first, period.to, after !== null, limit)} as last_day),
    page as (
      select l.* from (${pageLines}) l ${afterCursorSql(after)}
      order by l.day, l.ord, l.id limit ${limit + 1}
    )
    select page.ord::int as ord, page.kind, page.id::int as id, page.day::text as day, page.reference,
        page.invoice_id::int as invoice_id, page.invoice_no,
        page.debit::numeric(20,2)::text as debit, page.credit::numeric(20,2)::text as credit, page.is_void,
        page.reverses_id::int as reverses_id, page.note, page.reverses_kind,
        (${start}
          + sum(page.debit - page.credit) over (order by page.day, page.ord, page.id))::numeric(20,2)::text as balance
    from page order by page.day, page.ord, page.id`);
  const rows = rowsOf<LineRow>(result);
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  const toLine = (r: LineRow): StatementLine => ({
    kind: r.kind,
    id: r.id,
    date: r.day,
    reference: r.reference,
    invoiceId: r.invoice_id,
    invoiceNo: r.invoice_no,
    debit: r.debit,
    credit: r.credit,
    balance: r.balance,
    void: r.is_void,
    reversesPaymentId: r.reverses_id,
    note: r.note,
    reversesKind: r.reverses_kind,
    cursor: formatStatementCursor({ date: r.day, order: KIND_ORDER[r.kind], id: r.id }),
  });
  const items = shown.map(toLine);
  return { lines: items, nextCursor: more ? items[items.length - 1].cursor : null };
}

/** The period's totals: what its lines add up to, debits and credits (`movementsSql`). */
async function periodTotals(ex: Executor, clientId: number, period: StatementPeriod) {
  const { debits, credits } = movementsSql(
    clientId,
    (column) => sql`${column} between ${period.from}::date and ${period.to}::date`,
  );
  const result = await ex.execute(sql`
    select ${debits}::numeric(20,2)::text as debits, ${credits}::numeric(20,2)::text as credits`);
  return rowsOf<{ debits: string; credits: string }>(result)[0];
}

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
 * day (its amount if issued by then, less its payments and credit notes dated by then), in the
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
    ), changed as (
      select i.id, i.expected_payment_date as due, i.issue_date, i.amount - i.amount_paid - i.amount_credited as now_bal
        from invoices i
        where i.client_id = ${clientId} and i.payment_status <> 'void' and i.issue_date > ${asOf}::date
      union
      select i.id, i.expected_payment_date, i.issue_date, i.amount - i.amount_paid - i.amount_credited
        from invoices i where i.payment_status <> 'void'
          and i.id in (select invoice_id from later_payments union select invoice_id from later_credits)
    ), parts (due, amount, sign) as (
      ${keptAgeingPartsSql(sql`${clientId}`, asOf)}
      union all
      select x.due, -x.now_bal, x.now_bal from changed x where x.now_bal <> 0
      union all
      select x.due, y.then_bal, y.then_bal
        from changed x
          left join later_payments lp on lp.invoice_id = x.id
          left join later_credits lc on lc.invoice_id = x.id
          cross join lateral (select case when x.issue_date <= ${asOf}::date
            then x.now_bal + coalesce(lp.amount, 0) + coalesce(lc.amount, 0) else 0 end as then_bal) y
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

async function statementClient(ex: Executor, clientId: number): Promise<Statement["client"] | null> {
  const [client] = await ex
    .select({
      id: schema.clients.id,
      name: schema.clients.name,
      address: schema.clients.address,
      email: schema.clients.email,
      phone: schema.clients.phone,
    })
    .from(schema.clients)
    .where(eq(schema.clients.id, clientId));
  return client ?? null;
}

/** The client a statement is of, for its heading when the period asked for is refused; null when there is none. */
export async function getStatementClient(actor: Actor, clientId: number) {
  assertCan(actor, "client.statement", `client/${clientId}/statement`);
  return statementClient(await getDb(), clientId);
}

/** The statement of one client for a period: its header figures and one page of lines, from one snapshot. */
export async function clientStatement(
  actor: Actor,
  clientId: number,
  period: StatementPeriod,
  after: StatementCursor | null = null,
  limit = STATEMENT_PAGE_SIZE,
): Promise<Result<{ statement: Statement }>> {
  assertCan(actor, "client.statement", `client/${clientId}/statement`);
  return inSnapshot(async (tx): Promise<Result<{ statement: Statement }>> => {
    const client = await statementClient(tx, clientId);
    if (!client) return fail(404, "Client not found");
    if (after && (after.date < period.from || after.date > period.to)) {
      return fail(400, "The page of lines is outside the statement's dates");
    }
    const head = await statementFigures(tx, client, period);
    const page = await statementLinesPage(tx, clientId, period, head.openingBalance, after, limit);
    return {
      ok: true,
      statement: { ...head, lines: page.lines, nextCursor: page.nextCursor, continued: after !== null },
    };
  });
}

type StatementHead = Omit<Statement, "lines" | "nextCursor" | "continued">;

/** The statement's figures: opening and closing balances, the period's totals, the ageing. */
async function statementFigures(
  ex: Executor,
  client: Statement["client"],
  period: StatementPeriod,
): Promise<StatementHead> {
  const clientId = client.id;
  // On PostgreSQL these three go down the transaction's one connection together (pipelined).
  const [openingBalance, totals, ageing] = await Promise.all([
    balanceBefore(ex, clientId, period.from),
    periodTotals(ex, clientId, period),
    ageingAsOf(clientId, period.to, ex),
  ]);
  // Every line of the period is a debit or a credit: the closing balance follows from them.
  const closingBalance = toFixed(sub(add(openingBalance, totals.debits), totals.credits));
  return {
    client,
    period,
    openingBalance,
    closingBalance,
    totalDebits: totals.debits,
    totalCredits: totals.credits,
    ageing,
  };
}

/**
 * The whole statement for a download (the CSV and the PDF): its figures, and every line of the
 * period in keyset batches, all read in one snapshot that stays open while the batches are read
 * (`holdSnapshot`), so the lines run from the opening balance to exactly the closing balance and
 * the ageing even while payments are recorded.
 */
export async function clientStatementDownload(
  actor: Actor,
  clientId: number,
  period: StatementPeriod,
  batchSize = 1000,
): Promise<Result<{ statement: StatementHead; batches: AsyncIterable<StatementLine[]> }>> {
  assertCan(actor, "client.statement", `client/${clientId}/statement`);
  const held = await holdSnapshot(
    async (tx) => {
      const client = await statementClient(tx, clientId);
      return client && statementFigures(tx, client, period);
    },
    (tx, head) => statementLineBatches(tx, clientId, period, head.openingBalance, batchSize),
  );
  if (!held) return fail(404, "Client not found");
  return { ok: true, statement: held.head, batches: held.rows };
}

/** Every line of the period in batches (the server holds one batch at a time). */
async function* statementLineBatches(
  ex: Executor,
  clientId: number,
  period: StatementPeriod,
  openingBalance: string,
  batchSize: number,
): AsyncGenerator<StatementLine[]> {
  let after: StatementCursor | null = null;
  let balance = openingBalance;
  for (;;) {
    const page = await statementLinesPage(ex, clientId, period, openingBalance, after, batchSize, balance);
    if (page.lines.length) yield page.lines;
    if (!page.nextCursor) return;
    const next = parseStatementCursor(page.nextCursor);
    if (next === null || next === "invalid") return;
    after = next;
    balance = page.lines[page.lines.length - 1].balance;
  }
}

// ---- One snapshot for a statement (decision 0970, stop 33).
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
export const SNAPSHOT_READER_STALL_MS = 5_000;

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
 * (decision 0970, addendum of stop 33); the figures still agree with one another.
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
    // request that started the download (the PDF reads on in the loader's context; stop 33).
    next: () => nextBatch(source),
    return: async () => (await source.return?.()) ?? { done: true, value: undefined },
    [Symbol.asyncIterator]: () => iterator,
  };
  return { head: value, rows: iterator };
}

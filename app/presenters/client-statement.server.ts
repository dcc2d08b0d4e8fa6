// A client's statement of account (docs/decisions/0970): the balance brought
// forward before `from`, every invoice (debit, by its invoice date), credit note (credit, by its
// issue date) and payment (credit, by its payment date) of the period in date order with a
// running balance, the closing balance at `to`, and the ageing of that closing balance by due
// date. What the client withheld from a receipt (decision 1240) is a credit of its own: a WHT
// line and a VAT withheld line per withholding, by the receipt's date, and their reversals. Every sum is SQL numeric; the lines are keyset pages so a client with years of trade
// never renders an unbounded page. Void invoices are zero lines marked void and count nowhere.
import { eq, sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf, schema, type Executor } from "~/db.server";
import { paymentLinksSql } from "~/models/payment.server";
import { ageingAsOf, holdSnapshot, inSnapshot, invoiceOf } from "~/models/statement.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import type { Ageing } from "~/rules/statements.server";
import {
  formatStatementCursor,
  parseStatementCursor,
  type StatementCursor,
  type StatementPeriod,
} from "~/schemas/statement-query.server";
import { add, sub, toFixed } from "~/utils/money";
import { fail, type Result } from "~/utils/result";

export const STATEMENT_PAGE_SIZE = 100;

export type StatementLineKind =
  | "invoice"
  | "credit_note"
  | "credit_note_reversal"
  | "payment"
  | "payment_reversal"
  | "refund"
  | "credit_moved_out"
  | "credit_moved_in"
  | "wht_withheld"
  | "wht_withheld_reversal"
  | "vat_withheld"
  | "vat_withheld_reversal";

export type StatementLine = {
  kind: StatementLineKind;
  id: number;
  date: string;
  /**
   * Invoice number, credit note number (on a credit note reversal, the one it takes back), the
   * payment's reference, or on a withholding line its receipt's id.
   */
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
  // A withholding's two lines share its id: each has an order of its own, after the receipt's cash.
  wht_withheld: 4,
  wht_withheld_reversal: 4,
  vat_withheld: 5,
  vat_withheld_reversal: 5,
};

/**
 * What the client was invoiced (`debits`), and paid and credited (`credits`), on the days
 * `dated(column)` holds, as two scalar subqueries over indexes and kept totals: the invoices (not
 * void) by client and issue date, the payments (every payment, reversal, refund and moved credit,
 * signed) from payment_day_totals, the credit notes one by one (few), what was withheld (WHT and
 * VAT, reversals negative) by client and date (`withholdings_client_date_idx`). The same as the lines of
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
        where i.client_id = ${clientId} and i.payment_status <> 'void' and ${dated(sql.raw("c.issue_date"))}), 0)
      + coalesce((select sum(w.wht + w.vat) from withholdings w
        where w.client_id = ${clientId} and ${dated(sql.raw("w.withholding_date"))}), 0))`,
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
        and p.payment_date between ${from} and ${to}
    union all
    ${withheldLinesSql(clientId, from, to, "wht")}
    union all
    ${withheldLinesSql(clientId, from, to, "vat")}`;
}

/**
 * What the client withheld (decision 1240), one line per withholding and tax (`wht` or `vat`),
 * dated by its receipt; a reversal (its amounts negative, dated the day the receipt was reversed)
 * is a negative credit, as a payment reversal is. The reference is the receipt's id; a reversal
 * names the withholding it takes back in `reverses_id`.
 */
function withheldLinesSql(clientId: number, from: SQL, to: SQL, tax: "wht" | "vat") {
  const amount = sql.raw(`w.${tax}`);
  return sql`
    select ${sql.raw(tax === "wht" ? "4" : "5")},
        case when w.reverses_withholding_id is null then ${sql.raw(`'${tax}_withheld'`)}
          else ${sql.raw(`'${tax}_withheld_reversal'`)} end,
        w.id, w.withholding_date, w.receipt_id::text, i.id, i.invoice_no, 0, ${amount}, false,
        w.reverses_withholding_id, null, null
      from withholdings w cross join lateral (${invoiceOf(sql.raw("w"))}) i
      where w.client_id = ${clientId} and w.withholding_date between ${from} and ${to} and ${amount} <> 0`;
}

const periodBounds = (period: StatementPeriod) => ({ from: sql`${period.from}::date`, to: sql`${period.to}::date` });

/**
 * The last day a page of `limit` lines starting on `first` (after a line of that day when
 * `continued`) can reach: the first day by which the lines from `first` add up to more than
 * `limit`, or the period's end `to`. Counted from the invoices' index and the kept payment counts
 * per day (payment_day_totals) and the withholdings' index (one a withholding, of its one or two
 * lines), so a page builds the lines of its own days, not the whole
 * period's (decision 0970); a later
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
          union all
          select w.withholding_date, count(*) from withholdings w
            where w.client_id = ${clientId} and w.withholding_date between ${first}::date and ${to}::date group by 1
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

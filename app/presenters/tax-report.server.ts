// The monthly tax report (docs/decisions/0990): what the business reports as tax each month.
// Invoices count in the month they were issued and credit notes in the month they were dated,
// each with the tax its tax-inclusive amount contains (decision 0922). Months and their rates
// come from the totals the invoice and credit note triggers keep (migration 0019): 12 rows a
// page, however many invoices. A month's documents are read a page at a time through the
// (issue_date, id) indexes. Beside them, what clients withheld from their receipts (WHT and VAT,
// decision 1240) in each month of the receipt's date, net of reversals, from the totals the
// withholdings trigger keeps (migration 0041).
import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf, schema, type Executor } from "~/db.server";
import { outerColumn } from "~/models/outer-column.server";
import { readClosedThrough } from "~/models/period.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { taxContainedOfSql } from "~/rules/invoices.server";
import { keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { sub, sum, toFixed } from "~/utils/money";
import type { Page, PageRequest } from "~/utils/params";
import { isMonth, monthEnd, monthStart, toMonthPage, type MonthPageRequest } from "./reconciliation.server";

export const TAX_MONTHS_PER_PAGE = 12;
export const TAX_LINES_PER_PAGE = 50;

export type TaxFigures = {
  invoiceCount: number;
  /** Tax-inclusive amounts of the invoices that are not void. */
  invoiced: string;
  invoiceTax: string;
  voidCount: number;
  creditNoteCount: number;
  reversalCount: number;
  /** Credit notes less their reversals. */
  credited: string;
  creditTax: string;
  /** Invoiced less credited, and its tax: what the month reports. */
  netSales: string;
  netTax: string;
};

/** What clients withheld from receipts dated in the month, net of reversals (decision 1240). */
export type WithheldFigures = {
  withholdingCount: number;
  withholdingReversalCount: number;
  whtWithheld: string;
  vatWithheld: string;
};

export type TaxMonth = TaxFigures & WithheldFigures & { month: string; closed: boolean };
export type TaxRateRow = TaxFigures & { taxRate: string };

const t = schema.taxMonthTotals;
const figureColumns = {
  invoiceCount: sql<number>`sum(${t.invoiceCount})::int`,
  invoiced: sql<string>`sum(${t.invoiced})::text`,
  invoiceTax: sql<string>`sum(${t.invoiceTax})::text`,
  voidCount: sql<number>`sum(${t.voidCount})::int`,
  creditNoteCount: sql<number>`sum(${t.creditNoteCount})::int`,
  reversalCount: sql<number>`sum(${t.reversalCount})::int`,
  credited: sql<string>`sum(${t.credited})::text`,
  creditTax: sql<string>`sum(${t.creditTax})::text`,
};
type FigureRow = { [K in keyof typeof figureColumns]: (typeof figureColumns)[K]["_"]["type"] };

function figures(row: FigureRow): TaxFigures {
  const invoiced = toFixed(row.invoiced);
  const invoiceTax = toFixed(row.invoiceTax);
  const credited = toFixed(row.credited);
  const creditTax = toFixed(row.creditTax);
  return {
    invoiceCount: row.invoiceCount,
    invoiced,
    invoiceTax,
    voidCount: row.voidCount,
    creditNoteCount: row.creditNoteCount,
    reversalCount: row.reversalCount,
    credited,
    creditTax,
    netSales: toFixed(sub(invoiced, credited)),
    netTax: toFixed(sub(invoiceTax, creditTax)),
  };
}

const ym = (day: string) => day.slice(0, 7);

/** A month up to the last closed day (decision 0901) is final. */
const isClosed = (month: string, through: string | null) => !!through && month <= ym(through);

/** A page of months, newest first, each with its totals over every tax rate and what was withheld. */
export async function listTaxMonths(actor: Actor, page: MonthPageRequest = { cursor: null, direction: "older" }) {
  assertCan(actor, "tax.view", "tax");
  const db = await getDb();
  const [result, through] = await Promise.all([db.execute(taxMonthsPageQuery(page)), readClosedThrough(db)]);
  const rows = rowsOf<FigureRow & WithheldRow & { month: string }>(result);
  const { taken, olderCursor, newerCursor } = toMonthPage(rows, page, TAX_MONTHS_PER_PAGE);
  const months: TaxMonth[] = taken.map((row) => ({
    month: ym(row.month),
    closed: isClosed(ym(row.month), through),
    ...figures(row),
    ...withheldFigures(row),
  }));
  return { months, olderCursor, newerCursor };
}

type WithheldRow = { withholdingCount: number; withholdingReversalCount: number; wht: string; vat: string };

const withheldFigures = (row: WithheldRow | undefined): WithheldFigures => ({
  withholdingCount: row?.withholdingCount ?? 0,
  withholdingReversalCount: row?.withholdingReversalCount ?? 0,
  whtWithheld: toFixed(row?.wht ?? "0"),
  vatWithheld: toFixed(row?.vat ?? "0"),
});

/**
 * A page of months: those with a document (tax_month_totals) or a withholding
 * (withholding_month_totals), each read by its key. 13 months of each table's key, never the
 * invoices or the withholdings.
 */
export function taxMonthsPageQuery(page: MonthPageRequest) {
  const older = page.direction === "older";
  const bound = (column: SQL) =>
    page.cursor
      ? older
        ? sql`where ${column} < ${monthStart(page.cursor)}::date`
        : sql`where ${column} > ${monthStart(page.cursor)}::date`
      : sql``;
  const order = older ? sql`desc` : sql`asc`;
  const limit = TAX_MONTHS_PER_PAGE + 1;
  return sql`
    with m as (
      select month from (
        (select distinct t.month from tax_month_totals t ${bound(sql`t.month`)} order by t.month ${order} limit ${limit})
        union
        (select w.month from withholding_month_totals w ${bound(sql`w.month`)} order by w.month ${order} limit ${limit})
      ) u order by month ${order} limit ${limit}
    )
    select m.month::text as month,
      coalesce(f.invoice_count, 0)::int as "invoiceCount", coalesce(f.invoiced, 0)::text as invoiced,
      coalesce(f.invoice_tax, 0)::text as "invoiceTax", coalesce(f.void_count, 0)::int as "voidCount",
      coalesce(f.credit_note_count, 0)::int as "creditNoteCount", coalesce(f.reversal_count, 0)::int as "reversalCount",
      coalesce(f.credited, 0)::text as credited, coalesce(f.credit_tax, 0)::text as "creditTax",
      coalesce(w.withholding_count, 0)::int as "withholdingCount",
      coalesce(w.reversal_count, 0)::int as "withholdingReversalCount",
      coalesce(w.wht, 0)::text as wht, coalesce(w.vat, 0)::text as vat
    from m
    left join lateral (
      select sum(t.invoice_count) as invoice_count, sum(t.invoiced) as invoiced, sum(t.invoice_tax) as invoice_tax,
        sum(t.void_count) as void_count, sum(t.credit_note_count) as credit_note_count,
        sum(t.reversal_count) as reversal_count, sum(t.credited) as credited, sum(t.credit_tax) as credit_tax
      from tax_month_totals t where t.month = m.month
    ) f on true
    left join withholding_month_totals w on w.month = m.month
    order by m.month ${order}`;
}

/** One month by tax rate, with its totals and what was withheld; null for a month with none of them. */
export async function taxMonth(actor: Actor, month: string) {
  assertCan(actor, "tax.view", `tax/${month}`);
  if (!isMonth(month)) return null;
  const db = await getDb();
  const w = schema.withholdingMonthTotals;
  const [rows, [withheld], through] = await Promise.all([
    db
      .select({ taxRate: sql<string>`${t.taxRate}::text`, ...figureColumns })
      .from(t)
      .where(eq(t.month, monthStart(month)))
      .groupBy(t.taxRate)
      .orderBy(desc(t.taxRate)),
    db
      .select({
        withholdingCount: w.withholdingCount,
        withholdingReversalCount: w.reversalCount,
        wht: sql<string>`${w.wht}::text`,
        vat: sql<string>`${w.vat}::text`,
      })
      .from(w)
      .where(eq(w.month, monthStart(month))),
    readClosedThrough(db),
  ]);
  if (!rows.length && !withheld) return null;
  const rates: TaxRateRow[] = rows.map((row) => ({ taxRate: row.taxRate, ...figures(row) }));
  const total = figures({
    invoiceCount: rows.reduce((n, r) => n + r.invoiceCount, 0),
    invoiced: sumOf(rows.map((r) => r.invoiced)),
    invoiceTax: sumOf(rows.map((r) => r.invoiceTax)),
    voidCount: rows.reduce((n, r) => n + r.voidCount, 0),
    creditNoteCount: rows.reduce((n, r) => n + r.creditNoteCount, 0),
    reversalCount: rows.reduce((n, r) => n + r.reversalCount, 0),
    credited: sumOf(rows.map((r) => r.credited)),
    creditTax: sumOf(rows.map((r) => r.creditTax)),
  });
  return { month, closed: isClosed(month, through), rates, total, withheld: withheldFigures(withheld) };
}

const sumOf = (values: string[]) => toFixed(sum(values));

/** The month's first and last days, for the index range. */
function monthRange(month: string) {
  return { from: monthStart(month), to: monthEnd(month) };
}

export type TaxInvoiceLine = {
  id: number;
  invoiceNo: string;
  issueDate: string;
  clientName: string;
  amount: string;
  taxRate: string;
  tax: string;
  isVoid: boolean;
};

const inv = schema.invoices;
const INVOICE_KEYSET = { key: inv.issueDate, id: inv.id };

/** The month's invoices, void ones too (their numbers are in the series), newest first. */
export async function taxMonthInvoices(
  actor: Actor,
  month: string,
  page: PageRequest = { cursor: null, direction: "older" },
  limit = TAX_LINES_PER_PAGE,
): Promise<Page<TaxInvoiceLine>> {
  assertCan(actor, "tax.view", `tax/${month}/invoices`);
  if (!isMonth(month)) return { items: [], olderCursor: null, newerCursor: null };
  const rows = await taxMonthInvoicesQuery(await getDb(), month, page, limit);
  return toPage(rows, limit, page, (r) => ({ key: r.issueDate, id: r.id }));
}

export function taxMonthInvoicesQuery(db: Executor, month: string, page: PageRequest, limit: number) {
  const { from, to } = monthRange(month);
  return db
    .select({
      id: inv.id,
      invoiceNo: inv.invoiceNo,
      issueDate: inv.issueDate,
      clientName: schema.clients.name,
      amount: inv.amount,
      taxRate: inv.taxRate,
      tax: taxContainedOfSql(inv.amount, inv.taxRate),
      isVoid: sql<boolean>`${inv.paymentStatus} = 'void'`,
    })
    .from(inv)
    .innerJoin(schema.clients, eq(schema.clients.id, inv.clientId))
    .where(and(gte(inv.issueDate, from), lte(inv.issueDate, to), keysetWhere(INVOICE_KEYSET, page)))
    .orderBy(...keysetOrder(INVOICE_KEYSET, page))
    .limit(limit + 1);
}

export type TaxCreditLine = {
  id: number;
  /** Null for a reversal, which has no number of its own. */
  creditNoteNo: string | null;
  /** For a reversal: the note it takes back. */
  reversesCreditNoteNo: string | null;
  issueDate: string;
  invoiceId: number;
  invoiceNo: string;
  clientName: string;
  amount: string;
  taxRate: string;
  tax: string;
};

const cn = schema.creditNotes;
const CREDIT_KEYSET = { key: cn.issueDate, id: cn.id };

/** The month's credit notes and reversals, newest first, each at its invoice's rate. */
export async function taxMonthCreditNotes(
  actor: Actor,
  month: string,
  page: PageRequest = { cursor: null, direction: "older" },
  limit = TAX_LINES_PER_PAGE,
): Promise<Page<TaxCreditLine>> {
  assertCan(actor, "tax.view", `tax/${month}/credit-notes`);
  if (!isMonth(month)) return { items: [], olderCursor: null, newerCursor: null };
  const rows = await taxMonthCreditNotesQuery(await getDb(), month, page, limit);
  return toPage(rows, limit, page, (r) => ({ key: r.issueDate, id: r.id }));
}

export function taxMonthCreditNotesQuery(db: Executor, month: string, page: PageRequest, limit: number) {
  const { from, to } = monthRange(month);
  const reversed = sql<
    string | null
  >`(select r.credit_note_no from credit_notes r where r.id = ${outerColumn(cn, "reverses_credit_note_id")})`;
  return db
    .select({
      id: cn.id,
      creditNoteNo: cn.creditNoteNo,
      reversesCreditNoteNo: reversed,
      issueDate: cn.issueDate,
      invoiceId: inv.id,
      invoiceNo: inv.invoiceNo,
      clientName: schema.clients.name,
      amount: cn.amount,
      taxRate: inv.taxRate,
      tax: taxContainedOfSql(cn.amount, inv.taxRate),
    })
    .from(cn)
    .innerJoin(inv, eq(inv.id, cn.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, inv.clientId))
    .where(and(gte(cn.issueDate, from), lte(cn.issueDate, to), keysetWhere(CREDIT_KEYSET, page)))
    .orderBy(...keysetOrder(CREDIT_KEYSET, page))
    .limit(limit + 1);
}

// The monthly tax report (docs/decisions/0990): what the business reports as tax each month.
// Invoices count in the month they were issued and credit notes in the month they were dated,
// each with the tax its tax-inclusive amount contains (decision 0922). Months and their rates
// come from the totals the invoice and credit note triggers keep (migration 0019): 12 rows a
// page, however many invoices. A month's documents are read a page at a time through the
// (issue_date, id) indexes.
import { and, asc, desc, eq, gt, gte, lt, lte, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
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

export type TaxMonth = TaxFigures & { month: string; closed: boolean };
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

/** A page of months, newest first, each with its totals over every tax rate. */
export async function listTaxMonths(actor: Actor, page: MonthPageRequest = { cursor: null, direction: "older" }) {
  assertCan(actor, "tax.view", "tax");
  const db = await getDb();
  const [rows, through] = await Promise.all([taxMonthsPageQuery(db, page), readClosedThrough(db)]);
  const { taken, olderCursor, newerCursor } = toMonthPage(rows, page, TAX_MONTHS_PER_PAGE);
  const months: TaxMonth[] = taken.map((row) => ({
    month: ym(row.month),
    closed: isClosed(ym(row.month), through),
    ...figures(row),
  }));
  return { months, olderCursor, newerCursor };
}

export function taxMonthsPageQuery(db: Executor, page: MonthPageRequest) {
  const where = page.cursor
    ? page.direction === "older"
      ? lt(t.month, monthStart(page.cursor))
      : gt(t.month, monthStart(page.cursor))
    : undefined;
  return db
    .select({ month: sql<string>`${t.month}::text`, ...figureColumns })
    .from(t)
    .where(where)
    .groupBy(t.month)
    .orderBy(page.direction === "older" ? desc(t.month) : asc(t.month))
    .limit(TAX_MONTHS_PER_PAGE + 1);
}

/** One month by tax rate, with its totals; null for a month with no invoice or credit note. */
export async function taxMonth(actor: Actor, month: string) {
  assertCan(actor, "tax.view", `tax/${month}`);
  if (!isMonth(month)) return null;
  const db = await getDb();
  const [rows, through] = await Promise.all([
    db
      .select({ taxRate: sql<string>`${t.taxRate}::text`, ...figureColumns })
      .from(t)
      .where(eq(t.month, monthStart(month)))
      .groupBy(t.taxRate)
      .orderBy(desc(t.taxRate)),
    readClosedThrough(db),
  ]);
  if (!rows.length) return null;
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
  return { month, closed: isClosed(month, through), rates, total };
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

// Receipts as the pages and the JSON read them (docs/decisions/1240): the Receipts list, newest
// first and keyset-paged on (date, id) through its indexes, with its export batches, and one
// receipt with its allocations. Reads only; the writes are commands in app/services/receipts/.
import { and, asc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Client, type Executor } from "~/db.server";
import { receiptReversedSql, receiptView, withAllocations, type ReceiptView } from "~/models/receipt.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { balanceOf, owedSql } from "~/rules/invoices.server";
import { settle } from "~/rules/withholding";
import type { PaymentFilters } from "~/schemas/payment-filters";
import { parsePaymentFilters } from "~/schemas/payment-filters";
import { csvFilename, type BadExport, type CsvColumn, type CsvExport } from "~/utils/csv.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export const RECEIPT_PAGE_SIZE = 50;

const r = schema.receipts;
const RECEIPT_KEYSET = { key: r.receiptDate, id: r.id };

function receiptWhere(f: PaymentFilters): SQL[] {
  const where: SQL[] = [];
  if (f.from) where.push(gte(r.receiptDate, f.from));
  if (f.to) where.push(lte(r.receiptDate, f.to));
  if (f.clientId) where.push(eq(r.clientId, f.clientId));
  if (f.invoiceNo)
    where.push(sql`exists (select 1 from payments p join invoices i on i.id = p.invoice_id
      where p.receipt_id = ${r.id} and i.invoice_no = ${f.invoiceNo})`);
  if (f.reference) {
    const prefix = f.reference.replace(/[\\%_]/g, (c) => "\\" + c) + "%";
    where.push(sql`lower(${r.reference}) like lower(${prefix})`);
  }
  return where;
}

/** The page query itself (the scale test EXPLAINs it): one row a receipt, its client's name. */
export function receiptPageQuery(db: Executor, filters: PaymentFilters, page: PageRequest, limit: number) {
  return db
    .select({ receipt: r, clientName: schema.clients.name, reversed: receiptReversedSql(r.id) })
    .from(r)
    .innerJoin(schema.clients, eq(schema.clients.id, r.clientId))
    .where(and(...receiptWhere(filters), keysetWhere(RECEIPT_KEYSET, page)))
    .orderBy(...keysetOrder(RECEIPT_KEYSET, page))
    .limit(limit + 1);
}

/** One page of receipts, newest first, each with its allocations (two reads for the page). */
export async function listReceipts(
  actor: Actor,
  filters: PaymentFilters = {},
  { limit = RECEIPT_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<Page<ReceiptView>> {
  assertCan(actor, "payment.record", "receipts");
  const db = await getDb();
  const rows = await receiptPageQuery(db, filters, page, limit);
  const result = toPage(rows, limit, page, (x) => ({ key: x.receipt.receiptDate, id: x.receipt.id }));
  const names = new Map(result.items.map((x) => [x.receipt.clientId, x.clientName]));
  const reversed = new Set(result.items.filter((x) => x.reversed).map((x) => x.receipt.id));
  const views = await withAllocations(
    db,
    result.items.map((x) => x.receipt),
    names,
  );
  return { ...result, items: views.map((v) => ({ ...v, reversed: reversed.has(v.id) })) };
}

/** Every matching receipt, newest first, in keyset batches (the CSV and the streamed JSON). */
export function receiptBatches(actor: Actor, filters: PaymentFilters = {}, batchSize = 500) {
  assertCan(actor, "payment.record", "receipts");
  return keysetBatches(
    (page) => listReceipts(actor, filters, { limit: batchSize, page }),
    (last) => ({ key: last.date, id: last.id }),
  );
}

/** One receipt with its allocations, or null. */
export async function getReceipt(actor: Actor, id: number): Promise<ReceiptView | null> {
  assertCan(actor, "payment.record", `receipt/${id}`);
  return receiptView(await getDb(), id);
}

/** The receipts that settled an invoice (its page's cash and withholding per receipt). */
export async function receiptsOfInvoice(ex: Executor, invoiceId: number): Promise<ReceiptView[]> {
  const ids = new Set<number>();
  for (const row of await ex
    .select({ id: schema.payments.receiptId })
    .from(schema.payments)
    .where(eq(schema.payments.invoiceId, invoiceId)))
    if (row.id !== null) ids.add(row.id);
  for (const row of await ex
    .select({ id: schema.withholdings.receiptId })
    .from(schema.withholdings)
    .where(eq(schema.withholdings.invoiceId, invoiceId)))
    ids.add(row.id);
  if (!ids.size) return [];
  const rows = await ex
    .select({ receipt: r, clientName: schema.clients.name, reversed: receiptReversedSql(r.id) })
    .from(r)
    .innerJoin(schema.clients, eq(schema.clients.id, r.clientId))
    .where(inArray(r.id, [...ids]))
    .orderBy(r.receiptDate, r.id);
  const views = await withAllocations(
    ex,
    rows.map((x) => x.receipt),
    new Map(rows.map((x) => [x.receipt.clientId, x.clientName])),
  );
  const reversed = new Set(rows.filter((x) => x.reversed).map((x) => x.receipt.id));
  return views.map((v) => ({
    ...v,
    reversed: reversed.has(v.id),
    allocations: v.allocations.filter((a) => a.invoiceId === invoiceId),
  }));
}

/** A receipt as the JSON answers it: its allocations with `cash`, `wht` and `vatWithheld`. */
export const receiptJson = (v: ReceiptView) => ({
  id: v.id,
  clientId: v.clientId,
  clientName: v.clientName,
  date: v.date,
  amount: v.amount,
  reference: v.reference,
  settled: v.settled,
  withheld: v.withheld,
  reversed: v.reversed,
  createdAt: v.createdAt,
  allocations: v.allocations.map(({ invoiceId, invoiceNo, amount, cash, wht, vatWithheld, withholdingId }) => ({
    invoiceId,
    invoiceNo,
    amount,
    cash,
    wht,
    vatWithheld,
    withholdingId,
  })),
});

const receiptColumns: CsvColumn<ReceiptView>[] = [
  { header: "Receipt", kind: "number", value: (v) => v.id },
  { header: "Date", kind: "date", value: (v) => v.date },
  { header: "Client", kind: "text", value: (v) => v.clientName },
  { header: "Reference", kind: "text", value: (v) => v.reference },
  { header: "Received", kind: "amount", value: (v) => v.amount },
  { header: "Withheld", kind: "amount", value: (v) => v.withheld },
  { header: "Settled", kind: "amount", value: (v) => v.settled },
  { header: "Invoices", kind: "text", value: (v) => v.allocations.map((a) => `#${a.invoiceNo}`).join(" ") },
  { header: "Reversed", kind: "text", value: (v) => (v.reversed ? "Yes" : "No") },
];

/** The Receipts list's CSV: every receipt the filters match, newest first (decision 0952). */
export function receiptsExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<ReceiptView> | BadExport {
  const { filters, invalid } = parsePaymentFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("receipts", todayIn(env().APP_TIME_ZONE, now)),
    columns: receiptColumns,
    batches: receiptBatches(actor, filters),
  };
}

/** The most owed invoices Record Receipt offers: a transfer pays a client's recent months. */
const OFFERED = 100;

/**
 * A client's invoices still owed, oldest due first (through invoices_client_owed_due_idx), each
 * with the cash that settles it whole after the client's withholding.
 */
export async function owedInvoicesOf(actor: Actor, client: Pick<Client, "id" | "whtRate" | "withholdsVat">) {
  assertCan(actor, "payment.record", `client/${client.id}/receipts`);
  const inv = schema.invoices;
  const rows = await (
    await getDb()
  )
    .select()
    .from(inv)
    .where(and(eq(inv.clientId, client.id), owedSql()))
    .orderBy(asc(inv.expectedPaymentDate), asc(inv.id))
    .limit(OFFERED);
  return rows.map((i) => {
    const balance = balanceOf(i);
    const whole = settle(balance, { vatRate: i.taxRate, whtRate: client.whtRate, withholdsVat: client.withholdsVat });
    return { id: i.id, invoiceNo: i.invoiceNo, due: i.expectedPaymentDate, balance, cashToSettle: whole.cash };
  });
}

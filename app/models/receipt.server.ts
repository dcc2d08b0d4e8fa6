// Receipts as the writes, the pages and the JSON read them back (docs/decisions/1240): a receipt,
// its client, and per invoice what it settled: the cash (its payment), the WHT and the VAT the
// client withheld (its withholding). A receipt is reversed when its entries are.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { schema, type Executor, type Receipt } from "~/db.server";
import { add, toFixed } from "~/utils/money";

export type ReceiptAllocation = {
  invoiceId: number;
  invoiceNo: string;
  /** What the allocation settled: cash + WHT + VAT withheld. */
  amount: string;
  cash: string;
  wht: string;
  vatWithheld: string;
  /** The withholding row, while it has one (its certificate is recorded against it). */
  withholdingId: number | null;
};

export type ReceiptView = {
  id: number;
  clientId: number;
  clientName: string;
  date: string;
  amount: string;
  reference: string | null;
  /** Cash + withheld over every allocation. */
  settled: string;
  withheld: string;
  allocations: ReceiptAllocation[];
  reversed: boolean;
  createdAt: string;
};

/** Whether a receipt's entries were taken back: its payments' reversals name them. */
export const receiptReversedSql = (receiptId: unknown) =>
  sql<boolean>`exists (select 1 from payments rp join payments rv on rv.reverses_payment_id = rp.id
    where rp.receipt_id = ${receiptId} and rp.reverses_payment_id is null)`;

/** The receipt `id` with its allocations, or null. */
export async function receiptView(ex: Executor, id: number): Promise<ReceiptView | null> {
  const r = schema.receipts;
  const [row] = await ex
    .select({ receipt: r, clientName: schema.clients.name, reversed: receiptReversedSql(r.id) })
    .from(r)
    .innerJoin(schema.clients, eq(schema.clients.id, r.clientId))
    .where(eq(r.id, id));
  if (!row) return null;
  return { ...(await withAllocations(ex, [row.receipt], new Map([[id, row.clientName]])))[0], reversed: row.reversed };
}

/** Receipts with their allocations (two reads for the lot: their payments and withholdings). */
export async function withAllocations(
  ex: Executor,
  receipts: Receipt[],
  clientNames: Map<number, string>,
): Promise<ReceiptView[]> {
  const ids = receipts.map((r) => r.id);
  const p = schema.payments;
  const w = schema.withholdings;
  const i = schema.invoices;
  const payments = ids.length
    ? await ex
        .select({ receiptId: p.receiptId, invoiceId: p.invoiceId, invoiceNo: i.invoiceNo, amount: p.amount })
        .from(p)
        .innerJoin(i, eq(i.id, p.invoiceId))
        .where(and(inArray(p.receiptId, ids), isNull(p.reversesPaymentId)))
        .orderBy(p.id)
    : [];
  const withholdings = ids.length
    ? await ex
        .select({
          id: w.id,
          receiptId: w.receiptId,
          invoiceId: w.invoiceId,
          invoiceNo: i.invoiceNo,
          wht: w.wht,
          vat: w.vat,
        })
        .from(w)
        .innerJoin(i, eq(i.id, w.invoiceId))
        .where(and(inArray(w.receiptId, ids), isNull(w.reversesWithholdingId)))
        .orderBy(w.id)
    : [];
  return receipts.map((receipt) => {
    const byInvoice = new Map<number, ReceiptAllocation>();
    const slot = (invoiceId: number, invoiceNo: string) => {
      let a = byInvoice.get(invoiceId);
      if (!a) {
        a = {
          invoiceId,
          invoiceNo,
          amount: "0.00",
          cash: "0.00",
          wht: "0.00",
          vatWithheld: "0.00",
          withholdingId: null,
        };
        byInvoice.set(invoiceId, a);
      }
      return a;
    };
    for (const x of payments.filter((x) => x.receiptId === receipt.id)) slot(x.invoiceId, x.invoiceNo).cash = x.amount;
    for (const x of withholdings.filter((x) => x.receiptId === receipt.id)) {
      const a = slot(x.invoiceId, x.invoiceNo);
      a.wht = x.wht;
      a.vatWithheld = x.vat;
      a.withholdingId = x.id;
    }
    const allocations = [...byInvoice.values()].map((a) => ({
      ...a,
      amount: toFixed(add(a.cash, a.wht, a.vatWithheld)),
    }));
    const withheld = toFixed(add("0", ...allocations.flatMap((a) => [a.wht, a.vatWithheld])));
    return {
      id: receipt.id,
      clientId: receipt.clientId,
      clientName: clientNames.get(receipt.clientId) ?? "",
      date: receipt.receiptDate,
      amount: receipt.amount,
      reference: receipt.reference,
      settled: toFixed(add(receipt.amount, withheld)),
      withheld,
      allocations,
      reversed: false,
      createdAt: receipt.createdAt.toISOString(),
    };
  });
}

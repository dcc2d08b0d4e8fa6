// One invoice as a document (docs/decisions/0951): everything the printable page
// and the PDF show, computed once here so the two never disagree. Later papers (statements,
// e-mail) take the same model.
//
// A month's invoice can have thousands of lines (one per delivery), so the document comes in
// two parts (decision 0951): `loadInvoiceDocument`, the figures (with the count and
// total tons of the lines, summed by the database), read before a byte is sent; and
// `invoiceLineBatches`, the lines oldest first in keyset batches through the index
// (invoice, date, delivery), read while the page or the PDF is written out.
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { getBusinessDetails, type BusinessDetailsView } from "~/models/business.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { balanceOf, effectiveStatus, isVoid, taxContained, type PaymentStatus } from "~/rules/invoices.server";
import { amountInWords } from "~/utils/amount-words.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { pagedBatches } from "~/utils/batches.server";
import { keysetOrder, keysetWhere } from "~/utils/keyset.server";
import { sub, toFixed } from "~/utils/money";
import type { Cursor, PageRequest } from "~/utils/params";
import {
  type InvoiceReceived,
  paymentReversalText,
  refundWithReference,
  creditNoteReversalText,
} from "~/utils/money-line-words";
import type { LineWeighing } from "~/utils/weighing-words";
import { reversedCreditNoteNoSql } from "~/models/credit-note.server";
import { paymentLinkColumns } from "~/models/payment.server";

export type InvoiceLine = {
  date: string;
  truckNo: string | null;
  location: string;
  /** The tons invoiced: accepted when the delivery had the client's ticket, else loaded (docs/decisions/1220). */
  tons: string;
  /** Selling rate per ton. */
  rate: string | null;
  /** tons x rate to the kobo; the invoice amount is the exact sum rounded once. */
  amount: string;
} & LineWeighing;

/** What settled part of the invoice: payments, then credit notes (reference "CN-3: reason"). */
export type InvoiceCredit = InvoiceReceived;

export type InvoiceDocument = {
  id: number;
  invoiceNo: string;
  issueDate: string;
  dueDate: string;
  status: PaymentStatus;
  /** A voided invoice still prints, marked VOID, with its reason; its balance is 0. */
  voided: boolean;
  voidReason: string | null;
  business: BusinessDetailsView;
  client: {
    name: string;
    address: string | null;
    email: string | null;
    phone: string | null;
    taxNo: string | null;
  };
  /** How many lines the invoice has; the lines themselves come from `invoiceLineBatches`. */
  lineCount: number;
  /** How many of the lines had the client's ticket (their tons are accepted tons, docs/decisions/1220). */
  weighedLines: number;
  /** The lines' tons, exact to the kilogram. */
  totalTons: string;
  /** Tax-inclusive amount; `tax` is the part of it that is tax, `net` the rest. */
  amount: string;
  taxRate: string;
  tax: string;
  net: string;
  amountInWords: string;
  /** Payments, then credit notes, each oldest first (an invoice has few: it settles once). */
  received: InvoiceCredit[];
  paid: string;
  credited: string;
  balance: string;
  balanceInWords: string;
};

type PaymentEntry = {
  date: string;
  reference: string | null;
  amount: string;
  reversesPaymentId: number | null;
  note: string | null;
  refund: boolean;
  creditMovedToInvoiceNo: string | null;
  creditFromInvoiceNo: string | null;
  reversesKind: string | null;
};

/** One entry of `payments` as the document lists it under the amount. */
function paymentLine(entry: PaymentEntry): InvoiceCredit {
  const { date, amount, reference, note } = entry;
  if (entry.creditMovedToInvoiceNo)
    return { kind: "credit_moved", date, amount, reference: `moved to invoice #${entry.creditMovedToInvoiceNo}` };
  if (entry.creditFromInvoiceNo)
    return { kind: "credit_moved", date, amount, reference: `from invoice #${entry.creditFromInvoiceNo}` };
  if (entry.reversesPaymentId !== null) {
    const { reversesPaymentId, reversesKind } = entry;
    return {
      kind: reversesKind === "refund" ? "refund_reversal" : "reversal",
      date,
      amount,
      reference: paymentReversalText({ reversesPaymentId, note, reversesKind }),
    };
  }
  if (entry.refund) return { kind: "refund", date, amount, reference: refundWithReference({ reference, note }) };
  return { kind: "payment", date, amount, reference };
}

/** The invoice `id` as a document, or null when there is none (managers and admins). */
export async function loadInvoiceDocument(actor: Actor, id: number, now = new Date()): Promise<InvoiceDocument | null> {
  assertCan(actor, "invoice.manage", `invoice/${id}/document`);
  const db = await getDb();
  const i = schema.invoices;
  const c = schema.clients;
  const [row] = await db
    .select({
      invoice: i,
      client: { name: c.name, address: c.address, email: c.email, phone: c.phone, taxNo: c.taxNo },
    })
    .from(i)
    .innerJoin(c, eq(c.id, i.clientId))
    .where(eq(i.id, id));
  if (!row) return null;
  const l = schema.invoiceLines;
  const p = schema.payments;
  const cn = schema.creditNotes;
  // The lines are the invoice's own record of what it covered (decision 0921), so a void
  // invoice still prints its deliveries. They are written with the invoice and never changed
  // (append-only), so this count and the batches read later always agree.
  const [[lineTotals], payments, credits, business] = await Promise.all([
    db
      .select({
        count: sql<number>`count(*)::int`,
        weighed: sql<number>`count(${l.receivedTons})::int`,
        tons: sql<string>`coalesce(sum(${l.tons}), 0)::text`,
      })
      .from(l)
      .where(eq(l.invoiceId, id)),
    db
      .select({
        date: p.paymentDate,
        reference: p.reference,
        amount: p.amount,
        reversesPaymentId: p.reversesPaymentId,
        note: p.note,
        refund: p.refund,
        ...paymentLinkColumns(),
      })
      .from(p)
      .where(eq(p.invoiceId, id))
      .orderBy(asc(p.paymentDate), asc(p.id)),
    db
      .select({
        date: cn.issueDate,
        reference: cn.creditNoteNo,
        reason: cn.reason,
        amount: cn.amount,
        reversesCreditNoteNo: reversedCreditNoteNoSql(),
      })
      .from(cn)
      .where(eq(cn.invoiceId, id))
      .orderBy(asc(cn.issueDate), asc(cn.id)),
    getBusinessDetails(db),
  ]);
  const { invoice } = row;
  const timeZone = env().APP_TIME_ZONE;
  const received: InvoiceCredit[] = [
    ...payments.map(paymentLine),
    ...credits.map(({ reference, reason, reversesCreditNoteNo, ...x }) =>
      reference === null
        ? {
            kind: "credit_reversal" as const,
            ...x,
            reference: creditNoteReversalText({ reversesCreditNoteNo, reason }),
          }
        : { kind: "credit" as const, ...x, reference: `${reference}: ${reason}` },
    ),
  ];
  const balance = balanceOf(invoice);
  const tax = taxContained(invoice.amount, invoice.taxRate);
  return {
    id: invoice.id,
    invoiceNo: invoice.invoiceNo,
    issueDate: invoice.issueDate,
    dueDate: invoice.expectedPaymentDate,
    status: effectiveStatus(invoice, todayIn(timeZone, now)),
    voided: isVoid(invoice),
    voidReason: invoice.voidReason,
    business,
    client: row.client,
    lineCount: lineTotals.count,
    weighedLines: lineTotals.weighed,
    totalTons: toFixed(lineTotals.tons, 3),
    amount: invoice.amount,
    taxRate: invoice.taxRate,
    tax,
    net: toFixed(sub(invoice.amount, tax)),
    amountInWords: amountInWords(invoice.amount),
    received,
    paid: invoice.amountPaid,
    credited: invoice.amountCredited,
    balance,
    balanceInWords: amountInWords(balance),
  };
}

/** Lines a batch: what the page and the PDF hold in memory at a time, however long the invoice. */
export const INVOICE_LINE_BATCH = 500;

const LINE_KEYSET = { key: schema.invoiceLines.date, id: schema.invoiceLines.deliveryId };

/**
 * The lines of invoice `id`, oldest first (date, then delivery), in batches of `size` read by
 * keyset through the index (invoice, date, delivery): each batch costs the same at the end of a
 * 6,000-line invoice as at its start, and no transaction is held between them (on PGlite the one
 * connection is free while a batch is drawn).
 */
export function invoiceLineBatches(actor: Actor, id: number, size = INVOICE_LINE_BATCH): AsyncGenerator<InvoiceLine[]> {
  assertCan(actor, "invoice.manage", `invoice/${id}/document`);
  const l = schema.invoiceLines;
  return pagedBatches<InvoiceLine, Cursor>(async (cursor) => {
    const db = await getDb();
    // "newer" is the keyset's ascending direction: the rows after the cursor, oldest first.
    const page: PageRequest = { cursor, direction: "newer" };
    const rows: (InvoiceLine & { deliveryId: number })[] = await db
      .select({
        date: l.date,
        deliveryId: l.deliveryId,
        truckNo: l.truckNo,
        location: l.location,
        tons: l.tons,
        rate: l.sellingRate,
        amount: l.amount,
        receivedTons: l.receivedTons,
        moisture: l.moisture,
        qualityDeductionTons: l.qualityDeductionTons,
      })
      .from(l)
      .where(and(eq(l.invoiceId, id), keysetWhere(LINE_KEYSET, page)))
      .orderBy(...keysetOrder(LINE_KEYSET, page))
      .limit(size);
    const last = rows[rows.length - 1];
    return {
      items: rows.map((r) => ({
        date: r.date,
        truckNo: r.truckNo,
        location: r.location,
        tons: r.tons,
        rate: r.rate,
        amount: toFixed(r.amount),
        receivedTons: r.receivedTons,
        moisture: r.moisture,
        qualityDeductionTons: r.qualityDeductionTons,
      })),
      next: rows.length < size ? null : { key: last.date, id: last.deliveryId },
    };
  });
}

// One invoice as its page and GET /api/invoices/{id} show it: the invoice, the deliveries it
// covers (keyset-paged), its payments, credit notes and history. Reads only.
import { and, desc, eq, getTableColumns, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { listAuditEvents, type AuditEventView } from "~/models/audit.server";
import { creditNoteEntryColumns, type CreditNoteEntryView } from "~/models/credit-note.server";
import { paymentLinkColumns } from "~/models/payment.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { FIRST_PAGE, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { toFixed } from "~/utils/money";
import type { Page, PageRequest } from "~/utils/params";
import type { LineWeighing } from "~/utils/weighing-words";
import { invoiceColumns, toInvoiceView, type InvoiceView } from "./invoice-list.server";
import { type PaymentView } from "~/presenters/payments.server";

export const INVOICE_LINES_PAGE_SIZE = 50;
/** Payments and credit notes shown on the page: the newest this many, with the count of all. */
export const INVOICE_RELATED_LIMIT = 50;

export type InvoiceLineView = {
  deliveryId: number;
  date: string;
  agentName: string | null;
  truckNo: string | null;
  location: string;
  /** The tons invoiced: accepted when the delivery had the client's ticket, else loaded (docs/decisions/1220). */
  tons: string;
  sellingRate: string | null;
  /** tons x rate, to the kobo. */
  amount: string;
} & LineWeighing;

/** A payment as the invoice page lists it: the payments list's row, less the invoice it names. */
export type InvoicePaymentView = Omit<PaymentView, "invoiceId" | "invoiceNo" | "clientName">;

/** A credit note as the invoice page lists it (docs/decisions/0920). */
export type InvoiceCreditNoteView = CreditNoteEntryView;

export type InvoiceDetail = InvoiceView & {
  /** Its own events in the audit trail (created, voided), newest first: the newest INVOICE_RELATED_LIMIT. */
  history: AuditEventView[];
  lines: Page<InvoiceLineView> & { count: number; tons: string };
  payments: { items: InvoicePaymentView[]; count: number };
  creditNotes: { items: InvoiceCreditNoteView[]; count: number };
};

const LINE_KEYSET = { key: schema.invoiceLines.date, id: schema.invoiceLines.deliveryId };

/**
 * Everything the invoice page shows. The deliveries it covers are keyset-paged (a month's
 * invoice can cover hundreds) through invoice_lines (invoice, date, delivery); payments and
 * credit notes show the newest INVOICE_RELATED_LIMIT with the count of all (docs/decisions/0921).
 */
export async function getInvoiceDetail(
  actor: Actor,
  id: number,
  {
    linesPage = FIRST_PAGE,
    linesLimit = INVOICE_LINES_PAGE_SIZE,
  }: { linesPage?: PageRequest; linesLimit?: number } = {},
  now = new Date(),
): Promise<InvoiceDetail | null> {
  assertCan(actor, "invoice.view", `invoice/${id}`);
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const [row] = await db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(eq(schema.invoices.id, id));
  if (!row) return null;
  const l = schema.invoiceLines;
  const p = schema.payments;
  const c = schema.creditNotes;
  const [lineRows, [lineTotals], paymentRows, [paymentCount], creditRows, [creditCount], history] = await Promise.all([
    db
      .select()
      .from(l)
      .where(and(eq(l.invoiceId, id), keysetWhere(LINE_KEYSET, linesPage)))
      .orderBy(...keysetOrder(LINE_KEYSET, linesPage))
      .limit(linesLimit + 1),
    db
      // Tons to the kilogram (docs/decisions/1220): a total rounded to two decimals would not be the lines' sum.
      .select({ n: sql<number>`count(*)::int`, tons: sql<string>`coalesce(sum(${l.tons}), 0)::numeric(20,3)::text` })
      .from(l)
      .where(eq(l.invoiceId, id)),
    db
      .select({ ...getTableColumns(p), ...paymentLinkColumns() })
      .from(p)
      .where(eq(p.invoiceId, id))
      .orderBy(desc(p.paymentDate), desc(p.id))
      .limit(INVOICE_RELATED_LIMIT),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(p)
      .where(eq(p.invoiceId, id)),
    db
      .select(creditNoteEntryColumns())
      .from(c)
      .where(eq(c.invoiceId, id))
      .orderBy(desc(c.id))
      .limit(INVOICE_RELATED_LIMIT),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(c)
      .where(eq(c.invoiceId, id)),
    listAuditEvents(actor, { entityType: "invoice", entityId: String(id) }, { limit: INVOICE_RELATED_LIMIT }),
  ]);
  const lines = toPage(lineRows, linesLimit, linesPage, (r) => ({ key: r.date, id: r.deliveryId }));
  return {
    ...toInvoiceView(row, today),
    history: history.events,
    lines: {
      ...lines,
      items: lines.items.map((r) => ({
        deliveryId: r.deliveryId,
        date: r.date,
        agentName: r.agentName,
        truckNo: r.truckNo,
        location: r.location,
        tons: r.tons,
        sellingRate: r.sellingRate,
        amount: toFixed(r.amount),
        receivedTons: r.receivedTons,
        moisture: r.moisture,
        qualityDeductionTons: r.qualityDeductionTons,
      })),
      count: lineTotals.n,
      tons: lineTotals.tons,
    },
    payments: {
      items: paymentRows.map((r) => ({
        id: r.id,
        amount: r.amount,
        paymentDate: r.paymentDate,
        reference: r.reference,
        createdAt: r.createdAt.toISOString(),
        reversesPaymentId: r.reversesPaymentId,
        note: r.note,
        // A reversal is newer than its payment, so it is on this page whenever the payment is.
        reversedOn: paymentRows.find((x) => x.reversesPaymentId === r.id)?.paymentDate ?? null,
        refund: r.refund,
        creditMovedToInvoiceNo: r.creditMovedToInvoiceNo,
        creditFromInvoiceNo: r.creditFromInvoiceNo,
        reversesKind: r.reversesKind,
      })),
      count: paymentCount.n,
    },
    creditNotes: {
      items: creditRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      count: creditCount.n,
    },
  };
}

// One invoice as a document (issue 15, docs/decisions/0951): everything the printable page
// and the PDF show, computed once here so the two never disagree. Later papers (statements,
// e-mail) take the same model.
import { asc, eq } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { getBusinessDetails, type BusinessDetailsView } from "~/models/business.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { deliveryRevenue } from "~/rules/deliveries.server";
import { effectiveStatus, taxContained, type PaymentStatus } from "~/rules/invoices.server";
import { amountInWords } from "~/utils/amount-words.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { sub, sum, toFixed } from "~/utils/money";

export type InvoiceLine = {
  date: string;
  truckNo: string | null;
  location: string;
  tons: string;
  /** Selling rate per ton. */
  rate: string | null;
  /** tons x rate to the kobo; the invoice amount is the exact sum rounded once. */
  amount: string | null;
};

/** Money received against the invoice: payments now, credit notes when they exist. */
export type InvoiceCredit = { kind: "payment" | "credit"; date: string; reference: string | null; amount: string };

export type InvoiceDocument = {
  id: number;
  invoiceNo: string;
  issueDate: string;
  dueDate: string;
  status: PaymentStatus;
  /** A voided invoice still prints, marked VOID (when the corrections work lands). */
  voided: boolean;
  business: BusinessDetailsView;
  client: {
    name: string;
    address: string | null;
    email: string | null;
    phone: string | null;
    taxNo: string | null;
  };
  lines: InvoiceLine[];
  totalTons: string;
  /** Tax-inclusive amount; `tax` is the part of it that is tax, `net` the rest. */
  amount: string;
  taxRate: string;
  tax: string;
  net: string;
  amountInWords: string;
  /** Payments, then credit notes, each oldest first. */
  received: InvoiceCredit[];
  paid: string;
  credited: string;
  balance: string;
  balanceInWords: string;
};

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
  const d = schema.deliveries;
  const p = schema.payments;
  const [deliveries, payments, business] = await Promise.all([
    db
      .select({ date: d.date, truckNo: d.truckNo, location: d.location, tons: d.tons, sellingRate: d.sellingRate })
      .from(d)
      .where(eq(d.invoiceId, id))
      .orderBy(asc(d.date), asc(d.id)),
    db
      .select({ date: p.paymentDate, reference: p.reference, amount: p.amount })
      .from(p)
      .where(eq(p.invoiceId, id))
      .orderBy(asc(p.paymentDate), asc(p.id)),
    getBusinessDetails(db),
  ]);
  const { invoice } = row;
  const timeZone = env().APP_TIME_ZONE;
  const received: InvoiceCredit[] = payments.map((x) => ({ kind: "payment", ...x }));
  // Credit notes join `received` here (kind "credit") once the corrections work is merged.
  const paid = toFixed(sum(received.filter((r) => r.kind === "payment").map((r) => r.amount)));
  const credited = toFixed(sum(received.filter((r) => r.kind === "credit").map((r) => r.amount)));
  const balance = toFixed(sub(sub(invoice.amount, paid), credited));
  const tax = taxContained(invoice.amount, invoice.taxRate);
  return {
    id: invoice.id,
    invoiceNo: invoice.invoiceNo,
    issueDate: todayIn(timeZone, invoice.createdAt),
    dueDate: invoice.expectedPaymentDate,
    status: effectiveStatus(invoice, todayIn(timeZone, now)),
    voided: false,
    business,
    client: row.client,
    lines: deliveries.map((x) => ({
      date: x.date,
      truckNo: x.truckNo,
      location: x.location,
      tons: x.tons,
      rate: x.sellingRate,
      amount: deliveryRevenue(x),
    })),
    totalTons: toFixed(sum(deliveries.map((x) => x.tons))),
    amount: invoice.amount,
    taxRate: invoice.taxRate,
    tax,
    net: toFixed(sub(invoice.amount, tax)),
    amountInWords: amountInWords(invoice.amount),
    received,
    paid,
    credited,
    balance,
    balanceInWords: amountInWords(balance),
  };
}

// The CSV exports of the lists (docs/decisions/0952): for each list, the columns a role may see
// and the batches of its current filter, read through the same model functions as the pages.
// The routes only parse the query and answer with `csvResponse`.
import type { Agent, Client } from "~/db.server";
import { creditMoveText, paymentReversalText, refundText } from "~/utils/money-line-words";
import { deliveryBatches, readDeliveryFilters, type DeliveryView } from "~/models/delivery.server";
import { listAuditEvents, parseAuditFilters, type AuditEventView } from "~/models/audit.server";
import { agentsPage, clientsPage, directoryBatches } from "~/models/directory-list.server";
import { paymentBatches, type PaymentView } from "~/presenters/payments.server";
import { parsePaymentFilters } from "~/schemas/payment-filters";
import { parseInvoiceFilters } from "~/schemas/invoice-filters";
import { invoiceBatches, type InvoiceView } from "~/presenters/invoice-list.server";
import { assertCan, can, type Actor } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/statements.server";
import { pagedBatches } from "~/utils/batches.server";
import { csvFilename, type BadExport, type CsvColumn, type CsvExport } from "~/utils/csv.server";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import type { PageRequest } from "~/utils/params";
import { isMonth, listMonths, monthDetails, type MonthSummary } from "./reconciliation.server";
import {
  listTaxMonths,
  taxMonthCreditNotes,
  taxMonthInvoices,
  type TaxFigures,
  type TaxMonth,
} from "./tax-report.server";
import { keysetBatches } from "~/utils/keyset.server";
import { receivableBatches, type Receivable } from "./receivables.server";

const today = (now: Date) => todayIn(env().APP_TIME_ZONE, now);

/** What the viewer may see of the deliveries list: staff their own, without rates, costs or profit. */
export function deliveryColumns(viewer: Actor): CsvColumn<DeliveryView>[] {
  const columns: CsvColumn<DeliveryView>[] = [
    { header: "ID", kind: "number", value: (d) => d.id },
    { header: "Date", kind: "date", value: (d) => d.date },
    { header: "Agent", kind: "text", value: (d) => d.agentName },
    { header: "Client", kind: "text", value: (d) => d.clientName },
    { header: "Truck No", kind: "text", value: (d) => d.truckNo },
    { header: "Location", kind: "text", value: (d) => d.location },
    // "Tons" is the loaded weight, as it always was, kept for the sheets built on it; the three
    // weights follow under their own names (docs/decisions/1220).
    { header: "Tons", kind: "number", value: (d) => d.tons },
    { header: "Loaded t", kind: "number", value: (d) => d.loadedTons },
    { header: "Received t", kind: "number", value: (d) => d.receivedTons },
    { header: "Accepted t", kind: "number", value: (d) => d.acceptedTons },
    { header: "Shortage t", kind: "number", value: (d) => d.shortageTons },
    { header: "Moisture %", kind: "number", value: (d) => d.moisture },
    { header: "Deduction t", kind: "number", value: (d) => d.qualityDeductionTons },
    { header: "Status", kind: "text", value: (d) => d.status },
    { header: "Remarks", kind: "text", value: (d) => d.remarks },
  ];
  if (can(viewer, "delivery.financials")) {
    columns.push(
      { header: "Buying Rate", kind: "amount", value: (d) => d.buyingRate },
      { header: "Selling Rate", kind: "amount", value: (d) => d.sellingRate },
      { header: "Logistics Cost", kind: "amount", value: (d) => d.logisticsCost },
      { header: "Mobilization Payment", kind: "amount", value: (d) => d.mobilizationPayment },
      { header: "Offloading Cost", kind: "amount", value: (d) => d.offloadingCost },
      { header: "Other Costs", kind: "amount", value: (d) => d.otherCosts },
      { header: "Other Costs Description", kind: "text", value: (d) => d.otherCostsDescription },
      { header: "Profit", kind: "amount", value: (d) => d.profit },
    );
  }
  if (can(viewer, "delivery.netPayment")) {
    columns.push({ header: "Net Payment to Agent", kind: "amount", value: (d) => d.netPaymentToAgent });
  }
  return columns;
}

export function deliveriesExport(
  viewer: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<DeliveryView> | BadExport {
  // A filter that cannot be read is a 400, never an export of every delivery (decision 0952).
  const { filters, invalid } = readDeliveryFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("deliveries", today(now)),
    columns: deliveryColumns(viewer),
    // The CSV shows no tickets: its batches skip reading them.
    batches: deliveryBatches(viewer, filters, { tickets: false }),
  };
}

const invoiceColumns: CsvColumn<InvoiceView>[] = [
  { header: "Invoice No", kind: "text", value: (i) => i.invoiceNo },
  { header: "Client", kind: "text", value: (i) => i.clientName },
  { header: "Amount", kind: "amount", value: (i) => i.amount },
  { header: "Tax Rate %", kind: "number", value: (i) => i.taxRate },
  { header: "Paid", kind: "amount", value: (i) => i.amountPaid },
  { header: "Credited", kind: "amount", value: (i) => i.amountCredited },
  { header: "Balance", kind: "amount", value: (i) => i.balance },
  { header: "Due Date", kind: "date", value: (i) => i.expectedPaymentDate },
  { header: "Status", kind: "text", value: (i) => i.paymentStatus },
  { header: "Profit", kind: "amount", value: (i) => i.profit },
  // The invoice's business date, as its document and the tax report carry it (decision 0952).
  { header: "Created", kind: "date", value: (i) => i.issueDate },
];

export function invoicesExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<InvoiceView> | BadExport {
  const { filters, invalid } = parseInvoiceFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("invoices", today(now)),
    columns: invoiceColumns,
    batches: invoiceBatches(actor, filters, 1000, now),
  };
}

const paymentColumns: CsvColumn<PaymentView>[] = [
  { header: "Payment Date", kind: "date", value: (p) => p.paymentDate },
  { header: "Invoice No", kind: "text", value: (p) => p.invoiceNo },
  { header: "Client", kind: "text", value: (p) => p.clientName },
  { header: "Amount", kind: "amount", value: (p) => p.amount },
  { header: "Reference", kind: "text", value: (p) => p.reference },
  // The day it was entered: its timestamp's day in APP_TIME_ZONE, written by csvCell.
  { header: "Recorded", kind: "date", value: (p) => p.createdAt },
  {
    header: "Note",
    kind: "text",
    value: (p) => {
      if (p.reversesPaymentId !== null)
        return paymentReversalText({
          reversesPaymentId: p.reversesPaymentId,
          note: p.note,
          reversesKind: p.reversesKind,
        });
      const reversed = p.reversedOn ? `Reversed on ${p.reversedOn}` : null;
      const what = p.refund ? refundText(p) : creditMoveText(p);
      return what ? [what, reversed].filter(Boolean).join("; ") : reversed;
    },
  },
];

export function paymentsExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<PaymentView> | BadExport {
  const { filters, invalid } = parsePaymentFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("payments", today(now)),
    columns: paymentColumns,
    batches: paymentBatches(actor, filters),
  };
}

const agentColumns: CsvColumn<Agent>[] = [
  { header: "Name", kind: "text", value: (a) => a.name },
  { header: "Contact", kind: "text", value: (a) => a.contact },
  { header: "Phone", kind: "text", value: (a) => a.phone },
  { header: "Bank", kind: "text", value: (a) => a.bankName },
  { header: "Account Name", kind: "text", value: (a) => a.bankAccountName },
  { header: "Account Number", kind: "text", value: (a) => a.bankAccountNo },
];

/** Every agent, alphabetical; with `search`, those whose name contains it (the page's search). */
export function agentsExport(actor: Actor, now = new Date(), search: string | null = null): CsvExport<Agent> {
  assertCan(actor, "agent.manage", "agents/export");
  return {
    filename: csvFilename("agents", today(now)),
    columns: agentColumns,
    batches: directoryBatches(agentsPage, search),
  };
}

const clientColumns: CsvColumn<Client>[] = [
  { header: "Name", kind: "text", value: (c) => c.name },
  { header: "Tax Rate %", kind: "number", value: (c) => c.taxRate },
  { header: "Payment Terms (days)", kind: "number", value: (c) => c.paymentTermsDays },
  { header: "Address", kind: "text", value: (c) => c.address },
  { header: "E-mail", kind: "text", value: (c) => c.email },
  { header: "Phone", kind: "text", value: (c) => c.phone },
  { header: "Tax Number", kind: "text", value: (c) => c.taxNo },
];

/** Every client, alphabetical; with `search`, those whose name contains it (the page's search). */
export function clientsExport(actor: Actor, now = new Date(), search: string | null = null): CsvExport<Client> {
  assertCan(actor, "client.manage", "clients/export");
  return {
    filename: csvFilename("clients", today(now)),
    columns: clientColumns,
    batches: directoryBatches(clientsPage, search),
  };
}

const monthColumns: CsvColumn<MonthSummary>[] = [
  { header: "Month", kind: "text", value: (m) => m.month },
  { header: "Deliveries", kind: "number", value: (m) => m.count },
  { header: "Confirmed", kind: "number", value: (m) => m.confirmedCount },
  { header: "Invoiced", kind: "number", value: (m) => m.invoicedCount },
  { header: "Tons", kind: "number", value: (m) => m.totalTons },
  { header: "Revenue", kind: "amount", value: (m) => m.revenue },
  { header: "Invoices", kind: "number", value: (m) => m.invoiceCount },
  { header: "First Invoice No", kind: "text", value: (m) => m.firstInvoiceNo },
  { header: "Last Invoice No", kind: "text", value: (m) => m.lastInvoiceNo },
];

type MonthDelivery = Awaited<ReturnType<typeof monthDetails>>["items"][number];

const monthDeliveryColumns: CsvColumn<MonthDelivery>[] = [
  { header: "Date", kind: "date", value: (d) => d.date },
  { header: "Agent", kind: "text", value: (d) => d.agentName },
  { header: "Location", kind: "text", value: (d) => d.location },
  { header: "Tons", kind: "number", value: (d) => d.tons },
  { header: "Status", kind: "text", value: (d) => d.status },
  { header: "Selling Rate", kind: "amount", value: (d) => d.sellingRate },
  { header: "Revenue", kind: "amount", value: (d) => d.revenue },
  { header: "Invoice No", kind: "text", value: (d) => d.invoiceNo },
];

/** Reconciliation: every month's summary, newest first. */
export function reconciliationExport(actor: Actor, now = new Date()): CsvExport<MonthSummary> {
  assertCan(actor, "reconciliation.view", "reconciliation/export");
  return {
    filename: csvFilename("reconciliation", today(now)),
    columns: monthColumns,
    batches: pagedBatches<MonthSummary, string>(async (cursor) => {
      const result = await listMonths(actor, { cursor, direction: "older" });
      return { items: result.months, next: result.olderCursor };
    }),
  };
}

/** Reconciliation with a month open (`?month=YYYY-MM`): that month's deliveries, newest first. */
export function reconciliationMonthExport(
  actor: Actor,
  month: string,
  now = new Date(),
): CsvExport<MonthDelivery> | BadExport {
  assertCan(actor, "reconciliation.view", `reconciliation/${month.slice(0, 7)}/export`);
  if (!isMonth(month)) return { invalid: "The month is not valid" };
  return {
    filename: csvFilename(`reconciliation-${month}`, today(now)),
    columns: monthDeliveryColumns,
    batches: pagedBatches<MonthDelivery, PageRequest>(async (page) => {
      const result = await monthDetails(actor, month, page ?? { cursor: null, direction: "older" }, 1000);
      const last = result.items[result.items.length - 1];
      const next: PageRequest | null =
        result.olderCursor && last ? { cursor: { key: last.date, id: last.id }, direction: "older" } : null;
      return { items: result.items, next };
    }),
  };
}

const show = (value: unknown) =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value);

const auditColumns: CsvColumn<AuditEventView>[] = [
  { header: "Time (UTC)", kind: "text", value: (e) => e.time },
  { header: "Actor", kind: "text", value: (e) => e.actorEmail ?? e.actorId },
  { header: "Action", kind: "text", value: (e) => e.action },
  { header: "Entity", kind: "text", value: (e) => e.entityType },
  { header: "Entity ID", kind: "text", value: (e) => e.entityId },
  {
    header: "Changes",
    kind: "text",
    value: (e) => e.changes.map((c) => `${c.field}: ${show(c.before)} -> ${show(c.after)}`).join("; "),
  },
  { header: "Request ID", kind: "text", value: (e) => e.requestId },
  { header: "Client Address", kind: "text", value: (e) => e.clientAddress },
];

/** The audit trail with the page's filters, newest first (admins). */
export function auditExport(
  actor: Actor,
  params: URLSearchParams,
  now = new Date(),
): CsvExport<AuditEventView> | BadExport {
  assertCan(actor, "audit.view", "audit/export");
  const { filters, invalid } = parseAuditFilters(params);
  if (invalid) return { invalid };
  return {
    filename: csvFilename("audit", today(now)),
    columns: auditColumns,
    batches: pagedBatches<AuditEventView, PageRequest>(async (page) => {
      const result = await listAuditEvents(actor, filters, {
        limit: 500,
        page: page ?? { cursor: null, direction: "older" },
      });
      const last = result.events[result.events.length - 1];
      const next: PageRequest | null =
        result.olderCursor && last ? { cursor: { key: null, id: last.id }, direction: "older" } : null;
      return { items: result.events, next };
    }),
  };
}

const receivableColumns: CsvColumn<Receivable>[] = [
  { header: "Client ID", kind: "number", value: (r) => r.clientId },
  { header: "Client", kind: "text", value: (r) => r.name },
  ...AGEING_BUCKETS.map((b): CsvColumn<Receivable> => ({
    header: AGEING_LABELS[b],
    kind: "amount",
    value: (r) => r[b],
  })),
  { header: "Balance", kind: "amount", value: (r) => r.total },
];

/** What every client owes today, aged, by name (the Receivables page, docs/decisions/0995). */
export function receivablesExport(actor: Actor, now = new Date()): CsvExport<Receivable> {
  assertCan(actor, "client.statement", "receivables/export");
  return {
    filename: csvFilename("receivables", today(now)),
    columns: receivableColumns,
    batches: receivableBatches(actor, now),
  };
}

const taxFigureColumns: CsvColumn<TaxFigures>[] = [
  { header: "Invoices", kind: "number", value: (m) => m.invoiceCount },
  { header: "Sales", kind: "amount", value: (m) => m.invoiced },
  { header: "Tax on Sales", kind: "amount", value: (m) => m.invoiceTax },
  { header: "Void Invoices", kind: "number", value: (m) => m.voidCount },
  { header: "Credit Notes", kind: "number", value: (m) => m.creditNoteCount },
  { header: "Credit Note Reversals", kind: "number", value: (m) => m.reversalCount },
  { header: "Credited", kind: "amount", value: (m) => m.credited },
  { header: "Tax Credited", kind: "amount", value: (m) => m.creditTax },
  { header: "Net Sales", kind: "amount", value: (m) => m.netSales },
  { header: "Net Tax", kind: "amount", value: (m) => m.netTax },
];

/** The tax report: every month's totals, newest first (docs/decisions/0990). */
export function taxMonthsExport(actor: Actor, now = new Date()): CsvExport<TaxMonth> {
  assertCan(actor, "tax.view", "tax/export");
  return {
    filename: csvFilename("tax-report", today(now)),
    columns: [
      { header: "Month", kind: "text", value: (m) => m.month },
      ...(taxFigureColumns as CsvColumn<TaxMonth>[]),
      { header: "WHT Withheld", kind: "amount", value: (m) => m.whtWithheld },
      { header: "VAT Withheld", kind: "amount", value: (m) => m.vatWithheld },
      { header: "Books", kind: "text", value: (m) => (m.closed ? "Closed" : "Open") },
    ],
    batches: pagedBatches<TaxMonth, string>(async (cursor) => {
      const result = await listTaxMonths(actor, { cursor, direction: "older" });
      return { items: result.months, next: result.olderCursor };
    }),
  };
}

/** One line of a month's tax report: an invoice, a credit note or a credit note's reversal. */
export type TaxDocumentLine = {
  type: "Invoice" | "Credit note" | "Credit note reversal";
  number: string;
  date: string;
  invoiceNo: string;
  clientName: string;
  amount: string;
  taxRate: string;
  tax: string;
  counted: boolean;
};

const taxLineColumns: CsvColumn<TaxDocumentLine>[] = [
  { header: "Type", kind: "text", value: (l) => l.type },
  { header: "Number", kind: "text", value: (l) => l.number },
  { header: "Date", kind: "date", value: (l) => l.date },
  { header: "Invoice No", kind: "text", value: (l) => l.invoiceNo },
  { header: "Client", kind: "text", value: (l) => l.clientName },
  { header: "Amount", kind: "amount", value: (l) => l.amount },
  { header: "Tax Rate", kind: "number", value: (l) => l.taxRate },
  { header: "Tax", kind: "amount", value: (l) => l.tax },
  { header: "Counted", kind: "text", value: (l) => (l.counted ? "Yes" : "No (void)") },
];

/**
 * With a month open (`?month=YYYY-MM`): its invoices (void ones marked as not counted), then its
 * credit notes and reversals, each newest first, read a keyset page at a time.
 */
export function taxMonthExport(actor: Actor, month: string, now = new Date()): CsvExport<TaxDocumentLine> | BadExport {
  assertCan(actor, "tax.view", `tax/${month.slice(0, 7)}/export`);
  if (!isMonth(month)) return { invalid: "The month is not valid" };
  async function* batches(): AsyncGenerator<TaxDocumentLine[]> {
    for await (const items of keysetBatches(
      (page) => taxMonthInvoices(actor, month, page, 1000),
      (last) => ({ key: last.issueDate, id: last.id }),
    )) {
      yield items.map((i) => ({
        type: "Invoice" as const,
        number: i.invoiceNo,
        date: i.issueDate,
        invoiceNo: i.invoiceNo,
        clientName: i.clientName,
        amount: i.amount,
        taxRate: i.taxRate,
        tax: i.isVoid ? "0.00" : i.tax,
        counted: !i.isVoid,
      }));
    }
    for await (const items of keysetBatches(
      (page) => taxMonthCreditNotes(actor, month, page, 1000),
      (last) => ({ key: last.issueDate, id: last.id }),
    )) {
      yield items.map((c) => ({
        type: c.creditNoteNo ? ("Credit note" as const) : ("Credit note reversal" as const),
        number: c.creditNoteNo ?? `Reversal of ${c.reversesCreditNoteNo}`,
        date: c.issueDate,
        invoiceNo: c.invoiceNo,
        clientName: c.clientName,
        amount: c.amount,
        taxRate: c.taxRate,
        tax: c.tax,
        counted: true,
      }));
    }
  }
  return { filename: csvFilename(`tax-report-${month}`, today(now)), columns: taxLineColumns, batches: batches() };
}

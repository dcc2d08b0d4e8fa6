import type { ReactNode } from "react";
import type { InvoiceDocument, InvoiceLine } from "~/presenters/invoice-document.server";
import { formatDate } from "~/utils/dates";
import { formatAmount, formatNaira, formatTons } from "~/utils/money";
import { ACCEPTED_TONS_NOTE, weighingText } from "~/utils/weighing-words";
import { asksForPayment, balanceLine, receivedAmount, receivedLabel } from "~/utils/money-line-words";

// The printable invoice (A4). The same figures as the PDF: both come from loadInvoiceDocument,
// and both word the balance and decide the payment instructions with `balanceLine` and
// `asksForPayment` (app/utils/money-line-words.ts).
// Black on white in both themes: it is paper.
// Rendered on the server only, as static markup: the print route writes the document around an
// empty table body, then the rows (`InvoiceLineRows`) a batch at a time between the two
// (docs/decisions/0951).

/** The lines table's headings, in the order `InvoiceLineRows` writes its cells; the last three are figures. */
const LINE_HEADINGS = ["Date", "Truck", "Location", "Tons", "Rate (₦/ton)", "Amount (₦)"];
const FIRST_FIGURE = 3;

/** Every heading but the last keeps a gap on its right; the figures' headings align right as the figures do. */
function headingClass(index: number) {
  const gap = index < LINE_HEADINGS.length - 1 ? " pr-1.5 sm:pr-2" : "";
  return `py-1.5${gap}${index >= FIRST_FIGURE ? " text-right" : ""}`;
}

/** One table row per delivery, as the document's table body holds them. */
export function InvoiceLineRows({ lines }: { lines: InvoiceLine[] }) {
  return lines.map((line, index) => (
    <tr key={index} className="break-inside-avoid border-b border-slate-200">
      <td>{formatDate(line.date)}</td>
      <td>{line.truckNo ?? "-"}</td>
      <td>
        {line.location}
        {weighingText(line) ? <span className="block text-[11px] text-slate-600">{weighingText(line)}</span> : null}
      </td>
      <td>{formatTons(line.tons)}</td>
      <td>{line.rate ? formatAmount(line.rate) : "-"}</td>
      <td>{line.amount ? formatAmount(line.amount) : "-"}</td>
    </tr>
  ));
}

/** The document; `children` are its table's rows (`InvoiceLineRows`), or nothing when they are streamed in. */
export function InvoiceDocumentView({ doc, children }: { doc: InvoiceDocument; children?: ReactNode }) {
  const { business, client } = doc;
  const balance = balanceLine(doc);
  // As wide as the page allows, up to A4 (w-full): sized to its content, a table of million-naira
  // amounts made the sheet wider than a 390 px phone, where the table is to scroll in its own box.
  return (
    <article
      aria-label={`Invoice ${doc.invoiceNo}`}
      className="relative mx-auto w-full max-w-[210mm] bg-white p-3 text-[13px] sm:p-8 leading-snug text-slate-900 shadow print:max-w-none print:p-0 print:shadow-none"
    >
      {doc.voided ? (
        <p
          className="pointer-events-none absolute inset-0 grid place-items-center text-8xl font-black tracking-widest text-red-600/20"
          aria-label="This invoice is void"
        >
          VOID
        </p>
      ) : null}
      <header className="flex items-start justify-between gap-6 border-b border-slate-300 pb-4">
        <div className="min-w-0 space-y-1 [overflow-wrap:anywhere]">
          {business.logoUrl ? <img src={business.logoUrl} alt="" className="mb-2 h-14 w-auto" /> : null}
          <p className="text-lg font-bold">{business.companyName ?? "PKS"}</p>
          {business.address ? <p className="whitespace-pre-line">{business.address}</p> : null}
          <p>{[business.phone, business.email].filter(Boolean).join(" · ")}</p>
          <p>
            {[
              business.registrationNo ? `RC: ${business.registrationNo}` : null,
              business.taxNo ? `TIN: ${business.taxNo}` : null,
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
        <div className="text-right">
          <h1 className="text-2xl font-bold tracking-wide">INVOICE</h1>
          <dl className="mt-2 grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 text-right">
            <dt className="text-slate-600">Invoice No</dt>
            <dd className="font-semibold">{doc.invoiceNo}</dd>
            <dt className="text-slate-600">Date</dt>
            <dd>{formatDate(doc.issueDate)}</dd>
            <dt className="text-slate-600">Due Date</dt>
            <dd>{formatDate(doc.dueDate)}</dd>
          </dl>
        </div>
      </header>

      {doc.voided ? (
        <p className="mt-3 rounded border border-red-300 px-3 py-2 font-semibold text-red-700" role="note">
          VOID{doc.voidReason ? `: ${doc.voidReason}` : ""}. Nothing is due on this invoice.
        </p>
      ) : null}
      <section aria-label="Bill to" className="mt-4">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Bill To</h2>
        <p className="font-semibold">{client.name}</p>
        {client.address ? <p className="whitespace-pre-line">{client.address}</p> : null}
        <p>{[client.phone, client.email].filter(Boolean).join(" · ")}</p>
        {client.taxNo ? <p>TIN: {client.taxNo}</p> : null}
      </section>

      {/* On a phone the table takes the small type and plain headings, so every column fits the
          sheet; a table still wider (amounts in the billions) scrolls in its own box, never the page. */}
      <div className="mt-4 overflow-x-auto print:overflow-visible">
        <table className="doc-lines w-full border-collapse text-xs sm:text-[13px]">
          <caption className="sr-only">Deliveries on this invoice</caption>
          <thead>
            <tr className="border-y border-slate-400 text-left text-xs text-slate-600 sm:uppercase sm:tracking-wide">
              {LINE_HEADINGS.map((heading, index) => (
                <th key={heading} scope="col" className={headingClass(index)}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
          <tfoot>
            <tr className="font-semibold">
              <td colSpan={3} className="py-1.5 pr-1.5 sm:pr-2">
                {doc.lineCount} {doc.lineCount === 1 ? "delivery" : "deliveries"}
              </td>
              <td className="py-1.5 pr-1.5 sm:pr-2 text-right tabular-nums">{formatTons(doc.totalTons)}</td>
              <td />
              <td className="py-1.5 text-right tabular-nums">{formatAmount(doc.amount)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      {doc.weighedLines > 0 ? <p className="mt-1 text-xs text-slate-600">{ACCEPTED_TONS_NOTE}</p> : null}

      <div className="mt-4 flex flex-wrap justify-between gap-6">
        <div className="max-w-sm space-y-3">
          <p>
            <span className="text-xs font-semibold uppercase tracking-wide text-slate-600">Amount in words</span>
            <br />
            <span data-testid="amount-in-words">{doc.amountInWords}</span>
          </p>
          {asksForPayment(doc) ? (
            <section aria-label="Payment instructions">
              <h2 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Payment Instructions</h2>
              <p>Please pay by {formatDate(doc.dueDate)} into:</p>
              {business.bankName ? <p>Bank: {business.bankName}</p> : null}
              {business.bankAccountName ? <p>Account name: {business.bankAccountName}</p> : null}
              {business.bankAccountNo ? <p>Account number: {business.bankAccountNo}</p> : null}
              <p>Reference: Invoice {doc.invoiceNo}</p>
            </section>
          ) : null}
        </div>
        <dl
          className="ml-auto grid min-w-[16rem] grid-cols-[1fr_auto] gap-x-4 gap-y-1 tabular-nums"
          aria-label="Totals"
        >
          <dt>Amount (tax inclusive)</dt>
          <dd className="text-right">{formatNaira(doc.amount)}</dd>
          <dt className="text-slate-600">Net of tax</dt>
          <dd className="text-right text-slate-600">{formatNaira(doc.net)}</dd>
          <dt className="text-slate-600">Tax included ({formatAmount(doc.taxRate)}%)</dt>
          <dd className="text-right text-slate-600">{formatNaira(doc.tax)}</dd>
          {doc.received.map((r, index) => (
            <div key={index} className="contents">
              <dt className="text-slate-600">{receivedLabel(r)}</dt>
              <dd className="text-right text-slate-600">{receivedAmount(r)}</dd>
            </div>
          ))}
          <dt className="border-t border-slate-400 pt-1 font-bold">{balance.label}</dt>
          <dd className="border-t border-slate-400 pt-1 text-right font-bold" data-testid="balance-due">
            {balance.amount}
          </dd>
        </dl>
      </div>
    </article>
  );
}

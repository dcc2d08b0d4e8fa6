// The Invoices page's 50 cards, written as one HTML string: the one list whose rows are not React
// components, because as React elements (about 1,100 a page) they put the page under the
// performance bar (docs/decisions/0507). The cards have no React state or handlers: their links
// are plain anchors that the app shell's one click handler turns into client-side navigations
// (decision 0505). React hydrates one <ul>.
// Every value is escaped by the `html` tag (app/utils/html.ts): a client's name or a void reason
// is text, never markup.
import { paymentStatusBadgeClass } from "~/components/invoices/status-badge";
import { rowLinkHtml } from "~/components/row-link-html";
import { formatDate } from "~/utils/dates";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";

/** What a card shows: the loader sends exactly these fields (lean hydration data). */
export type InvoiceCard = {
  id: number;
  invoiceNo: string;
  clientName: string;
  paymentStatus: string;
  payable: boolean;
  voidReason: string | null;
  amount: string;
  amountPaid: string;
  amountCredited: string;
  /** amount - paid - credited (0 when void); a card carrying a client credit shows that instead. */
  balance: string;
  expectedPaymentDate: string;
  profit: string;
  /** Only on an invoice carrying a client credit (paid and credited past its amount). */
  clientCredit?: string;
};

// Links to pages of this app are RowLinks (rowLinkHtml); Record Payment opens a dialog over the
// list and keeps the scroll position.
// The markup is written without whitespace between tags (none is sent); Prettier leaves the
// templates of `*-html.ts` files as written (.prettierrc.json).
function card(inv: InvoiceCard, listSearch: string) {
  const isVoid = inv.voidReason !== null;
  const title = `Invoice #${inv.invoiceNo}`;
  const titleClass = `block font-semibold underline-offset-2 hover:underline${isVoid ? " line-through" : ""}`;
  const link = rowLinkHtml(`/invoices/${inv.id}`, title, { className: titleClass });
  const client = html`<p class="page-subtitle">${inv.clientName}</p>`;
  const badge = html`<span class="${paymentStatusBadgeClass(inv.paymentStatus)}">${inv.paymentStatus}</span>`;
  const reason = isVoid && html`<p class="mt-2 text-sm text-slate-600 dark:text-slate-300">Void: ${inv.voidReason}</p>`;
  const amounts = html`<dt>Amount</dt><dd>${formatNaira(inv.amount)}</dd><dt>Paid</dt><dd>${formatNaira(inv.amountPaid)}</dd><dt>Credited</dt><dd>${formatNaira(inv.amountCredited)}</dd>`;
  const credit = inv.clientCredit
    ? html`<dt>Client credit</dt><dd>${formatNaira(inv.clientCredit)}</dd>`
    : html`<dt>Balance</dt><dd>${formatNaira(inv.balance)}</dd>`;
  const due = html`<dt>Due Date</dt><dd>${formatDate(inv.expectedPaymentDate)}</dd>`;
  const profit = html`<dt>Profit</dt><dd>${formatNaira(inv.profit)}</dd>`;
  const pay =
    inv.payable &&
    rowLinkHtml(`/invoices/${inv.id}/pay${listSearch}`, "Record Payment", {
      className: "btn-outline btn-sm",
      keepScroll: true,
    });
  // The print view is a document of its own (streamed HTML, no app around it) and the PDF a
  // download: plain anchors without data-discover, so the browser loads them itself.
  const printLabel = `Print invoice #${inv.invoiceNo}`;
  const print = html`<a href="/invoices/${inv.id}/print" class="btn-ghost btn-sm" aria-label="${printLabel}">Print</a>`;
  const pdfLabel = `PDF of invoice #${inv.invoiceNo}`;
  const pdf = html`<a href="/invoices/${inv.id}/pdf" class="btn-ghost btn-sm" download="" aria-label="${pdfLabel}">PDF</a>`;
  // Struck through, not faded: faded figures fell under the contrast the accessibility walk requires.
  const factsClass = isVoid ? "facts line-through" : "facts";
  const top = html`<div class="flex items-start justify-between gap-2"><div>${link}${client}</div>${badge}</div>`;
  const facts = html`<dl class="${factsClass}">${amounts}${credit}${due}${profit}</dl>`;
  const actions = html`<div class="mt-3 flex flex-wrap gap-2">${pay}${print}${pdf}</div>`;
  return html`<li class="card p-4" aria-label="${title}">${top}${reason}${facts}${actions}</li>`;
}

/**
 * The `<li>` cards of a page of invoices, as HTML for the list's `dangerouslySetInnerHTML`.
 * Record Payment carries the list's filters and page (`listSearch`, "" or "?…"): the dialog
 * returns there.
 */
export function invoiceCardsHtml(invoices: InvoiceCard[], listSearch = ""): string {
  return html`${invoices.map((inv) => card(inv, listSearch))}`.value;
}

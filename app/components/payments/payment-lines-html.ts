// The Payments list's lines, written as one HTML string (docs/decisions/0507, addendum of stop
// 37), as the invoice cards and the deliveries rows are: 50 lines with no state and no handler,
// whose links are plain anchors the app shell's click handler turns into client-side navigations
// (decision 0505). Every value is escaped by the `html` tag (app/utils/html.ts): a client's name,
// a reference or a reversal's reason is text, never markup.
import { reversePaymentUrl } from "~/components/payment-reversal";
import { creditMoveText, paymentReversalText, refundText } from "~/utils/money-line-words";
import { CREDIT_MOVED_MARK, isReversible, REFUND_MARK, reversalMark, type Mark } from "~/components/reversal-marks";
import { rowLinkHtml } from "~/components/row-link-html";
import type { PaymentView } from "~/presenters/payments.server";
import { formatDate } from "~/utils/dates";
import { html } from "~/utils/html";
import { formatNaira } from "~/utils/money";

/** What marks an entry that is not a plain payment (a reversal, a refund, half of a credit move). */
export type EntryMarks = Pick<
  PaymentView,
  | "reversesPaymentId"
  | "note"
  | "reversedOn"
  | "refund"
  | "creditMovedToInvoiceNo"
  | "creditFromInvoiceNo"
  | "reversesKind"
>;

/** A plain payment's marks: the page's data carries marks only for the other entries. */
export const PLAIN_ENTRY: EntryMarks = {
  reversesPaymentId: null,
  note: null,
  reversedOn: null,
  refund: false,
  creditMovedToInvoiceNo: null,
  creditFromInvoiceNo: null,
  reversesKind: null,
};

export const isPlainEntry = (entry: EntryMarks) =>
  (Object.keys(PLAIN_ENTRY) as (keyof EntryMarks)[]).every((key) => entry[key] === PLAIN_ENTRY[key]);

/** What a line shows: a payment and its marks. */
export type PaymentLine = Pick<
  PaymentView,
  "id" | "amount" | "paymentDate" | "invoiceId" | "invoiceNo" | "clientName" | "reference"
> &
  EntryMarks;

const markHtml = (mark: Mark | null) => mark && html`<span class="${mark.className}">${mark.label}</span>`;

/** The line under the amount that says what an entry other than a payment is; null on a payment. */
function entryText(p: PaymentLine) {
  if (p.reversesPaymentId !== null) return paymentReversalText({ ...p, reversesPaymentId: p.reversesPaymentId });
  if (p.refund) return refundText(p);
  return creditMoveText(p);
}

// The markup is written without whitespace between tags (none is sent); Prettier leaves the
// templates of `*-html.ts` files as written (.prettierrc.json).
function line(p: PaymentLine, canReverse: boolean, listSearch: URLSearchParams) {
  const marks = [
    p.refund && markHtml(REFUND_MARK),
    creditMoveText(p) !== null && markHtml(CREDIT_MOVED_MARK),
    markHtml(reversalMark({ reverses: p.reversesPaymentId, reversedOn: p.reversedOn })),
  ];
  const amount = html`<p class="font-semibold tabular-nums">${formatNaira(p.amount)}${marks}</p>`;
  const invoice = rowLinkHtml(`/invoices/${p.invoiceId}`, `Invoice #${p.invoiceNo}`, { className: "underline" });
  const facts = html`<p class="page-subtitle">Payment #${p.id} · ${formatDate(p.paymentDate)} · ${invoice} · ${p.clientName}</p>`;
  const text = entryText(p);
  const what = text !== null && html`<p class="text-sm">${text}</p>`;
  const reference = p.reference && html`<p class="text-sm text-slate-600 dark:text-slate-300">Ref: ${p.reference}</p>`;
  const reverse =
    canReverse &&
    isReversible({ reverses: p.reversesPaymentId, reversedOn: p.reversedOn }) &&
    rowLinkHtml(reversePaymentUrl(p.id, listSearch), "Reverse", {
      className: "btn-ghost text-sm",
      label: `Reverse payment #${p.id}`,
      keepScroll: true,
    });
  const actions = html`<div class="flex flex-wrap items-center gap-3">${reference}${reverse}</div>`;
  return html`<li class="flex flex-wrap items-center justify-between gap-2 p-4"><div>${amount}${facts}${what}</div>${actions}</li>`;
}

/**
 * The `<li>` lines of a page of payments, as HTML for the list's `dangerouslySetInnerHTML`.
 * Reverse (only for a user who may reverse) carries the list's filters and page (`listSearch`):
 * the dialog opens over this list and returns to it.
 */
export function paymentLinesHtml(lines: PaymentLine[], canReverse: boolean, listSearch: URLSearchParams): string {
  return html`${lines.map((p) => line(p, canReverse, listSearch))}`.value;
}

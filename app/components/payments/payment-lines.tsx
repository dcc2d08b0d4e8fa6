// The Payments list's lines (decision 0507): React components with no state and no handler,
// whose links are RowLinks (decision 0505), plain anchors the app shell's click handler turns
// into client-side navigations. The marks are the badges of reversal-marks.tsx, as on the
// invoice page.
import { reversePaymentUrl } from "~/components/payment-reversal";
import { CreditMovedBadge, isReversible, RefundBadge, ReversalBadge } from "~/components/reversal-marks";
import { RowLink } from "~/components/row-link";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { creditMoveText, paymentReversalText, refundText } from "~/utils/money-line-words";
import type { PaymentView } from "~/presenters/payments.server";

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

/** The line under the amount that says what an entry other than a payment is; null on a payment. */
function entryText(p: PaymentLine) {
  if (p.reversesPaymentId !== null) return paymentReversalText({ ...p, reversesPaymentId: p.reversesPaymentId });
  if (p.refund) return refundText(p);
  return creditMoveText(p);
}

/**
 * The `<li>` lines of a page of payments. Reverse (only for a user who may reverse) carries the
 * list's filters and page (`listSearch`): the dialog opens over this list and returns to it.
 */
export function PaymentLines({
  lines,
  canReverse,
  listSearch,
}: {
  lines: PaymentLine[];
  canReverse: boolean;
  listSearch: URLSearchParams;
}) {
  return lines.map((p) => <Line key={p.id} p={p} canReverse={canReverse} listSearch={listSearch} />);
}

function Line({ p, canReverse, listSearch }: { p: PaymentLine; canReverse: boolean; listSearch: URLSearchParams }) {
  const marks = { reverses: p.reversesPaymentId, reversedOn: p.reversedOn };
  const text = entryText(p);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 p-4">
      <div>
        <p className="font-semibold tabular-nums">
          {formatNaira(p.amount)}
          {p.refund ? <RefundBadge /> : null}
          {creditMoveText(p) !== null ? <CreditMovedBadge /> : null}
          <ReversalBadge {...marks} />
        </p>
        <p className="page-subtitle">
          {`Payment #${p.id} · ${formatDate(p.paymentDate)} · `}
          <RowLink to={`/invoices/${p.invoiceId}`} className="underline">{`Invoice #${p.invoiceNo}`}</RowLink>
          {` · ${p.clientName}`}
        </p>
        {text !== null ? <p className="text-sm">{text}</p> : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        {p.reference ? <p className="text-sm text-slate-600 dark:text-slate-300">{`Ref: ${p.reference}`}</p> : null}
        {canReverse && isReversible(marks) ? (
          <RowLink
            to={reversePaymentUrl(p.id, listSearch)}
            className="btn-ghost text-sm"
            aria-label={`Reverse payment #${p.id}`}
            preventScrollReset
          >
            Reverse
          </RowLink>
        ) : null}
      </div>
    </li>
  );
}

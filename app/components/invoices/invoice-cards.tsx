// The Invoices page's cards (decision 0507): React components with no state and no handler.
// Their links to pages of the app are RowLinks (decision 0505), plain anchors that the app
// shell's one click handler turns into client-side navigations.
import { PaymentStatusBadge } from "~/components/invoices/status-badge";
import { RowLink } from "~/components/row-link";
import { formatDate } from "~/utils/dates";
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

/**
 * The `<li>` cards of a page of invoices. Record Payment opens a dialog over the list, keeps the
 * scroll position and carries the list's filters and page (`listSearch`, "" or "?…"): the dialog
 * returns there.
 */
export function InvoiceCards({ invoices, listSearch = "" }: { invoices: InvoiceCard[]; listSearch?: string }) {
  return invoices.map((inv) => <Card key={inv.id} inv={inv} listSearch={listSearch} />);
}

function Card({ inv, listSearch }: { inv: InvoiceCard; listSearch: string }) {
  const isVoid = inv.voidReason !== null;
  const title = `Invoice #${inv.invoiceNo}`;
  return (
    <li className="card p-4" aria-label={title}>
      <div className="flex items-start justify-between gap-2">
        <div>
          <RowLink
            to={`/invoices/${inv.id}`}
            className={`block font-semibold underline-offset-2 hover:underline${isVoid ? " line-through" : ""}`}
          >
            {title}
          </RowLink>
          <p className="page-subtitle">{inv.clientName}</p>
        </div>
        <PaymentStatusBadge status={inv.paymentStatus} />
      </div>
      {isVoid ? <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{`Void: ${inv.voidReason}`}</p> : null}
      {/* Struck through, not faded: faded figures fell under the contrast the accessibility walk requires. */}
      <dl className={isVoid ? "facts line-through" : "facts"}>
        <dt>Amount</dt>
        <dd>{formatNaira(inv.amount)}</dd>
        <dt>Paid</dt>
        <dd>{formatNaira(inv.amountPaid)}</dd>
        <dt>Credited</dt>
        <dd>{formatNaira(inv.amountCredited)}</dd>
        {inv.clientCredit ? (
          <>
            <dt>Client credit</dt>
            <dd>{formatNaira(inv.clientCredit)}</dd>
          </>
        ) : (
          <>
            <dt>Balance</dt>
            <dd>{formatNaira(inv.balance)}</dd>
          </>
        )}
        <dt>Due Date</dt>
        <dd>{formatDate(inv.expectedPaymentDate)}</dd>
        <dt>Profit</dt>
        <dd>{formatNaira(inv.profit)}</dd>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        {inv.payable ? (
          <RowLink to={`/invoices/${inv.id}/pay${listSearch}`} className="btn-outline btn-sm" preventScrollReset>
            Record Payment
          </RowLink>
        ) : null}
        {/* The print view is a document of its own (streamed HTML, no app around it) and the PDF a
            download: plain anchors without data-discover, so the browser loads them itself. */}
        <a
          href={`/invoices/${inv.id}/print`}
          className="btn-ghost btn-sm"
          aria-label={`Print invoice #${inv.invoiceNo}`}
        >
          Print
        </a>
        <a
          href={`/invoices/${inv.id}/pdf`}
          className="btn-ghost btn-sm"
          download
          aria-label={`PDF of invoice #${inv.invoiceNo}`}
        >
          PDF
        </a>
      </div>
    </li>
  );
}

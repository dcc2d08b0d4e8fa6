import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { InvoiceReminders } from "~/components/sharing/invoice-reminders";
import { invoiceReminders } from "~/models/reminders.server";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { reverseCreditNoteUrl } from "~/components/credit-note-reversal";
import { creditNoteReversalText } from "~/utils/money-line-words";
import { ErrorView } from "~/components/error-view";
import { Breadcrumb } from "~/components/page-header";
import { PaymentStatusBadge } from "~/components/invoices/status-badge";
import { Pager } from "~/components/pager";
import { reversePaymentUrl } from "~/components/payment-reversal";
import { creditMoveText, paymentReversalText, refundText } from "~/utils/money-line-words";
import {
  AdminReversesNote,
  CreditMovedBadge,
  isReversible,
  RefundBadge,
  ReversalBadge,
  ReverseLink,
} from "~/components/reversal-marks";
import { TableScroll } from "~/components/table-scroll";
import { AuditEventList } from "~/components/audit/audit-event-list";
import { InvoiceReceipts } from "~/components/invoices/invoice-receipts";
import { getInvoiceDetail } from "~/presenters/invoice-page.server";
import { receiptsOfInvoice } from "~/presenters/receipts.server";
import { getDb } from "~/db.server";
import { presentAuditEvents } from "~/presenters/audit-events.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { invariantResponse } from "~/utils/http.server";
import { add, formatNaira, formatTons, isNegative, sub, toFixed } from "~/utils/money";
import { ACCEPTED_TONS_NOTE, weighingText, type LineWeighing } from "~/utils/weighing-words";
import { parseId, readPageRequest } from "~/utils/params";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening one of its dialogs does not load the invoice page again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs((params) => `/invoices/${params.id}`);

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Invoice #${data.invoice.invoiceNo} · Management` : "Invoice · Management" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.view");
  const id = parseId(params.id);
  invariantResponse(id, "Invoice not found");
  const search = new URL(request.url).searchParams;
  // The deliveries it covers are paged (a month's invoice can cover hundreds); a bad cursor shows the first page.
  const linesRequest = readPageRequest(search, "date");
  const linesPage = linesRequest.invalid ? { cursor: null, direction: "older" as const } : linesRequest;
  const invoice = await getInvoiceDetail(user, id, { linesPage });
  invariantResponse(invoice, "Invoice not found");
  const tz = env().APP_TIME_ZONE;
  const { history, ...shown } = invoice;
  return {
    invoice: shown,
    history: await presentAuditEvents(history),
    reminders: await invoiceReminders(id),
    issuedOn: invoice.issueDate,
    voidedOn: invoice.voidedAt ? todayIn(tz, new Date(invoice.voidedAt)) : null,
    canReverse: can(user, "payment.reverse"),
    canReverseCredit: can(user, "credit_note.reverse"),
    canRefund: can(user, "payment.refund"),
    canPayments: can(user, "payment.record"),
    // Cash and withholding per receipt (docs/decisions/1240).
    receipts: (await receiptsOfInvoice(await getDb(), id)).map((r) => ({
      id: r.id,
      date: r.date,
      reference: r.reference,
      reversed: r.reversed,
      allocations: r.allocations.map(({ amount, cash, wht, vatWithheld }) => ({ amount, cash, wht, vatWithheld })),
    })),
  };
}

export default function InvoicePage() {
  const {
    invoice,
    history,
    reminders,
    issuedOn,
    voidedOn,
    canReverse,
    canReverseCredit,
    canRefund,
    canPayments,
    receipts,
  } = useLoaderData<typeof loader>();
  const isVoid = invoice.storedStatus === "void";
  const settled = toFixed(add(invoice.amountPaid, invoice.amountWithheld, invoice.amountCredited));
  const canPay = !isVoid && invoice.storedStatus !== "paid";
  const canCredit = !isVoid && toFixed(sub(invoice.amount, invoice.amountCredited)) !== "0.00";
  const { lines, payments, creditNotes } = invoice;
  // A payment, even one reversed since, keeps the invoice from being voided (the model's rule).
  const canVoid = !isVoid && payments.count === 0 && creditNotes.count === 0 && invoice.amountWithheld === "0.00";
  return (
    <div className="space-y-4">
      <Breadcrumb to="/invoices">Invoices</Breadcrumb>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title flex items-center gap-3">
            <span className={isVoid ? "line-through" : undefined}>{`Invoice #${invoice.invoiceNo}`}</span>
            <PaymentStatusBadge status={invoice.paymentStatus} />
          </h1>
          <p className="page-subtitle">{invoice.clientName}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {isVoid ? null : (
            <>
              {canPay ? (
                <Link to="payment" className="btn-primary" preventScrollReset>
                  Record Payment
                </Link>
              ) : null}
              {canCredit ? (
                <Link to="credit-note" className="btn-outline" preventScrollReset>
                  Credit Note
                </Link>
              ) : null}
              {canPayments && isNegative(invoice.balance) ? (
                <Link to="apply-credit" className="btn-outline" preventScrollReset>
                  Apply Credit
                </Link>
              ) : null}
              {canRefund && isNegative(invoice.balance) ? (
                <Link to="refund" className="btn-outline" preventScrollReset>
                  Refund Credit
                </Link>
              ) : null}
              {canVoid ? (
                <Link to="void" className="btn-destructive" preventScrollReset>
                  Void
                </Link>
              ) : null}
            </>
          )}
          {/* The print view is a document of its own and the PDF a download: plain anchors, loaded by the browser. */}
          <a
            href={`/invoices/${invoice.id}/print`}
            className="btn-ghost"
            aria-label={`Print invoice #${invoice.invoiceNo}`}
          >
            Print
          </a>
          <a
            href={`/invoices/${invoice.id}/pdf`}
            className="btn-ghost"
            download
            aria-label={`PDF of invoice #${invoice.invoiceNo}`}
          >
            PDF
          </a>
          <Link to={`/share-links?scope=invoice&subjectId=${invoice.id}`} className="btn-ghost">
            Share
          </Link>
        </div>
      </header>
      {isVoid ? (
        <p role="note" className="card border-red-300 p-4 text-sm" data-testid="void-reason">
          <strong>Void</strong>
          {voidedOn ? ` on ${formatDate(voidedOn)}` : null}: {invoice.voidReason}. Its number stays taken; its
          deliveries went back to confirmed and can be invoiced again.
        </p>
      ) : null}
      <section aria-label="Invoice details" className="card p-4">
        <dl className="facts sm:grid-cols-4">
          <div>
            <dt>Issued</dt>
            <dd>{formatDate(issuedOn)}</dd>
          </div>
          <div>
            <dt>Due Date</dt>
            <dd>{formatDate(invoice.expectedPaymentDate)}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd className={isVoid ? "line-through" : undefined} data-testid="amount">
              {formatNaira(invoice.amount)}
            </dd>
          </div>
          <div>
            <dt>Tax rate</dt>
            <dd>{`${invoice.taxRate}%`}</dd>
          </div>
          <div>
            <dt>Tax contained</dt>
            <dd data-testid="tax">{formatNaira(invoice.taxAmount)}</dd>
          </div>
          <div>
            <dt>Paid</dt>
            <dd data-testid="paid">{formatNaira(invoice.amountPaid)}</dd>
          </div>
          {invoice.amountWithheld !== "0.00" ? (
            <div>
              <dt>Withheld by the client</dt>
              <dd data-testid="withheld">{formatNaira(invoice.amountWithheld)}</dd>
            </div>
          ) : null}
          <div>
            <dt>Credited</dt>
            <dd data-testid="credited">{formatNaira(invoice.amountCredited)}</dd>
          </div>
          <div>
            <dt>Balance</dt>
            <dd data-testid="invoice-balance">
              {isNegative(invoice.balance)
                ? `Credit ${formatNaira(toFixed(sub("0", invoice.balance)))}`
                : formatNaira(invoice.balance)}
            </dd>
          </div>
          <div>
            <dt>Profit</dt>
            <dd>{formatNaira(invoice.profit)}</dd>
          </div>
        </dl>
        <p className="page-subtitle mt-3 text-xs">
          Amounts include tax: the tax contained is amount × rate ÷ (100 + rate). Settled {formatNaira(settled)} of{" "}
          {formatNaira(invoice.amount)}.
        </p>
      </section>

      <section aria-labelledby="invoice-deliveries" className="space-y-2">
        <h2 id="invoice-deliveries" className="text-lg font-semibold">
          {`Deliveries (${lines.count}, ${formatTons(lines.tons)} tons)`}
        </h2>
        <TableScroll label="Deliveries on this invoice">
          <table className="data-table compact min-w-[640px]">
            <thead>
              <tr>
                {["Date", "Agent", "Truck", "Location"].map((h) => (
                  <th key={h}>{h}</th>
                ))}
                {["Tons", "Rate", "Amount"].map((h) => (
                  <th key={h} className="num">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {lines.items.map((l) => (
                <tr key={l.deliveryId}>
                  <td className="nowrap">{formatDate(l.date)}</td>
                  <td>{l.agentName ?? "—"}</td>
                  <td>{l.truckNo ?? "—"}</td>
                  <td>
                    {l.location}
                    <WeighingLine line={l} />
                  </td>
                  <td className="num">{formatTons(l.tons)}</td>
                  <td className="num">{l.sellingRate === null ? "—" : formatNaira(l.sellingRate)}</td>
                  <td className="num">{formatNaira(l.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        {lines.items.some((l) => l.receivedTons !== null) ? (
          <p className="page-subtitle text-xs">{ACCEPTED_TONS_NOTE}</p>
        ) : null}
        <Pager label="Delivery pages" olderCursor={lines.olderCursor} newerCursor={lines.newerCursor} />
      </section>

      <InvoiceReceipts receipts={receipts} />

      <EntryList
        id="invoice-payments"
        title={`Payments (${payments.count})`}
        empty="No payments recorded."
        adminOnly={
          !canReverse &&
          payments.items.some((p) => isReversible({ reverses: p.reversesPaymentId, reversedOn: p.reversedOn }))
            ? "payment"
            : null
        }
        more={
          payments.count > payments.items.length ? (
            <Link to={`/payments?invoiceNo=${invoice.invoiceNo}`} className="text-sm underline">
              {`All ${payments.count} payments`}
            </Link>
          ) : null
        }
      >
        {payments.items.map((p) => (
          <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
            <span className="font-semibold tabular-nums">
              {formatNaira(p.amount)}
              {p.refund ? <RefundBadge /> : null}
              {creditMoveText(p) ? <CreditMovedBadge /> : null}
              <ReversalBadge reverses={p.reversesPaymentId} reversedOn={p.reversedOn} />
            </span>
            <span>{`Payment #${p.id} · ${formatDate(p.paymentDate)}`}</span>
            {p.reference ? <span>{`Ref: ${p.reference}`}</span> : null}
            {p.reversesPaymentId !== null ? (
              <span className="basis-full">
                {paymentReversalText({
                  reversesPaymentId: p.reversesPaymentId,
                  note: p.note,
                  reversesKind: p.reversesKind,
                })}
              </span>
            ) : (
              <>
                {canReverse && isReversible({ reverses: p.reversesPaymentId, reversedOn: p.reversedOn }) ? (
                  <ReverseLink
                    to={reversePaymentUrl(p.id, new URLSearchParams({ invoiceNo: invoice.invoiceNo }))}
                    what={`payment #${p.id}`}
                  />
                ) : null}
                {p.refund ? <span className="basis-full">{refundText(p)}</span> : null}
                {creditMoveText(p) ? <span className="basis-full">{creditMoveText(p)}</span> : null}
              </>
            )}
          </li>
        ))}
      </EntryList>

      <EntryList
        id="invoice-credit-notes"
        title={`Credit notes (${creditNotes.count})`}
        empty="No credit notes."
        adminOnly={
          !canReverseCredit &&
          creditNotes.items.some((c) => isReversible({ reverses: c.reversesCreditNoteId, reversedOn: c.reversedOn }))
            ? "credit note"
            : null
        }
        more={
          creditNotes.count > creditNotes.items.length ? (
            <p className="page-subtitle text-sm">{`Showing the newest ${creditNotes.items.length} of ${creditNotes.count}.`}</p>
          ) : null
        }
      >
        {creditNotes.items.map((c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
            {/* A reversal has no number: its badge names it, and the line below says what it takes back. */}
            <span className="font-semibold">
              {c.creditNoteNo}
              <ReversalBadge reverses={c.reversesCreditNoteId} reversedOn={c.reversedOn} />
            </span>
            <span className="tabular-nums">{formatNaira(c.amount)}</span>
            <span>{formatDate(c.issueDate)}</span>
            {canReverseCredit && isReversible({ reverses: c.reversesCreditNoteId, reversedOn: c.reversedOn }) ? (
              <ReverseLink to={reverseCreditNoteUrl(invoice.id, c.id)} what={`credit note ${c.creditNoteNo}`} />
            ) : null}
            <span className="w-full text-slate-600 dark:text-slate-300">
              {c.reversesCreditNoteId === null ? c.reason : creditNoteReversalText(c)}
            </span>
          </li>
        ))}
      </EntryList>
      <InvoiceReminders reminders={reminders} />
      <section aria-labelledby="invoice-history" className="space-y-2">
        <h2 id="invoice-history" className="text-lg font-semibold">
          History
        </h2>
        <AuditEventList
          events={history}
          showEntity={false}
          showAddress={false}
          label="Invoice history"
          emptyText="No recorded changes."
        />
      </section>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the invoice. Please try again." />;
}

/** Under a line's location: what the client's weighbridge said and what its rule deducted (docs/decisions/1220). */
function WeighingLine({ line }: { line: LineWeighing }) {
  const text = weighingText(line);
  return text ? (
    <span className="block min-w-[12rem] text-xs text-slate-600 dark:text-slate-300" data-testid="line-weighing">
      {text}
    </span>
  ) : null;
}

/**
 * One of the invoice's lists of money entries: its heading with the count, the rows (or a line
 * saying there are none), the note that only an admin reverses when this reader cannot but an
 * entry could be, and the way to the rest when only the newest are shown.
 */
function EntryList({
  id,
  title,
  empty,
  adminOnly,
  more,
  children,
}: {
  id: string;
  title: string;
  empty: string;
  adminOnly: "payment" | "credit note" | null;
  more: ReactNode;
  children: ReactNode[];
}) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children.length === 0 ? (
        <p className="page-subtitle">{empty}</p>
      ) : (
        <ul className="card divide-y divide-slate-100 dark:divide-slate-800">{children}</ul>
      )}
      {adminOnly ? <AdminReversesNote what={adminOnly} /> : null}
      {more}
    </section>
  );
}

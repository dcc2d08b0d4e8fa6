import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ExportCsvLink } from "~/components/export-link";
import { isPlainEntry, PaymentLines, PLAIN_ENTRY, type EntryMarks } from "~/components/payments/payment-lines";
import { FilterForm } from "~/components/filter-form";
import { ClientFilter, FilterDate, FilterText } from "~/components/list-filters";
import { Pager } from "~/components/pager";
import { AdminReversesNote } from "~/components/reversal-marks";
import { listClientChoices } from "~/models/client.server";
import { listPayments, paymentTotals } from "~/presenters/payments.server";
import { isPaymentFiltered, parsePaymentFilters } from "~/schemas/payment-filters";
import { readPageRequest } from "~/utils/params";
import { can, requireCapability } from "~/rules/capabilities.server";
import { SummaryAmount } from "~/components/money";
import { PageHeader } from "~/components/page-header";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening a dialog over the list does not load the list again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs("/payments");

export const meta: MetaFunction = () => [{ title: "Payments · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  // Filters or a cursor that cannot match are ignored: the page shows what it can.
  const { filters } = parsePaymentFilters(params);
  const asked = readPageRequest(params, "date");
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [payments, totals, clients] = await Promise.all([
    listPayments(user, filters, { page }),
    paymentTotals(user, filters),
    listClientChoices(),
  ]);
  return {
    // Only what a line shows goes into the hydration data.
    payments: payments.items.map((p) => {
      const entry: EntryMarks = {
        reversesPaymentId: p.reversesPaymentId,
        note: p.note,
        reversedOn: p.reversedOn,
        refund: p.refund,
        creditMovedToInvoiceNo: p.creditMovedToInvoiceNo,
        creditFromInvoiceNo: p.creditFromInvoiceNo,
        reversesKind: p.reversesKind,
      };
      return {
        id: p.id,
        amount: p.amount,
        paymentDate: p.paymentDate,
        invoiceId: p.invoiceId,
        invoiceNo: p.invoiceNo,
        clientName: p.clientName,
        reference: p.reference,
        // Sent only for the few entries that are not plain payments (reversals, refunds, moves).
        ...(isPlainEntry(entry) ? {} : { entry }),
      };
    }),
    olderCursor: payments.olderCursor,
    newerCursor: payments.newerCursor,
    totals,
    clients,
    filtered: isPaymentFiltered(filters),
    canReverse: can(user, "payment.reverse"),
  };
}

export default function PaymentsPage() {
  const { payments, olderCursor, newerCursor, totals, clients, filtered, canReverse } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Reverse Payment opens over this list as it is filtered and paged, and comes back to it.
  const listSearch = new URLSearchParams(useLocation().search);
  return (
    <div className="space-y-4">
      <PageHeader title="Payments" subtitle="Track payment records">
        <Link to="/receipts" className="btn-outline">
          Receipts
        </Link>
        <ExportCsvLink to="/payments/export" />
      </PageHeader>
      <section className="grid grid-cols-2 gap-3">
        <div className="card p-4">
          <p className="text-sm text-slate-500">Total Payments</p>
          <p className="text-2xl font-bold tabular-nums" data-testid="total-payments">
            {totals.count}
          </p>
        </div>
        <div className="card p-4">
          <p className="text-sm text-slate-500">Total Amount</p>
          <p className="text-2xl font-bold tabular-nums" data-testid="total-amount">
            <SummaryAmount value={totals.total} />
          </p>
        </div>
      </section>
      <FilterForm
        label="Filter payments"
        clearTo="/payments"
        names={["from", "to", "clientId", "invoiceNo", "reference"]}
      >
        <FilterDate name="from" label="Paid from" />
        <FilterDate name="to" label="Paid to" />
        <ClientFilter clients={clients} />
        <FilterText name="invoiceNo" label="Invoice #" numeric />
        <FilterText name="reference" label="Reference" />
      </FilterForm>
      <section className="space-y-3" aria-labelledby="history">
        <h2 id="history" className="text-lg font-semibold">
          Payment History
        </h2>
        {navigation.state === "loading" && navigation.location.pathname === "/payments" ? (
          <p className="page-subtitle">Loading payments...</p>
        ) : null}
        {payments.length === 0 ? (
          <div className="card p-10 text-center">
            <p className="font-semibold">{filtered ? "No Payments Found" : "No Payments Yet"}</p>
            <p className="page-subtitle mt-1">
              {filtered
                ? "No payments match the current filter"
                : "Payments will appear here once recorded via Record Payment on pending invoices."}
            </p>
          </div>
        ) : (
          <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
            <PaymentLines
              lines={payments.map(({ entry, ...line }) => ({ ...line, ...(entry ?? PLAIN_ENTRY) }))}
              canReverse={canReverse}
              listSearch={listSearch}
            />
          </ul>
        )}
        {!canReverse && payments.length > 0 ? <AdminReversesNote what="payment" /> : null}
        <Pager label="Payment pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      </section>
      <Outlet />
    </div>
  );
}

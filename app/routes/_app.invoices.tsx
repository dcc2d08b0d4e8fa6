import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation, useNavigation, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { ExportCsvLink } from "~/components/export-link";
import { FilterForm } from "~/components/filter-form";
import { ClientFilter, FilterDate, FilterSelect, FilterText } from "~/components/list-filters";
import { PlusIcon } from "~/components/icons";
import { invoiceCardsHtml, type InvoiceCard } from "~/components/invoices/invoice-cards-html";
import { listClientChoices } from "~/models/client.server";
import { Pager } from "~/components/pager";
import { isFiltered, parseInvoiceFilters, type InvoiceStatusFilter } from "~/schemas/invoice-filters";
import { invoiceSummary, listInvoices } from "~/presenters/invoice-list.server";
import { requireCapability } from "~/rules/capabilities.server";
import { clientCreditOf } from "~/rules/invoices.server";
import { INVOICE_LIST_PARAMS, keptSearch } from "~/utils/list-search";
import { readPageRequest } from "~/utils/params";
import { PageHeader } from "~/components/page-header";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening a dialog over the list does not load the list again; Generate Invoice's own search
// (its picker) is not the list's (decision 0200).
export const shouldRevalidate = keepListBehindDialogs(
  "/invoices",
  (current, next) =>
    keptSearch(current.searchParams, INVOICE_LIST_PARAMS) === keptSearch(next.searchParams, INVOICE_LIST_PARAMS),
);

/** The statuses the summary counts, in its order; the status filter offers them first. */
const SUMMARY_STATUSES = [
  { value: "pending", label: "Pending" },
  { value: "partial", label: "Partial" },
  { value: "overdue", label: "Overdue" },
  { value: "paid", label: "Paid" },
] as const;

export const meta: MetaFunction = () => [{ title: "Invoices · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const params = new URL(request.url).searchParams;
  // A filter or cursor that cannot match is ignored: the page shows what it can.
  const { filters } = parseInvoiceFilters(params);
  const request_ = readPageRequest(params, "id");
  const page = request_.invalid ? { cursor: null, direction: "older" as const } : request_;
  const [invoices, summary, clients] = await Promise.all([
    listInvoices(user, filters, { page }),
    invoiceSummary(user),
    listClientChoices(),
  ]);
  return {
    // Only what a card shows goes into the hydration data.
    invoices: invoices.items.map<InvoiceCard>((inv) => {
      const credit = clientCreditOf({ ...inv, paymentStatus: inv.storedStatus });
      return {
        id: inv.id,
        invoiceNo: inv.invoiceNo,
        clientName: inv.clientName,
        paymentStatus: inv.paymentStatus,
        payable: inv.storedStatus !== "paid" && inv.storedStatus !== "void",
        voidReason: inv.voidReason,
        amount: inv.amount,
        amountPaid: inv.amountPaid,
        amountCredited: inv.amountCredited,
        amountWithheld: inv.amountWithheld,
        balance: inv.balance,
        expectedPaymentDate: inv.expectedPaymentDate,
        profit: inv.profit,
        // Sent only when there is one: most invoices carry none.
        ...(credit === "0.00" ? {} : { clientCredit: credit }),
      };
    }),
    olderCursor: invoices.olderCursor,
    newerCursor: invoices.newerCursor,
    summary,
    clients,
    status: filters.status ?? null,
    filtered: isFiltered(filters),
  };
}

export default function InvoicesPage() {
  const { invoices, olderCursor, newerCursor, summary, clients, status, filtered } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/invoices";
  const listSearch = keptSearch(useLocation().search, INVOICE_LIST_PARAMS);
  return (
    <div className="space-y-4">
      <PageHeader title="Invoices" subtitle="Invoice confirmed deliveries and record payments">
        <ExportCsvLink to="/invoices/export" />
        <Link to={`new${listSearch}`} className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> Generate Invoice
        </Link>
      </PageHeader>
      <nav className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Invoice summary">
        {SUMMARY_STATUSES.map(({ value, label }) => (
          <Summary key={value} label={label} status={value} value={summary[value]} current={status} />
        ))}
      </nav>
      <FilterForm label="Filter invoices" clearTo="/invoices" names={["invoiceNo", "status", "clientId", "from", "to"]}>
        <FilterText name="invoiceNo" label="Invoice #" numeric />
        <FilterSelect
          name="status"
          label="Status"
          allLabel="All"
          options={[...SUMMARY_STATUSES, { value: "void", label: "Void" }, { value: "credit", label: "Client credit" }]}
        />
        <ClientFilter clients={clients} />
        <FilterDate name="from" label="Due from" />
        <FilterDate name="to" label="Due to" />
      </FilterForm>
      <section aria-labelledby="all-invoices" className="space-y-3">
        <h2 id="all-invoices" className="text-lg font-semibold">
          All Invoices
        </h2>
        {loading ? <p className="page-subtitle">Loading invoices...</p> : null}
        {invoices.length === 0 ? (
          <div className="card p-10 text-center">
            <p className="font-semibold">No Invoices</p>
            <p className="page-subtitle mt-1">
              {filtered ? "No invoices match the current filter" : "Generate an invoice from a confirmed delivery."}
            </p>
          </div>
        ) : (
          // The cards are one HTML string (decision 0507): no state, plain links, text escaped.
          <ul
            className="grid gap-3 md:grid-cols-2"
            dangerouslySetInnerHTML={{ __html: invoiceCardsHtml(invoices, listSearch) }}
          />
        )}
        <Pager label="Invoice pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      </section>
      <Outlet />
    </div>
  );
}

/** A count for one status; following it filters the list to that status. */
function Summary({
  label,
  status,
  value,
  current,
}: {
  label: string;
  status: InvoiceStatusFilter;
  value: number;
  current: string | null;
}) {
  const active = current === status;
  return (
    <Link
      to={`/invoices?status=${status}`}
      className={`card block p-4 hover:border-green-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-green-600 ${active ? "ring-2 ring-green-600" : ""}`}
      aria-current={active ? "page" : undefined}
    >
      <span className="block text-sm text-slate-500">{label}</span>
      <span className="block text-2xl font-bold tabular-nums" data-testid={`summary-${status}`}>
        {value}
      </span>
    </Link>
  );
}

export function ErrorBoundary() {
  // A 403 (staff) or a missing invoice keeps its own view; only real failures read as such.
  return <ErrorView error={useRouteError()} failure="Failed to load invoices. Please try again." />;
}

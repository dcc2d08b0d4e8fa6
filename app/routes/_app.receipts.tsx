import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ExportCsvLink } from "~/components/export-link";
import { FilterForm } from "~/components/filter-form";
import { ClientFilter, FilterDate, FilterText } from "~/components/list-filters";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { listClientChoices } from "~/models/client.server";
import { listReceipts } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { isPaymentFiltered, parsePaymentFilters } from "~/schemas/payment-filters";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { readPageRequest } from "~/utils/params";

// The Receipts list (docs/decisions/1240): one transfer a row, newest first, 50 a page.
export const meta: MetaFunction = () => [{ title: "Receipts · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  const { filters } = parsePaymentFilters(params);
  const asked = readPageRequest(params, "date");
  const page = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [receipts, clients] = await Promise.all([listReceipts(user, filters, { page }), listClientChoices()]);
  return {
    receipts: receipts.items.map((r) => ({
      id: r.id,
      date: r.date,
      clientName: r.clientName,
      reference: r.reference,
      amount: r.amount,
      withheld: r.withheld,
      invoices: r.allocations.map((a) => a.invoiceNo),
      reversed: r.reversed,
    })),
    olderCursor: receipts.olderCursor,
    newerCursor: receipts.newerCursor,
    clients,
    filtered: isPaymentFiltered(filters),
  };
}

export default function ReceiptsPage() {
  const { receipts, olderCursor, newerCursor, clients, filtered } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader title="Receipts" subtitle="Transfers from clients, with what they withheld">
        <Link to="/receipts/new" className="btn-primary">
          Record Receipt
        </Link>
        <Link to="/withholdings" className="btn-outline">
          Withholding
        </Link>
        <Link to="/receipts/bank" className="btn-outline">
          Bank statement
        </Link>
        <ExportCsvLink to="/receipts/export" />
      </PageHeader>
      <FilterForm
        label="Filter receipts"
        clearTo="/receipts"
        names={["from", "to", "clientId", "invoiceNo", "reference"]}
      >
        <FilterDate name="from" label="Received from" />
        <FilterDate name="to" label="Received to" />
        <ClientFilter clients={clients} />
        <FilterText name="invoiceNo" label="Invoice #" numeric />
        <FilterText name="reference" label="Reference" />
      </FilterForm>
      <section className="space-y-3" aria-labelledby="receipts-heading">
        <h2 id="receipts-heading" className="text-lg font-semibold">
          Receipts
        </h2>
        {receipts.length === 0 ? (
          <div className="card p-10 text-center">
            <p className="font-semibold">{filtered ? "No Receipts Found" : "No Receipts Yet"}</p>
            <p className="page-subtitle mt-1">
              {filtered ? "No receipts match the current filter" : "Receipts appear here once recorded."}
            </p>
          </div>
        ) : (
          <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
            {receipts.map((r) => (
              <li key={r.id} className="flex flex-wrap items-baseline justify-between gap-2 p-4">
                <div className="min-w-0">
                  <Link to={`/receipts/${r.id}`} className="font-semibold underline">
                    Receipt #{r.id}
                  </Link>{" "}
                  <span className="text-slate-500">· {r.clientName}</span>
                  <p className="text-sm text-slate-500">
                    {formatDate(r.date)}
                    {r.reference ? ` · ${r.reference}` : ""} · {r.invoices.map((no) => `#${no}`).join(", ")}
                    {r.reversed ? " · Reversed" : ""}
                  </p>
                </div>
                <div className="text-right tabular-nums">
                  <p className="font-semibold">{formatNaira(r.amount)}</p>
                  {r.withheld !== "0.00" ? (
                    <p className="text-sm text-slate-500">+ {formatNaira(r.withheld)} withheld</p>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        )}
        <Pager label="Receipt pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      </section>
    </div>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Link,
  Outlet,
  useLoaderData,
  useNavigation,
  useRouteError,
  useSearchParams,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { FilterForm } from "~/components/filter-form";
import { ExportCsvLink } from "~/components/export-link";
import { PlusIcon } from "~/components/icons";
import { useChoiceSearch } from "~/components/forms";
import {
  DeliveriesTable,
  deliveryPageColumns,
  toDeliveryRow,
  type DeliveryColumn,
  type DeliveryRow,
} from "~/components/deliveries/deliveries-table";
import { Pager } from "~/components/pager";
import { listAgentChoices } from "~/models/agent.server";
import { getClient } from "~/models/client.server";
import { deliveryListSearch, listDeliveryRows, parseFilters } from "~/models/delivery.server";
import { getClosedThrough } from "~/models/period.server";
import { requireUser } from "~/utils/auth.server";
import { readPageRequest } from "~/utils/params";
import { keepListBehindDialogs } from "~/utils/revalidate";

export const meta: MetaFunction = () => [{ title: "Deliveries · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  // Opening New Delivery as a document (no JavaScript, or a fresh load on a weak connection)
  // renders the form alone: the 50 rows would only slow the page the yard staff need.
  if (url.pathname === NEW_DELIVERY) return { skipped: true as const, role: user.role };
  const filters = parseFilters(Object.fromEntries(url.searchParams));
  // A cursor that does not parse shows the first page.
  const page = readPageRequest(url.searchParams, "date");
  const [{ items: deliveries, olderCursor, newerCursor }, agents, closedThrough, client] = await Promise.all([
    listDeliveryRows(user, filters, { page }),
    listAgentChoices(),
    getClosedThrough(),
    filters.clientId ? getClient(filters.clientId) : null,
  ]);
  const columns = deliveryPageColumns(user.role);
  return {
    skipped: false as const,
    role: user.role,
    columns,
    // Only what the table shows goes into the page's hydration data (it was every field).
    deliveries: deliveries.map((d) => toDeliveryRow(d, columns)),
    olderCursor,
    newerCursor,
    agents,
    // What the profit report's drill-down narrowed the list to (docs/decisions/1270).
    narrowed: [client ? `Client: ${client.name}` : null, filters.site ? `Pick-up site: ${filters.site}` : null]
      .filter(Boolean)
      .join(" · "),
    filtered: Boolean(
      filters.from || filters.to || filters.status || filters.agentId || filters.clientId || filters.site,
    ),
    listSearch: deliveryListSearch(url.searchParams),
    closedThrough,
  };
}

/**
 * While New Delivery is open the list behind it stays as it is: run for `/deliveries/new`, the
 * loader skips the rows (a filtered list's link changes the query, which would run it, and so
 * would any revalidation while the dialog is open). Leaving New Delivery always runs it: the
 * rows may have been skipped.
 */
const keepBehindDialogs = keepListBehindDialogs("/deliveries");
export const shouldRevalidate: ShouldRevalidateFunction = (args) => {
  if (args.nextUrl.pathname === NEW_DELIVERY) return false;
  // Opening Edit or Delete over the list does not load it again (decision 0200).
  return args.currentUrl.pathname === NEW_DELIVERY || keepBehindDialogs(args);
};
const NEW_DELIVERY = "/deliveries/new";
const DRILL_DOWN = ["clientId", "site"];

export default function DeliveriesPage() {
  const data = useLoaderData<typeof loader>();
  // New Delivery alone is a page of its own behind the dialog, not a blank one.
  if (data.skipped) {
    return (
      <>
        <h1 className="page-title">New Delivery</h1>
        <Outlet />
      </>
    );
  }
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Deliveries</h1>
          <p className="page-subtitle">
            {data.role === "staff" ? "The deliveries you recorded" : "Every delivery, newest first"}
            {data.narrowed ? ` · ${data.narrowed}` : null}
          </p>
        </div>
        <div className="flex gap-2">
          <ExportCsvLink to="/deliveries/export" />
          <Link to="new" className="btn-primary" preventScrollReset>
            <PlusIcon width={16} height={16} /> New Delivery
          </Link>
        </div>
      </header>
      <Filters agents={data.agents} />
      <DeliveriesList
        rows={data.deliveries}
        columns={data.columns}
        filtered={data.filtered}
        listSearch={data.listSearch}
        closedThrough={data.closedThrough}
      />
      <Pager label="Pages of deliveries" olderCursor={data.olderCursor} newerCursor={data.newerCursor} />
      <Outlet />
    </div>
  );
}

function Filters({ agents }: { agents: { id: number; name: string }[] }) {
  const [params] = useSearchParams();
  const agentSearch = useChoiceSearch(agents, "filter-agent", "agents");
  return (
    <FilterForm
      label="Filter deliveries"
      clearTo="/deliveries"
      names={["from", "to", "status", "agentId", "clientId", "site"]}
      className="sm:grid-cols-5"
    >
      {/* The profit report's drill-down: kept while the other filters change (docs/decisions/1270). */}
      {DRILL_DOWN.map((name) =>
        params.get(name) ? <input key={name} type="hidden" name={name} value={params.get(name) ?? ""} /> : null,
      )}
      <div>
        <label className="label" htmlFor="filter-from">
          From
        </label>
        <input id="filter-from" name="from" type="date" className="input" defaultValue={params.get("from") ?? ""} />
      </div>
      <div>
        <label className="label" htmlFor="filter-to">
          To
        </label>
        <input id="filter-to" name="to" type="date" className="input" defaultValue={params.get("to") ?? ""} />
      </div>
      <div>
        <label className="label" htmlFor="filter-status">
          Status
        </label>
        <select id="filter-status" name="status" className="input" defaultValue={params.get("status") ?? ""}>
          <option value="">All</option>
          <option value="confirmed">Confirmed</option>
          <option value="invoiced">Invoiced</option>
          <option value="draft">Draft</option>
        </select>
      </div>
      <div>
        <label className="label" htmlFor="filter-agent">
          Agent
        </label>
        {agentSearch.search}
        <select id="filter-agent" name="agentId" className="input" defaultValue={params.get("agentId") ?? ""}>
          <option value="">All agents</option>
          {agentSearch.shown.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
            </option>
          ))}
        </select>
      </div>
    </FilterForm>
  );
}

/** The page's table and its empty state; the rows are the shown fields only. */
function DeliveriesList({
  rows,
  columns,
  filtered,
  listSearch,
  closedThrough,
}: {
  rows: DeliveryRow[];
  columns: DeliveryColumn[];
  filtered: boolean;
  listSearch: string;
  closedThrough: string | null;
}) {
  const navigation = useNavigation();
  if (rows.length === 0) {
    return (
      <div className="card p-10 text-center">
        <p className="font-semibold">{filtered ? "No Deliveries" : "No Deliveries Yet"}</p>
        <p className="page-subtitle mt-1">
          {filtered ? "No deliveries match the current filter or date range." : "Recorded deliveries will appear here."}
        </p>
      </div>
    );
  }
  return (
    <DeliveriesTable
      rows={rows}
      columns={columns}
      label="Deliveries"
      // On a phone: tighter cells, the location under the agent (the weights need the room).
      compact
      minWidth="640"
      className="max-h-table"
      busy={navigation.state === "loading"}
      listSearch={listSearch}
      closedThrough={closedThrough}
      before={
        navigation.state === "loading" && navigation.location.pathname === "/deliveries" ? (
          <p className="px-3 py-2 text-sm text-slate-500 dark:text-slate-400">Loading deliveries...</p>
        ) : null
      }
    />
  );
}

export function ErrorBoundary() {
  // A missing or forbidden dialog route below the list bubbles up here: it keeps its status.
  return (
    <ErrorView
      error={useRouteError()}
      failure="Failed to load deliveries. Please check your connection and try again."
    />
  );
}

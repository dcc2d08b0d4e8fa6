import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ChartFigure } from "~/components/reports/chart";
import { ProfitTable } from "~/components/reports/profit-table";
import { PageHeader } from "~/components/page-header";
import { loadProfitReportView, profitTableView } from "~/presenters/reports/profit-page.server";
import { PROFIT_PAGE_ROWS, readProfitCursor, readProfitQuery } from "~/presenters/reports/profit-report.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatMonth } from "~/utils/dates";
import { describeGrouping, GROUP_WORDS } from "~/utils/profit-report-words";

export const meta: MetaFunction = () => [{ title: "Profit and Tonnage · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "report.profit");
  const params = new URL(request.url).searchParams;
  const asked = readProfitQuery(params);
  const typed = {
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
    by: params.get("by") ?? "",
    then: params.get("then") ?? "",
  };
  if (!asked.ok) {
    return data({ error: { field: asked.field, message: asked.message }, typed, view: null }, { status: 400 });
  }
  // A long month-by-agent report is thousands of rows: the page shows a keyset page of them.
  const cursor = readProfitCursor(asked.query, params);
  if (!cursor.ok) {
    return data({ error: { field: cursor.field, message: cursor.message }, typed, view: null }, { status: 400 });
  }
  const { query, charts, ...report } = await loadProfitReportView(user, asked.query, {
    cursor: cursor.cursor,
    limit: PROFIT_PAGE_ROWS,
  });
  // Only what the page shows goes into its data: the table's cells formatted, the charts' shapes.
  const view = { query, charts, table: profitTableView({ query, charts, ...report }) };
  return { error: null, typed: { ...query, then: query.then ?? "" }, view };
}

export default function ProfitReportPage() {
  const { error, typed, view } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/reports/profit";
  const query = view ? new URLSearchParams({ from: view.query.from, to: view.query.to, by: view.query.by }) : null;
  if (query && view?.query.then) query.set("then", view.query.then);
  return (
    <div className="space-y-4">
      <PageHeader
        title="Profit and Tonnage"
        subtitle={
          view
            ? `${formatMonth(view.query.from)} to ${formatMonth(view.query.to)} · ${describeGrouping(view.query.by, view.query.then)}`
            : "Profit, revenue and tons by month, agent, client or pick-up site"
        }
      >
        {query ? (
          <>
            <a href={`/reports/profit/export?${query}`} className="btn-outline" download>
              Export CSV
            </a>
            <a href={`/reports/profit/pdf?${query}`} className="btn-outline">
              Download PDF
            </a>
          </>
        ) : null}
      </PageHeader>
      <ReportForm typed={typed} error={error} />
      {loading ? <p className="page-subtitle">Loading report...</p> : null}
      {view ? (
        <>
          <ProfitTable table={view.table} />
          <div className="grid gap-4">
            {view.charts.map((chart) => (
              <ChartFigure key={chart.id} chart={chart} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}

type Typed = { from: string; to: string; by: string; then: string };

function ReportForm({ typed, error }: { typed: Typed; error: { field: string; message: string } | null }) {
  const invalid = (field: string) => (error?.field === field ? true : undefined);
  const describedBy = (field: string) => (error?.field === field ? "report-error" : undefined);
  return (
    <Form
      method="get"
      className="card grid gap-3 p-4 sm:grid-cols-5 sm:items-end"
      aria-label="Report period and grouping"
    >
      <div>
        <label className="label" htmlFor="report-from">
          From month
        </label>
        <input
          id="report-from"
          name="from"
          type="month"
          className="input"
          defaultValue={typed.from}
          aria-invalid={invalid("from")}
          aria-describedby={describedBy("from")}
        />
      </div>
      <div>
        <label className="label" htmlFor="report-to">
          To month
        </label>
        <input
          id="report-to"
          name="to"
          type="month"
          className="input"
          defaultValue={typed.to}
          aria-invalid={invalid("to")}
          aria-describedby={describedBy("to")}
        />
      </div>
      <div>
        <label className="label" htmlFor="report-by">
          Group by
        </label>
        <select
          id="report-by"
          name="by"
          className="input"
          defaultValue={typed.by || "month"}
          aria-invalid={invalid("by")}
          aria-describedby={describedBy("by")}
        >
          {Object.entries(GROUP_WORDS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label className="label" htmlFor="report-then">
          Each month by
        </label>
        <select
          id="report-then"
          name="then"
          className="input"
          defaultValue={typed.then}
          aria-invalid={invalid("then")}
          aria-describedby={describedBy("then")}
        >
          <option value="">Nothing more</option>
          <option value="agent">Agent</option>
          <option value="client">Client</option>
          <option value="site">Pick-up site</option>
        </select>
      </div>
      <div className="flex gap-2">
        <button type="submit" className="btn-outline flex-1">
          Show
        </button>
        <Link to="/reports/profit" className="btn-ghost">
          This year
        </Link>
      </div>
      {error ? (
        <p id="report-error" role="alert" className="text-sm text-red-700 sm:col-span-5 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
    </Form>
  );
}

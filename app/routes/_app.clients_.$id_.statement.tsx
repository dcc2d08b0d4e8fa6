import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { FigureCard } from "~/components/figure-list";
import { ColumnHeads } from "~/components/table-scroll";
import { ClientStatementLines } from "~/components/client-statement-lines";
import { Figure, StatementDownloads, StatementPager, StatementPeriod } from "~/components/statement-parts";
import { clientStatement, getStatementClient, type Statement } from "~/presenters/client-statement.server";
import { readStatementPageQuery } from "~/schemas/statement-query.server";
import { requireCapability } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/ageing";
import { formatDate } from "~/utils/dates";
import { invariantResponse } from "~/utils/http.server";
import { formatNaira } from "~/utils/money";
import { parseId } from "~/utils/params";
import { PageHeader } from "~/components/page-header";

// A client's statement of account (docs/decisions/0970). The dates are a GET
// form, so it works without JavaScript; a bad period is a message on the page (400), nothing else.
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.client ? `${data.client.name} · Statement` : "Statement" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const id = parseId(params.id);
  invariantResponse(id, "Client not found");
  const query = readStatementPageQuery(new URL(request.url).searchParams);
  const { form } = query;
  if (!query.ok) {
    // The client's name for the heading: one row, not a statement.
    const client = await getStatementClient(user, id);
    invariantResponse(client, "Client not found");
    return data({ client, form, error: query.message, statement: null }, { status: 400 });
  }
  const result = await clientStatement(user, id, query.period, query.after);
  if (!result.ok && result.status === 404) invariantResponse(false, "Client not found");
  if (!result.ok) {
    return data({ client: null, form, error: result.message, statement: null }, { status: result.status });
  }
  const { statement } = result;
  return data({
    client: statement.client,
    form: { from: statement.period.from, to: statement.period.to },
    error: null,
    statement,
  });
}

const money = (amount: string) => formatNaira(amount);

export default function ClientStatementPage() {
  const { client, form, error, statement } = useLoaderData<typeof loader>();
  const id = client?.id;
  return (
    <div className="space-y-4">
      <PageHeader title="Statement of Account" subtitle={client?.name}>
        <Link to="/clients" className="btn-ghost">
          Back to Clients
        </Link>
        {statement ? <StatementDownloads base={`/clients/${id}/statement`} period={statement.period} /> : null}
        {client ? (
          <Link to={`/share-links?scope=client-statement&subjectId=${client.id}`} className="btn-outline">
            Share
          </Link>
        ) : null}
      </PageHeader>
      <StatementPeriod from={form.from} to={form.to} error={error} />
      {statement ? <StatementView statement={statement} /> : null}
    </div>
  );
}

function StatementView({ statement }: { statement: Statement }) {
  const s = statement;
  const base = `/clients/${s.client.id}/statement?from=${s.period.from}&to=${s.period.to}`;
  return (
    <>
      <FigureCard
        label="Balances"
        note={`${formatDate(s.period.from)} to ${formatDate(s.period.to)}`}
        figures={[
          ["Opening balance", money(s.openingBalance)],
          ["Invoiced", money(s.totalDebits)],
          ["Paid and credited", money(s.totalCredits)],
          ["Closing balance", money(s.closingBalance)],
        ]}
      />
      <section className="card overflow-x-auto p-4" aria-labelledby="statement-lines">
        <h2 id="statement-lines" className="font-semibold">
          Transactions
        </h2>
        <table className="mt-2 w-full text-sm">
          <thead>
            <tr className="text-left">
              <ColumnHeads labels={["Date", "Type", "Reference", "Invoice"]} />
              <ColumnHeads labels={["Debit", "Credit", "Balance"]} className="text-right" />
            </tr>
          </thead>
          <tbody>
            <ClientStatementLines statement={s} />
          </tbody>
        </table>
        {s.lines.length === 0 && !s.continued ? (
          <p className="page-subtitle mt-2">No transactions in this period.</p>
        ) : null}
        <StatementPager base={base} continued={s.continued} nextCursor={s.nextCursor} />
      </section>
      <section className="card p-4" aria-labelledby="statement-ageing">
        <h2 id="statement-ageing" className="font-semibold">
          Ageing as of {formatDate(s.period.to)}
        </h2>
        <dl className="mt-2 grid gap-2 sm:grid-cols-6">
          {AGEING_BUCKETS.map((b) => (
            <Figure key={b} label={AGEING_LABELS[b]} value={money(s.ageing[b])} />
          ))}
          <Figure label="Total" value={money(s.ageing.total)} />
        </dl>
      </section>
    </>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the statement. Please try again." />;
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { ExportCsvLink } from "~/components/export-link";
import { Figure } from "~/components/statement-parts";
import { StatementLink } from "~/components/statement-link";
import { ColumnHeads, TableCard } from "~/components/table-scroll";
import { listReceivables, receivablesTotals } from "~/presenters/receivables.server";
import { requireCapability } from "~/rules/capabilities.server";
import { AGEING_BUCKETS, AGEING_LABELS } from "~/rules/ageing";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { decodeNameCursor } from "~/models/directory-list.server";

// Receivables (docs/decisions/0995): what every client owes today, aged as on its statement,
// 50 clients a page by name, with the total over all of them. GET links only: the same without
// JavaScript.
export const meta: MetaFunction = () => [{ title: "Receivables · Clients" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const asked = decodeNameCursor(new URL(request.url).searchParams.get("cursor"));
  // A cursor that is not one of ours shows the first page, as the other paged lists do.
  const after = asked === "invalid" ? null : asked;
  const now = new Date();
  const [page, totals] = await Promise.all([listReceivables(user, { after }, now), receivablesTotals(user, now)]);
  return { ...page, totals };
}

export default function ReceivablesPage() {
  const { asOf, items, nextCursor, totals } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader
        title="Receivables"
        subtitle={`What each client owes as of ${formatDate(asOf)}, by how long it has been due`}
      >
        <Link to="/clients" className="btn-ghost">
          Back to Clients
        </Link>
        <Link to="/reminders" className="btn-outline">
          Reminders
        </Link>
        <ExportCsvLink to="/receivables/export" />
      </PageHeader>
      <section className="card p-4" aria-labelledby="receivables-total">
        <h2 id="receivables-total" className="font-semibold">
          All clients ({totals.clients} with a balance)
        </h2>
        <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-6">
          {AGEING_BUCKETS.map((b) => (
            <Figure key={b} label={AGEING_LABELS[b]} value={formatNaira(totals[b])} />
          ))}
          <Figure label="Total" value={formatNaira(totals.total)} />
        </dl>
      </section>
      <TableCard
        id="receivables-clients"
        heading="Clients by name"
        label="Receivables by client"
        empty={items.length === 0 ? "No client owes anything or holds a credit." : null}
        head={
          <>
            <th scope="col">Client</th>
            <ColumnHeads labels={[...AGEING_BUCKETS.map((b) => AGEING_LABELS[b]), "Balance"]} className="num" />
            <th scope="col">Statement</th>
          </>
        }
      >
        {items.map((r) => (
          <tr key={r.clientId}>
            <td>{r.name}</td>
            {AGEING_BUCKETS.map((b) => (
              <td key={b} className="num">
                {formatNaira(r[b])}
              </td>
            ))}
            <td className="num font-semibold">{formatNaira(r.total)}</td>
            <td>
              <StatementLink href={`/clients/${r.clientId}/statement`} name={r.name} />
            </td>
          </tr>
        ))}
      </TableCard>
      <Pager label="Receivables pages" olderCursor={nextCursor} newerCursor={null} olderLabel="Next clients" />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the receivables. Please try again." />;
}

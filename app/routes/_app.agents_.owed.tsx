import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { ExportCsvLink } from "~/components/export-link";
import { Pager } from "~/components/pager";
import { ColumnHeads, TableCard } from "~/components/table-scroll";
import { agentBalanceTotals, listAgentBalances } from "~/presenters/agents-owed.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate } from "~/utils/dates";
import { formatNaira, isNegative } from "~/utils/money";
import { readPageRequest } from "~/utils/params";
import { PageHeader } from "~/components/page-header";
import { FigureCard } from "~/components/figure-list";
import { StatementLink } from "~/components/statement-link";

// Agent Balances (docs/decisions/0980): what is owed to every agent, newest
// activity first, 50 a page. One row per agent from agent_balances (kept by triggers), so the
// page costs the same however many deliveries there are.
export const meta: MetaFunction = () => [{ title: "Agent Balances · Agents" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const page = readPageRequest(new URL(request.url).searchParams, "date");
  const [list, totals] = await Promise.all([
    listAgentBalances(user, { page: page.invalid ? { cursor: null, direction: "older" } : page }),
    agentBalanceTotals(user),
  ]);
  return { ...list, totals };
}

export default function AgentBalancesPage() {
  const { items, olderCursor, newerCursor, totals } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader
        title="Agent Balances"
        subtitle="What each agent is owed for their deliveries, after payouts, and what advances they hold"
      >
        <Link to="/agents" className="btn-ghost">
          Back to Agents
        </Link>
        <ExportCsvLink to="/agents/owed/export" />
      </PageHeader>
      <FigureCard
        label="Totals"
        figures={[
          ["Owed to agents", formatNaira(totals.owed)],
          ["Advances outstanding", formatNaira(totals.advancesOutstanding)],
          ["Paid out, all time", formatNaira(totals.paid)],
          ["Agents", String(totals.agents)],
        ]}
      />
      <TableCard
        id="agent-balances"
        heading="Agents by latest activity"
        label="Agent balances"
        empty={items.length === 0 ? "No agents yet." : null}
        head={
          <>
            <th scope="col">Agent</th>
            <ColumnHeads
              labels={["Deliveries", "Net payable", "Paid out", "Owed", "Advance outstanding"]}
              className="num"
            />
            <th scope="col">Last activity</th>
            <th scope="col">Settle</th>
          </>
        }
      >
        {items.map((a) => (
          <tr key={a.agentId}>
            <td>{a.name}</td>
            <td className="num">{a.deliveries}</td>
            <td className="num">{formatNaira(a.earned)}</td>
            <td className="num">{formatNaira(a.paid)}</td>
            {/* Below zero, the balance is an advance outstanding, shown in its own column (decision 1250). */}
            <td className="num font-semibold">{formatNaira(isNegative(a.owed) ? "0" : a.owed)}</td>
            <td className="num">{isNegative(a.owed) ? formatNaira(a.advanceOutstanding) : "—"}</td>
            <td>{formatDate(a.lastActivity)}</td>
            <td>
              <StatementLink href={`/agents/${a.agentId}/statement`} name={a.name} />
            </td>
          </tr>
        ))}
      </TableCard>
      <Pager label="Agent balance pages" olderCursor={olderCursor} newerCursor={newerCursor} />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the agent balances. Please try again." />;
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { ErrorView } from "~/components/error-view";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { balanceWords } from "~/components/payouts/balance-words";
import { ColumnHeads, TableCard } from "~/components/table-scroll";
import { listPendingPayouts } from "~/presenters/pending-payouts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatAuditTime } from "~/utils/audit-words.server";
import { formatDate } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { formatNaira } from "~/utils/money";
import { readPageRequest } from "~/utils/params";
import { PAYOUT_KIND_LABELS, PAYOUT_METHOD_LABELS } from "~/utils/payout-methods";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Pending Approvals (docs/decisions/1250): payouts above the approval limit, newest first, 50 a
// page through agent_payouts_pending_idx, for admins. Approve and Reject are child routes: a
// dialog over this list with JavaScript, a page of their own without.
export const meta: MetaFunction = () => [{ title: "Pending Approvals · Agents" }];

export const shouldRevalidate = keepListBehindDialogs(() => "/payouts/pending");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const page = readPageRequest(new URL(request.url).searchParams, "id");
  const list = await listPendingPayouts(user, { page: page.invalid ? { cursor: null, direction: "older" } : page });
  const zone = env().APP_TIME_ZONE;
  return {
    ...list,
    items: list.items.map((p) => ({ ...p, madeAt: formatAuditTime(p.createdAt, zone), own: p.createdBy === user.id })),
  };
}

export default function PendingApprovalsPage() {
  const { items, olderCursor, newerCursor } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <PageHeader title="Pending Approvals" subtitle="Payouts above the approval limit wait for a second admin">
        <Link to="/agents/owed" className="btn-ghost">
          Agent Balances
        </Link>
      </PageHeader>
      <TableCard
        id="pending-approvals"
        heading="Payouts awaiting approval"
        label="Payouts awaiting approval"
        empty={items.length === 0 ? "No payouts are awaiting approval." : null}
        head={
          <>
            <ColumnHeads labels={["Made", "By", "Agent", "Kind"]} />
            <th scope="col" className="num">
              Amount
            </th>
            <ColumnHeads labels={["Payout date", "The agent now", "Decide"]} />
          </>
        }
      >
        {items.map((p) => (
          <tr key={p.id}>
            <td className="nowrap">{p.madeAt}</td>
            <td>{p.madeBy ?? "—"}</td>
            <td>
              <Link to={`/agents/${p.agentId}/statement`} className="underline">
                {p.agentName}
              </Link>
            </td>
            <td>
              {PAYOUT_KIND_LABELS[p.kind].split(" (")[0]} · {PAYOUT_METHOD_LABELS[p.method]}
              {p.reference ? ` · ${p.reference}` : ""}
            </td>
            <td className="num font-semibold">{formatNaira(p.amount)}</td>
            <td className="nowrap">{formatDate(p.payoutDate)}</td>
            <td>{balanceWords(p.balance)}</td>
            <td className="nowrap">
              {p.own ? (
                <span className="text-sm text-slate-500 dark:text-slate-400">Yours: another admin decides</span>
              ) : (
                <span className="flex gap-1">
                  <Link
                    to={`${p.id}/approve`}
                    className="btn-outline btn-sm"
                    preventScrollReset
                    aria-label={`Approve payout #${p.id} to ${p.agentName}`}
                  >
                    Approve
                  </Link>
                  <Link
                    to={`${p.id}/reject`}
                    className="btn-ghost btn-sm"
                    preventScrollReset
                    aria-label={`Reject payout #${p.id} to ${p.agentName}`}
                  >
                    Reject
                  </Link>
                </span>
              )}
            </td>
          </tr>
        ))}
      </TableCard>
      <Pager label="Pending approval pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <ErrorView error={useRouteError()} failure="Failed to load the pending approvals. Please try again." />;
}

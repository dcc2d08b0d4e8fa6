import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DirectoryPage } from "~/components/directory/directory-page";
import { UsersIcon } from "~/components/icons";
import { agentCardsPage, readDirectoryRequest } from "~/models/directory-list.server";
import { can, requireCapability } from "~/rules/capabilities.server";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening a dialog over the list does not load the list again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs("/agents");

export const meta: MetaFunction = () => [{ title: "Agents · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const asked = readDirectoryRequest(new URL(request.url).searchParams);
  const page = await agentCardsPage(asked);
  // Settlements (statements, payouts, balances) are for admins (docs/decisions/0980).
  return {
    agents: page.items,
    olderCursor: page.olderCursor,
    newerCursor: page.newerCursor,
    search: asked.search,
    canSettle: can(user, "agent.settle"),
    // Managers reach an agent's rate cards from here (decision 1230); the statement is admins'.
    canViewRates: can(user, "rate.view"),
  };
}

export default function AgentsPage() {
  const { agents, olderCursor, newerCursor, search, canSettle, canViewRates } = useLoaderData<typeof loader>();
  return (
    <DirectoryPage
      title="Agents Management"
      subtitle="The agents who bring PKS from the yards"
      addLabel="Add Agent"
      emptyIcon={<UsersIcon className="mx-auto text-slate-400" />}
      emptyTitle="No Agents Yet"
      emptyHint="Add the agents you buy from."
      truncateDetail
      exportTo="/agents/export"
      search={search}
      searchLabel="Search agents by name"
      listLabel="Agents"
      pagerLabel="Agent pages"
      olderCursor={olderCursor}
      newerCursor={newerCursor}
      statementOf={canSettle ? (id) => `/agents/${id}/statement` : undefined}
      ratesOf={canViewRates ? (id) => `/rates?agentId=${id}` : undefined}
      headerLinks={
        canSettle ? (
          <Link to="/agents/owed" className="btn-outline">
            Agent Balances
          </Link>
        ) : null
      }
      entries={agents.map((a) => ({
        id: a.id,
        name: a.name,
        detail: a.contact || "No contact",
        detailTitle: a.contact ?? undefined,
      }))}
    />
  );
}

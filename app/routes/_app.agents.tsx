import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DirectoryPage } from "~/components/directory/directory-page";
import { UsersIcon } from "~/components/icons";
import { listAgents } from "~/models/agent.server";
import { can, requireCapability } from "~/rules/capabilities.server";

export const meta: MetaFunction = () => [{ title: "Agents · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  const agents = await listAgents();
  // Settlements (statements, payouts, balances) are for admins (docs/decisions/0980).
  return {
    agents: agents.map((a) => ({ id: a.id, name: a.name, contact: a.contact })),
    canSettle: can(user, "agent.settle"),
  };
}

export default function AgentsPage() {
  const { agents, canSettle } = useLoaderData<typeof loader>();
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
      statementOf={canSettle ? (id) => `/agents/${id}/statement` : undefined}
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

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { PlusIcon, UsersIcon } from "~/components/icons";
import { listAgents } from "~/models/agent.server";
import { requireCapability } from "~/rules/capabilities.server";

export const meta: MetaFunction = () => [{ title: "Agents · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.manage");
  const agents = await listAgents();
  return { agents: agents.map((a) => ({ id: a.id, name: a.name, contact: a.contact })) };
}

export default function AgentsPage() {
  const { agents } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Agents Management</h1>
          <p className="page-subtitle">The agents who bring PKS from the yards</p>
        </div>
        <Link to="new" className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> Add Agent
        </Link>
      </header>
      {agents.length === 0 ? (
        <div className="card p-10 text-center">
          <UsersIcon className="mx-auto text-slate-400" />
          <p className="mt-2 font-semibold">No Agents Yet</p>
          <p className="page-subtitle">Add the agents you buy from.</p>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {agents.map((a) => (
            <li key={a.id} className="card flex items-start justify-between gap-2 p-4" aria-label={a.name}>
              <div className="min-w-0">
                <p className="truncate font-semibold" title={a.name}>{a.name}</p>
                <p className="page-subtitle truncate" title={a.contact ?? undefined}>{a.contact || "No contact"}</p>
              </div>
              <div className="flex shrink-0 gap-1">
                <Link to={`${a.id}/edit`} className="btn-ghost btn-sm" preventScrollReset aria-label={`Edit ${a.name}`}>Edit</Link>
                <Link to={`${a.id}/delete`} className="btn-ghost btn-sm text-red-600" preventScrollReset aria-label={`Delete ${a.name}`}>Delete</Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Outlet />
    </div>
  );
}

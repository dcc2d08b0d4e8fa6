import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData } from "@remix-run/react";
import { BuildingIcon as UsersIcon, PlusIcon } from "~/components/icons";
import { listClients } from "~/models/client.server";
import { requireCapability } from "~/rules/capabilities.server";

export const meta: MetaFunction = () => [{ title: "Clients · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const clients = await listClients();
  return { clients: clients.map((c) => ({ id: c.id, name: c.name, taxRate: c.taxRate, paymentTermsDays: c.paymentTermsDays })) };
}

export default function ClientsPage() {
  const { clients } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Clients Management</h1>
          <p className="page-subtitle">The buyers PKS is delivered to and invoiced</p>
        </div>
        <Link to="new" className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> New Client
        </Link>
      </header>
      {clients.length === 0 ? (
        <div className="card p-10 text-center">
          <UsersIcon className="mx-auto text-slate-400" />
          <p className="mt-2 font-semibold">No Clients Yet</p>
          <p className="page-subtitle">Add the clients you deliver to.</p>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {clients.map((a) => (
            <li key={a.id} className="card flex items-start justify-between gap-2 p-4" aria-label={a.name}>
              <div className="min-w-0">
                <p className="truncate font-semibold" title={a.name}>{a.name}</p>
                <p className="page-subtitle">Tax Rate: {a.taxRate}% · Payment Terms: {a.paymentTermsDays} days</p>
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

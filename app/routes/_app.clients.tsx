import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DirectoryPage } from "~/components/directory/directory-page";
import { BuildingIcon } from "~/components/icons";
import { listClients } from "~/models/client.server";
import { requireCapability } from "~/rules/capabilities.server";

export const meta: MetaFunction = () => [{ title: "Clients · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const clients = await listClients();
  return {
    clients: clients.map((c) => ({ id: c.id, name: c.name, taxRate: c.taxRate, paymentTermsDays: c.paymentTermsDays })),
  };
}

export default function ClientsPage() {
  const { clients } = useLoaderData<typeof loader>();
  return (
    <DirectoryPage
      exportTo="/clients/export"
      statementOf={(id) => `/clients/${id}/statement`}
      title="Clients Management"
      subtitle="The buyers PKS is delivered to and invoiced"
      addLabel="New Client"
      emptyIcon={<BuildingIcon className="mx-auto text-slate-400" />}
      emptyTitle="No Clients Yet"
      emptyHint="Add the clients you deliver to."
      entries={clients.map((c) => ({
        id: c.id,
        name: c.name,
        detail: `Tax Rate: ${c.taxRate}% · Payment Terms: ${c.paymentTermsDays} days`,
      }))}
    />
  );
}

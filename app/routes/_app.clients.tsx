import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { DirectoryPage } from "~/components/directory/directory-page";
import { BuildingIcon } from "~/components/icons";
import { clientCardsPage, readDirectoryRequest } from "~/models/directory-list.server";
import { requireCapability } from "~/rules/capabilities.server";
import { keepListBehindDialogs } from "~/utils/revalidate";

// Opening a dialog over the list does not load the list again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs("/clients");

export const meta: MetaFunction = () => [{ title: "Clients · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "client.manage");
  const asked = readDirectoryRequest(new URL(request.url).searchParams);
  const page = await clientCardsPage(asked);
  return { clients: page.items, olderCursor: page.olderCursor, newerCursor: page.newerCursor, search: asked.search };
}

export default function ClientsPage() {
  const { clients, olderCursor, newerCursor, search } = useLoaderData<typeof loader>();
  return (
    <DirectoryPage
      exportTo="/clients/export"
      search={search}
      searchLabel="Search clients by name"
      listLabel="Clients"
      pagerLabel="Client pages"
      olderCursor={olderCursor}
      newerCursor={newerCursor}
      statementOf={(id) => `/clients/${id}/statement`}
      pageOf={(id) => `/clients/${id}`}
      headerLinks={
        <Link to="/receivables" className="btn-outline">
          Receivables
        </Link>
      }
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

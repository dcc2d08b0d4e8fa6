import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { DirectorySearch } from "~/components/directory/directory-page";
import { listSearch } from "~/components/directory/list-url";
import { PlusIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { ColumnHeads, TableCard } from "~/components/table-scroll";
import { readDirectorySearch } from "~/models/directory-list.server";
import { readTruckCursor, trucksPage, type TruckPageRequest } from "~/models/truck.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatAmount } from "~/utils/money";
import { keepListBehindDialogs } from "~/utils/revalidate";

// The truck register (docs/decisions/1200): 50 trucks a page in plate order, searched by the
// start of a plate. Opening a dialog over the list does not load the list again (decision 0200).
export const shouldRevalidate = keepListBehindDialogs("/trucks");

export const meta: MetaFunction = () => [{ title: "Trucks · Management" }];

const PAGE_SIZE = 50;

/** What the list's URL asks for; a cursor that is not one of ours shows the first page. */
function readTruckRequest(params: URLSearchParams): TruckPageRequest {
  const search = readDirectorySearch(params);
  const before = readTruckCursor(params.get("before"));
  if (before !== null && before !== "invalid") return { search, after: before, direction: "previous" };
  const after = readTruckCursor(params.get("cursor"));
  return { search, after: after === "invalid" ? null : after, direction: "next" };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "truck.manage");
  const asked = readTruckRequest(new URL(request.url).searchParams);
  const page = await trucksPage(asked, PAGE_SIZE);
  return {
    trucks: page.items,
    nextCursor: page.nextCursor,
    previousCursor: page.previousCursor,
    search: asked.search,
    laterPage: asked.after !== null,
  };
}

export default function TrucksPage() {
  const { trucks, nextCursor, previousCursor, search, laterPage } = useLoaderData<typeof loader>();
  // The dialogs open over this same page of the list and come back to it.
  const list = listSearch(useLocation().search);
  const empty =
    trucks.length > 0
      ? null
      : search !== null
        ? `No plate starts with “${search}”.`
        : laterPage
          ? // Past the end (the last ones renamed meanwhile): the pager leads back to the first page.
            "Nothing more on this page."
          : "No trucks yet. Add the trucks that bring deliveries, or record a delivery with a truck number.";
  return (
    <div className="space-y-4">
      <PageHeader title="Trucks" subtitle="The trucks that bring PKS to the weighbridge">
        <Link to={`new${list}`} className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> Add Truck
        </Link>
      </PageHeader>
      <DirectorySearch
        search={search}
        label="Search trucks by plate"
        hint="The start of a plate; spaces and dashes do not matter."
        maxLength={40}
      />
      <TableCard
        id="trucks-list"
        heading="Trucks by plate"
        label="Trucks"
        empty={empty}
        head={
          <>
            <ColumnHeads labels={["Plate", "Transporter", "Phone"]} />
            <ColumnHeads labels={["Usual tare (kg)"]} className="num" />
            <th scope="col">
              <span className="sr-only">Edit</span>
            </th>
          </>
        }
      >
        {trucks.map((truck) => (
          <tr key={truck.id}>
            <td className="whitespace-nowrap font-semibold">{truck.plate}</td>
            <td className="wrap-any">{truck.transporter ?? "—"}</td>
            <td className="whitespace-nowrap">{truck.phone ?? "—"}</td>
            <td className="num">{truck.usualTareKg === null ? "—" : formatAmount(truck.usualTareKg, 0)}</td>
            <td>
              <Link
                to={`${truck.id}/edit${list}`}
                className="btn-ghost btn-sm"
                preventScrollReset
                aria-label={`Edit ${truck.plate}`}
              >
                Edit
              </Link>
            </td>
          </tr>
        ))}
      </TableCard>
      <Pager label="Truck pages" olderCursor={nextCursor} newerCursor={previousCursor} olderLabel="Next trucks" />
      <Outlet />
    </div>
  );
}

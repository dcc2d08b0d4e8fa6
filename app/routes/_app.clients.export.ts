import type { LoaderFunctionArgs } from "@remix-run/node";
import { clientsExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";
import { readDirectorySearch } from "~/models/directory-list.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  return exportResponse(clientsExport(user, new Date(), readDirectorySearch(new URL(request.url).searchParams)));
}

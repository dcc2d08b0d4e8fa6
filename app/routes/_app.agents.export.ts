import type { LoaderFunctionArgs } from "@remix-run/node";
import { agentsExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";
import { readDirectorySearch } from "~/models/directory-list.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  return exportResponse(agentsExport(user, new Date(), readDirectorySearch(new URL(request.url).searchParams)));
}

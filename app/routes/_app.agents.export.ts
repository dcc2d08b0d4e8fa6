import type { LoaderFunctionArgs } from "@remix-run/node";
import { agentsExport } from "~/presenters/exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.manage");
  return exportResponse(agentsExport(user));
}

import type { LoaderFunctionArgs } from "@remix-run/node";
import { agentBalancesExport } from "~/presenters/statement-exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";

// What is owed to every agent as CSV, newest activity first (docs/decisions/0980).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  return exportResponse(await agentBalancesExport(user));
}

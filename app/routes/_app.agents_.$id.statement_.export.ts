import type { LoaderFunctionArgs } from "@remix-run/node";
import { agentStatementExport } from "~/presenters/statement-exports.server";
import { requireCapability } from "~/rules/capabilities.server";
import { exportResponse } from "~/utils/csv.server";
import { invariantResponse } from "~/utils/http.server";
import { parseId } from "~/utils/params";

// An agent's statement as CSV (docs/decisions/0980): a bad period is a 400.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  invariantResponse(id, "Agent not found");
  const result = await agentStatementExport(user, id, new URL(request.url).searchParams);
  invariantResponse(result, "Agent not found");
  return exportResponse(result);
}

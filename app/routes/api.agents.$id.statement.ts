import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { agentStatement } from "~/presenters/agent-statement.server";
import { parseStatementCursor, parseStatementPeriod } from "~/schemas/statement-query.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// The agent statement page's data as JSON (docs/decisions/0980), admins only: `?from=&to=`
// (this month so far by default), one page of lines from `after` (the next in `nextCursor`).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Agent not found");
  const query = new URL(request.url).searchParams;
  const period = parseStatementPeriod(query);
  if (!period.ok) return jsonError(400, period.message);
  const after = parseStatementCursor(query.get("after"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const result = await agentStatement(user, id, period.period, after);
  return result.ok ? Response.json(result.statement) : failureJson(result);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}

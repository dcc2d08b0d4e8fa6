import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { clientStatement } from "~/presenters/client-statement.server";
import { parseStatementCursor, parseStatementPeriod } from "~/schemas/statement-query.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// The statement page's data as JSON (docs/decisions/0970): `?from=&to=` (this month so far by
// default), one page of lines from `after` (the next in `nextCursor`). A bad period is a 400.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.statement");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Client not found");
  const query = new URL(request.url).searchParams;
  const period = parseStatementPeriod(query);
  if (!period.ok) return jsonError(400, period.message);
  const after = parseStatementCursor(query.get("after"));
  if (after === "invalid") return jsonError(400, "The cursor is not valid");
  const result = await clientStatement(user, id, period.period, after);
  return result.ok ? Response.json(result.statement) : failureJson(result);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listPendingPayouts, pendingPayoutBatches } from "~/presenters/pending-payouts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";

// Payouts of every agent by status (docs/decisions/1250), admins only: `?status=pending` lists
// those awaiting a second admin's approval, newest first, with who made each and the agent's
// balance. With `limit` one page and the next cursor, without it every one, streamed. An agent's
// own payouts of every status are at /api/agents/{id}/payouts.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const query = new URL(request.url).searchParams;
  if (query.get("status") !== "pending") return jsonError(400, 'status must be "pending"');
  const page = readPageRequest(query, "id");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(query);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(pendingPayoutBatches(user));
  const result = await listPendingPayouts(user, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  return methodNotAllowed();
}

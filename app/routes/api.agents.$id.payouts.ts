import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { agentExists, listAgentPayouts, payoutBatches } from "~/models/agent-settlement.server";
import { recordAgentPayout } from "~/services/agents/record-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { parseId, readPageRequest } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// An agent's payouts (docs/decisions/0980), admins only. GET: newest first;
// with `limit` one page and the next cursor (X-Next-Cursor, Link rel="next"), without it every
// payout, streamed. POST: records one (Idempotency-Key honoured), 201, or 200 on a replay.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  if (id === null || !(await agentExists(id))) return jsonError(404, "Agent not found");
  const query = new URL(request.url).searchParams;
  const page = readPageRequest(query, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(query);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(payoutBatches(user, id));
  const result = await listAgentPayouts(user, id, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Agent not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await recordAgentPayout(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    { ...result.payout, createdAt: result.payout.createdAt.toISOString(), owed: result.owed },
    { status: result.replayed ? 200 : 201 },
  );
}

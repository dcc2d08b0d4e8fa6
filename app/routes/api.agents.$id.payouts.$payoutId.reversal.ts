import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { reverseAgentPayout } from "~/services/agents/reverse-payout.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Reverses one payout of an agent (docs/decisions/0980), admins only. POST
// { reason }: 201 with the reversal (a negative payout naming the one it takes back) and what
// is owed after it, or 200 on a replay of the same Idempotency-Key; 409 when the payout was
// already reversed, is itself a reversal, or today's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "agent.settle");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Agent not found");
  const payoutId = parseId(params.payoutId);
  if (payoutId === null) return jsonError(404, "Payout not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await reverseAgentPayout(user, id, payoutId, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    { ...result.reversal, createdAt: result.reversal.createdAt.toISOString(), owed: result.owed },
    { status: result.replayed ? 200 : 201 },
  );
}

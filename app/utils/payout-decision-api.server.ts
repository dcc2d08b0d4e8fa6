// The JSON twins of Approve and Reject Payout (docs/decisions/1250) differ only in the write they
// call: POST { reason } answers 200 with the decided payout and what the agent is owed after it
// (a replay of the same Idempotency-Key answers the same); 403 for the payout's own maker; 409
// when it was already decided, is a reversal, or (approving) its month is closed.
import type { ActionFunctionArgs } from "@remix-run/node";
import type { AgentPayout } from "~/db.server";
import type { Actor } from "~/rules/capabilities.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import type { Failure } from "~/utils/result";
import { failureJson } from "~/utils/result.server";

type Decide = (
  actor: Actor,
  agentId: number,
  payoutId: number,
  input: Record<string, unknown>,
  now: Date,
  options: { idempotencyKey?: string | null },
) => Promise<{ ok: true; replayed: boolean; payout: AgentPayout; owed: string } | Failure>;

export async function payoutDecisionAction({ request, params }: ActionFunctionArgs, decide: Decide) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "agent.settle");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Agent not found");
  const payoutId = parseId(params.payoutId);
  if (payoutId === null) return jsonError(404, "Payout not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await decide(user, id, payoutId, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json({ ...result.payout, owed: result.owed });
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deleteRateCard, getRateCard } from "~/models/rate-card.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// One rate card (docs/decisions/1230): GET for managers and admins; DELETE for admins, 204, or
// 409 once a delivery has used it.
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireCapability(request, "rate.view");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Rate card id must be a number");
  const card = await getRateCard(id);
  return card ? Response.json(card) : jsonError(404, "Rate card not found");
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return methodNotAllowed();
  const user = await requireCapability(request, "rate.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(400, "Rate card id must be a number");
  const result = await deleteRateCard(user, id);
  return result.ok ? new Response(null, { status: 204 }) : failureJson(result);
}

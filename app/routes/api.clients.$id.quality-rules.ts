import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getClient } from "~/models/client.server";
import { addQualityRule, listQualityRules } from "~/models/quality-rule.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// A client's quality rules (docs/decisions/1210): GET the newest 50, newest valid-from first
// (a client has a few); POST { validFrom, moistureThreshold, deductionPerPoint } adds one.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  if (!id || !(await getClient(id))) return jsonError(404, "Client not found");
  const { items } = await listQualityRules(user, id);
  return Response.json({ items });
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "client.manage");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Client not found");
  const result = await addQualityRule(user, id, await readJsonBody(request));
  return result.ok ? Response.json(result.rule, { status: 201 }) : failureJson(result);
}

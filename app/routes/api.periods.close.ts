import type { ActionFunctionArgs } from "@remix-run/node";
import { closeMonth } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

/** POST /api/periods/close {month: "yyyy-MM"}: closes that month and every month before it. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "period.close");
  const body = await readJsonBody(request);
  const result = await closeMonth(user, body);
  if (!result.ok) return failureJson(result);
  return Response.json({ ...result.state, changed: result.changed });
}

export const loader = () => methodNotAllowed();

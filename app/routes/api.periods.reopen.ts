import type { ActionFunctionArgs } from "@remix-run/node";
import { reopenMonth } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

/** POST /api/periods/reopen {month: "yyyy-MM", reason}: reopens that month and every later one. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "period.close");
  const body = await readJsonBody(request);
  const result = await reopenMonth(user, body);
  if (!result.ok) return failureJson(result);
  return Response.json({ ...result.state, changed: result.changed });
}

export const loader = () => methodNotAllowed();

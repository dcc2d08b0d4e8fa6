import type { ActionFunctionArgs } from "@remix-run/node";
import { setUserStatus } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "PATCH") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await setUserStatus(admin, params.id ?? "", body.status);
  if (!result.ok) return failureJson(result);
  return Response.json(result.user);
}

export const loader = () => methodNotAllowed();

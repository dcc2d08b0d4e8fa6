import type { ActionFunctionArgs } from "@remix-run/node";
import { resetUserPassword } from "~/models/admin-users.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "POST") return methodNotAllowed();
  const result = await resetUserPassword(admin, params.id ?? "");
  if (!result.ok) return jsonError(result.status, result.message);
  return Response.json({ temporaryPassword: result.temporaryPassword, user: result.user });
}

export const loader = () => methodNotAllowed();

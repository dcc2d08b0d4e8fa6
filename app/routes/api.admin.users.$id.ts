import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteUserByAdmin } from "~/models/admin-users.server";
import { jsonError, requireRole } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "DELETE") return methodNotAllowed();
  const result = await deleteUserByAdmin(admin, params.id ?? "");
  if (!result.ok) return jsonError(result.status, result.message);
  return Response.json({ message: "User deleted successfully", user: result.user });
}

export const loader = () => methodNotAllowed();

import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteUserByAdmin } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "DELETE") return methodNotAllowed();
  const result = await deleteUserByAdmin(admin, params.id ?? "");
  if (!result.ok) return failureJson(result);
  return Response.json({ message: "User deleted successfully", user: result.user });
}

export const loader = () => methodNotAllowed();

import type { ActionFunctionArgs } from "@remix-run/node";
import { deleteUserByAdmin } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (request.method !== "DELETE") return methodNotAllowed();
  const result = await deleteUserByAdmin(admin, params.id ?? "");
  if (!result.ok) return failureJson(result);
  return Response.json({ message: "User deleted successfully", user: result.user });
}

export const loader = () => methodNotAllowed();

import type { ActionFunctionArgs } from "@remix-run/node";
import { unlockUser } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "POST") return methodNotAllowed();
  const result = await unlockUser(admin, params.id ?? "");
  if (!result.ok) return failureJson(result);
  return Response.json(result.user);
}

export const loader = () => methodNotAllowed();

import type { ActionFunctionArgs } from "@remix-run/node";
import { unlockUser } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (request.method !== "POST") return methodNotAllowed();
  const result = await unlockUser(admin, params.id ?? "");
  if (!result.ok) return failureJson(result);
  return Response.json(result.user);
}

export const loader = () => methodNotAllowed();

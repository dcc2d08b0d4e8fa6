import type { ActionFunctionArgs } from "@remix-run/node";
import { setUserStatus } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (request.method !== "PATCH") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await setUserStatus(admin, params.id ?? "", body.status);
  if (!result.ok) return failureJson(result);
  return Response.json(result.user);
}

export const loader = () => methodNotAllowed();

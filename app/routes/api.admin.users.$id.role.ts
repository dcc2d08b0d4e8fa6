import type { ActionFunctionArgs } from "@remix-run/node";
import { changeUserRole } from "~/models/admin-users.server";
import { confirmRecentAuth } from "~/models/reauth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

// Changing another user's role needs the caller's current password in the body, or a sign-in
// within five minutes, as factor changes do (decision 0400).
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.role");
  if (request.method !== "PATCH") return methodNotAllowed();
  const body = await readJsonBody(request);
  const reauth = await confirmRecentAuth(request, admin, body.password);
  if (!reauth.ok) return failureJson(reauth);
  const result = await changeUserRole(admin, params.id ?? "", body.role);
  if (!result.ok) return failureJson(result);
  return Response.json(result.user);
}

export const loader = () => methodNotAllowed();

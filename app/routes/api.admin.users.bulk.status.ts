import type { ActionFunctionArgs } from "@remix-run/node";
import { bulkMessage, bulkSetStatus } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (request.method !== "PATCH") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await bulkSetStatus(admin, body.userIds, body.status);
  if (!result.ok) return failureJson(result);
  return Response.json({ success: result.success, failed: result.failed, message: bulkMessage(result, "updated") });
}

export const loader = () => methodNotAllowed();

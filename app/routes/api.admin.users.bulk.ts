import type { ActionFunctionArgs } from "@remix-run/node";
import { bulkDeleteUsers, bulkMessage } from "~/models/admin-users.server";
import { requireRole } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, ["admin"]);
  if (request.method !== "DELETE") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await bulkDeleteUsers(admin, body.userIds);
  if (!result.ok) return failureJson(result);
  return Response.json({ success: result.success, failed: result.failed, message: bulkMessage(result, "deleted") });
}

export const loader = () => methodNotAllowed();

import type { ActionFunctionArgs } from "@remix-run/node";
import { bulkDeleteUsers, bulkMessage } from "~/models/admin-users.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { failureJson } from "~/utils/result.server";

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireCapability(request, "user.manage");
  if (request.method !== "DELETE") return methodNotAllowed();
  const body = await readJsonBody(request);
  const result = await bulkDeleteUsers(admin, body.userIds);
  if (!result.ok) return failureJson(result);
  const { success, failed, failures } = result;
  // `failures` says why each id under `failed` was not changed (decision 0400).
  return Response.json({ success, failed, failures, message: bulkMessage(result, "deleted") });
}

export const loader = () => methodNotAllowed();

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
  const { success, failed, failures } = result;
  // `failures` says why each id under `failed` was not changed (decision 0400).
  return Response.json({ success, failed, failures, message: bulkMessage(result, "updated") });
}

export const loader = () => methodNotAllowed();

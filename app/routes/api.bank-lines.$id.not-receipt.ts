import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { markNotReceipt } from "~/models/bank-statement.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed } from "~/utils/http.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Mark a bank line as not a client receipt (docs/decisions/1241). POST: 200 { lineId, status };
// 409 when the line is matched or marked already.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "bank.import");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "bank.import");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Bank line not found");
  const result = await markNotReceipt(user, id);
  if (!result.ok) return failureJson(result);
  return Response.json({ lineId: result.id, status: "not_receipt" });
}

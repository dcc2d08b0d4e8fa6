import type { LoaderFunctionArgs } from "@remix-run/node";
import { getReceipt, receiptJson } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { parseId } from "~/utils/params";

// One receipt with its allocations (docs/decisions/1240).
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  const receipt = id === null ? null : await getReceipt(user, id);
  if (!receipt) return jsonError(404, "Receipt not found");
  return Response.json(receiptJson(receipt));
}

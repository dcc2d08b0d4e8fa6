import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receiptJson } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { reverseReceipt } from "~/services/receipts/reverse-receipt.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Reverses a receipt recorded in error (docs/decisions/1240), admins only. POST { reason }: 201
// with the receipt, now reversed, or 200 on a replay of the same Idempotency-Key; 409 when it was
// already reversed or today's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "payment.reverse");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.reverse");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Receipt not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await reverseReceipt(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(receiptJson(result.receipt), { status: result.replayed ? 200 : 201 });
}

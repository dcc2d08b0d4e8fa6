import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { refundClientCredit } from "~/services/payments/refund-credit.server";
import { entryOnInvoiceJson } from "~/presenters/payments.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Pays a client back out of the credit an invoice carries (docs/decisions/0920),
// admins only. POST { amount, paymentDate?, reference?, reason }:
// 201 with the refund (a negative payment marked `refund`) and the invoice's paid total, status
// and remaining credit after it, or 200 on a replay of the same Idempotency-Key; 409 when the
// amount passes the credit or the date's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "payment.refund");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.refund");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Invoice not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await refundClientCredit(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    { ...entryOnInvoiceJson(result.refund, result), clientCredit: result.creditLeft },
    { status: result.replayed ? 200 : 201 },
  );
}

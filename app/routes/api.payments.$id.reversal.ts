import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { reversePayment } from "~/services/payments/reverse-payment.server";
import { entryOnInvoiceJson } from "~/presenters/payments.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Reverses a payment recorded in error (docs/decisions/0920), admins only. POST
// { reason }: 201 with the reversal (a negative payment naming the one it takes back) and the
// invoice's paid total and status after it, or 200 on a replay of the same Idempotency-Key; 409
// when the payment was already reversed, is itself a reversal, or today's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "payment.reverse");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.reverse");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Payment not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await reversePayment(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    {
      ...entryOnInvoiceJson(result.reversal, result),
      // A credit move is reversed whole: the other entry's reversal and its invoice after it.
      partner: result.partner && entryOnInvoiceJson(result.partner.reversal, result.partner),
    },
    { status: result.replayed ? 200 : 201 },
  );
}

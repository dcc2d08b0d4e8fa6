import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { applyClientCredit } from "~/services/payments/apply-credit.server";
import { entryJson } from "~/presenters/payments.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Moves the client credit an invoice carries to another invoice of the same client that still
// owes (docs/decisions/0920), managers and
// admins. POST { toInvoiceId, amount }: 201 with both entries and both invoices after it, or 200
// on a replay of the same Idempotency-Key; 409 past the credit or past what the other invoice
// owes, for another client's invoice, or when today's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "payment.record");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.record");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Invoice not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await applyClientCredit(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    { moveOut: entryJson(result.moveOut), moveIn: entryJson(result.moveIn), from: result.from, to: result.to },
    { status: result.replayed ? 200 : 201 },
  );
}

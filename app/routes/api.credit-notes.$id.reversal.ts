import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { reverseCreditNote } from "~/services/invoices/reverse-credit-note.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Reverses a credit note issued in error (docs/decisions/0920), admins only. POST
// { reason }: 201 with the reversal (a negative entry without a number, naming the credit note it
// takes back) and the invoice's credited total and status after it, or 200 on a replay of the
// same Idempotency-Key; 409 when the credit note was already reversed, is itself a reversal, or
// today's month is closed.
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCapability(request, "credit_note.reverse");
  return methodNotAllowed();
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "credit_note.reverse");
  const id = parseId(params.id);
  if (id === null) return jsonError(404, "Credit note not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await reverseCreditNote(user, id, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    {
      ...result.reversal,
      createdAt: result.reversal.createdAt.toISOString(),
      reversesCreditNoteNo: result.creditNote.creditNoteNo,
      invoiceNo: result.invoice.invoiceNo,
      paymentStatus: result.invoice.paymentStatus,
      amountCredited: result.invoice.amountCredited,
    },
    { status: result.replayed ? 200 : 201 },
  );
}

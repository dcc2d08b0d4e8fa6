import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { creditNoteBatches, listCreditNotes } from "~/presenters/credit-note-list.server";
import { createCreditNote } from "~/services/invoices/issue-credit-note.server";
import { getInvoice } from "~/presenters/invoice-list.server";
import { requireCapability } from "~/rules/capabilities.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { parseId, readPageRequest } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// GET: this invoice's credit notes (as GET /api/credit-notes?invoiceId=). POST {amount, reason}:
// 201 with the credit note and the invoice after it; a repeat of one Idempotency-Key answers 200
// with the first result.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "credit_note.create");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Invoice not found");
  const search = new URL(request.url).searchParams;
  const page = readPageRequest(search, "id");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(search);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(creditNoteBatches(user, { invoiceId: id }));
  const result = await listCreditNotes(user, { invoiceId: id }, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "credit_note.create");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Invoice not found");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await createCreditNote(user, id, { amount: body.amount, reason: body.reason }, new Date(), {
    idempotencyKey,
  });
  if (!result.ok) return failureJson(result);
  return Response.json(
    {
      ...result.creditNote,
      createdAt: result.creditNote.createdAt.toISOString(),
      invoice: await getInvoice(user, id),
    },
    { status: result.replayed ? 200 : 201 },
  );
}

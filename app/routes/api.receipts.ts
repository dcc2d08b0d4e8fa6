import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listReceipts, receiptBatches, receiptJson } from "~/presenters/receipts.server";
import { requireCapability } from "~/rules/capabilities.server";
import { parsePaymentFilters } from "~/schemas/payment-filters";
import { recordReceipt } from "~/services/receipts/record-receipt.server";
import { jsonError } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// Receipts (docs/decisions/1240). GET: newest first, `from`, `to`, `clientId`, `invoiceNo`,
// `reference` (prefix); `limit` and `cursor` give a page, without `limit` every receipt, streamed.
// POST { clientId, date?, amount, reference?, allocations?: [{ invoiceId, amount }] }: 201 with the
// receipt and its allocations (`amount` settled = `cash` + `wht` + `vatWithheld`), 200 on a replay
// of the same Idempotency-Key. Without `allocations` the cash goes to the oldest due invoices.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parsePaymentFilters(params);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(params, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(viewBatches(receiptBatches(user, filters)));
  const result = await listReceipts(user, filters, { limit, page });
  return pageResponse(request, result.items.map(receiptJson), result.olderCursor);
}

async function* viewBatches(batches: AsyncIterable<Parameters<typeof receiptJson>[0][]>) {
  for await (const batch of batches) yield batch.map(receiptJson);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.record");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await recordReceipt(user, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(receiptJson(result.receipt), { status: result.replayed ? 200 : 201 });
}

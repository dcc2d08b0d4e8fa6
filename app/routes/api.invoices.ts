import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { parseInvoiceFilters } from "~/schemas/invoice-filters";
import { getInvoice, invoiceBatches, listInvoices } from "~/presenters/invoice-list.server";
import { createInvoiceForDelivery } from "~/services/invoices/create-invoice.server";
import { jsonError } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { readPageRequest } from "~/utils/params";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { failureJson } from "~/utils/result.server";

// GET: with `limit`, one page and the next cursor (X-Next-Cursor, Link rel="next"); without,
// every matching invoice, streamed.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parseInvoiceFilters(params);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(params, "id");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(invoiceBatches(user, filters));
  const result = await listInvoices(user, filters, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

// Only deliveryId (and optionally a free numeric invoiceNo) is taken from the body: amount,
// profit, tax rate and dates are recomputed from the database.
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "invoice.manage");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await createInvoiceForDelivery(
    user,
    { deliveryId: body.deliveryId, invoiceNo: body.invoiceNo },
    { idempotencyKey },
  );
  if (!result.ok) return failureJson(result);
  return Response.json(await getInvoice(user, result.invoice.id), { status: result.replayed ? 200 : 201 });
}

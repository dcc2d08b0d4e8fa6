import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { entryJson, listPayments, paymentBatches } from "~/presenters/payments.server";
import { parsePaymentFilters } from "~/schemas/payment-filters";
import { recordPayment } from "~/services/payments/record-payment.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { readPageRequest } from "~/utils/params";
import { jsonError } from "~/utils/auth.server";
import { requireCapability } from "~/rules/capabilities.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { failureJson } from "~/utils/result.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "payment.record");
  const params = new URL(request.url).searchParams;
  const { filters, invalid } = parsePaymentFilters(params);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(params, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(params);
  if (limit === "invalid") return badLimit();
  if (limit === null) return streamJsonArray(paymentBatches(user, filters));
  const result = await listPayments(user, filters, { limit, page });
  return pageResponse(request, result.items, result.olderCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireCapability(request, "payment.record");
  const body = await readJsonBody(request);
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await recordPayment(user, body, new Date(), { idempotencyKey });
  if (!result.ok) return failureJson(result);
  return Response.json(
    {
      ...entryJson(result.payment),
      paymentStatus: result.paymentStatus,
      amountPaid: result.amountPaid,
      amountCredited: result.amountCredited,
    },
    { status: result.replayed ? 200 : 201 },
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deliveryBatches, listDeliveries, readDeliveryFilters } from "~/models/delivery.server";
import { createDelivery } from "~/services/deliveries/create-delivery.server";
import { badLimit, pageResponse, readLimit, streamJsonArray } from "~/utils/json-list.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { OTHER_USER_MESSAGE, OUTBOX_USER_HEADER, REPLACES_HEADER } from "~/utils/outbox-protocol";
import { readPageRequest } from "~/utils/params";
import { failureJson } from "~/utils/result.server";

// GET: staff see their own deliveries without financial fields. With `limit` the list is a
// page and the next page's cursor comes in the X-Next-Cursor header.
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const { filters, invalid } = readDeliveryFilters(url.searchParams);
  if (invalid) return jsonError(400, invalid);
  const page = readPageRequest(url.searchParams, "date");
  if (page.invalid) return jsonError(400, "The cursor is not valid");
  const limit = readLimit(url.searchParams);
  if (limit === "invalid") return badLimit();
  // Without `limit`, the whole list, streamed from the database in batches.
  if (limit === null) return streamJsonArray(deliveryBatches(user, filters));
  const { deliveries, olderCursor } = await listDeliveries(user, filters, { limit, page });
  return pageResponse(request, deliveries, olderCursor);
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireUser(request);
  // A phone's outbox names whose delivery it sends: under anyone else's session it waits (decision 1100).
  const owner = request.headers.get(OUTBOX_USER_HEADER);
  if (owner !== null && owner !== user.id) return jsonError(401, OTHER_USER_MESSAGE);
  const body = await readJsonBody(request);
  const result = await createDelivery(user, body, {
    idempotencyKey: request.headers.get("Idempotency-Key"),
    replacesKeys: request.headers.get(REPLACES_HEADER),
  });
  if (!result.ok) return failureJson(result);
  return Response.json(result.delivery, { status: result.replayed ? 200 : 201 });
}

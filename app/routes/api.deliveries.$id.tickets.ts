import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getDelivery } from "~/models/delivery.server";
import { requireCapability } from "~/rules/capabilities.server";
import { photoFromDataUrl, photoRefusal } from "~/rules/images.server";
import { recordTicket } from "~/services/deliveries/record-ticket.server";
import { jsonError, requireUser } from "~/utils/auth.server";
import { methodNotAllowed, readJsonBody } from "~/utils/http.server";
import { IDEMPOTENCY_HEADER, keyOf } from "~/utils/idempotency.server";
import { parseId } from "~/utils/params";
import { failOn } from "~/utils/result";
import { failureJson } from "~/utils/result.server";

// A delivery's weighbridge tickets (docs/decisions/1220). GET: its tickets, to whoever may see the
// delivery. POST: records one (managers and admins), `{ kind, ticketNo, truckNo, grossKg, tareKg,
// weighedAt?, moisture?, photo? }` with the photo as a data URL or bare base64; answers the
// delivery with its weights, 201 the first time and 200 when an Idempotency-Key replays it.

const PHOTO_NOT_AN_IMAGE = "The photo must be a JPEG, PNG or WebP image, sent as a data URL or base64";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  const delivery = id ? await getDelivery(user, id) : null;
  if (!delivery) return jsonError(404, "Delivery not found");
  return Response.json(delivery.tickets);
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (request.method !== "POST") {
    await requireUser(request);
    return methodNotAllowed();
  }
  const user = await requireCapability(request, "delivery.tickets");
  const id = parseId(params.id);
  if (!id) return jsonError(404, "Delivery not found");
  const { photo, ...input } = await readJsonBody(request);
  let bytes: Uint8Array | null = null;
  if (photo !== undefined && photo !== null && photo !== "") {
    bytes = typeof photo === "string" ? photoFromDataUrl(photo) : null;
    const refusal = bytes ? photoRefusal(bytes) : PHOTO_NOT_AN_IMAGE;
    if (refusal) return failureJson(failOn(400, "photo", refusal));
  }
  const idempotencyKey = keyOf(request.headers.get(IDEMPOTENCY_HEADER), undefined);
  const result = await recordTicket(user, id, input, bytes, { idempotencyKey });
  if (!result.ok) return failureJson(result);
  const delivery = await getDelivery(user, id);
  if (!delivery) return jsonError(404, "Delivery not found");
  return Response.json(delivery, { status: result.replayed ? 200 : 201 });
}

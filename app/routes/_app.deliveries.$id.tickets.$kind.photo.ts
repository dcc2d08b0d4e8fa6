import type { LoaderFunctionArgs } from "@remix-run/node";
import { getDelivery } from "~/models/delivery.server";
import { ticketPhoto } from "~/models/ticket.server";
import { requireUser } from "~/utils/auth.server";
import { parseId } from "~/utils/params";

// A ticket's photo (docs/decisions/1220), only to users who may see its delivery (staff: the
// ones they recorded); anyone else, like a delivery or photo that is not there, gets 404. Its
// bytes were checked to be an image when stored, and are served as that type and no other.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = parseId(params.id);
  const kind = params.kind === "loading" || params.kind === "received" ? params.kind : null;
  const delivery = id && kind ? await getDelivery(user, id) : null;
  const photo = delivery && kind ? await ticketPhoto(delivery.id, kind) : null;
  if (!photo) return new Response("Photo not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(new Uint8Array(photo.bytes), {
    headers: {
      "Content-Type": photo.contentType,
      "Content-Length": String(photo.bytes.length),
      // A replaced ticket's photo is a new one at the same address: the browser asks each time.
      "Cache-Control": "private, no-cache",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

// Recording a weighbridge ticket on a delivery already recorded (docs/decisions/1220): the
// client's (received) ticket when it comes back, or a loading ticket the yard did not have. A
// second ticket of the same kind replaces the first until the delivery is invoiced. Managers and
// admins (`delivery.tickets`); runs on the keyed write pipeline (decision 0805), so an
// Idempotency-Key makes a resend answer the first.
import { eq } from "drizzle-orm";
import { schema } from "~/db.server";
import { writeTicket } from "~/models/ticket.server";
import type { Actor } from "~/rules/capabilities.server";
import { isInvoiced } from "~/rules/deliveries.server";
import { photoDigest } from "~/rules/images.server";
import { ticketRefusal, TicketSchema } from "~/schemas/tickets";
import { safeParseFields } from "~/schemas/fields";
import { keyedWrite, refuseWith, type KeyOptions } from "~/services/keyed-write.server";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, failOn, type Failure } from "~/utils/result";

export const INVOICED_TICKETS_MESSAGE = "This delivery is invoiced: its tickets can no longer change";

export type RecordTicketResult = { ok: true; replayed: boolean; deliveryId: number } | Failure;

/**
 * Records `input` (TicketSchema's fields) as a ticket of delivery `deliveryId`, with the photo's
 * bytes when one came. Refused: without `delivery.tickets` (403), bad fields (400 naming the
 * field), an unknown delivery (404), an invoiced delivery (409), a delivery dated in a closed month
 * (409), a ticket number the same weighbridge has on another delivery (409 naming it).
 */
export async function recordTicket(
  actor: Actor,
  deliveryId: number,
  input: Record<string, unknown>,
  photo: Uint8Array | null,
  options: KeyOptions = {},
): Promise<RecordTicketResult> {
  return keyedWrite(
    {
      capability: "delivery.tickets",
      object: () => `delivery/${deliveryId}/tickets`,
      scope: "delivery.ticket",
      parse(fields) {
        const parsed = safeParseFields(TicketSchema, fields);
        if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
        const refusal = ticketRefusal(parsed.data);
        if (refusal) return failOn(400, refusal.field, refusal.message);
        return { ok: true, data: { deliveryId, ticket: parsed.data, photo } };
      },
      // The photo's bytes are part of what the key covers: the same key with another photo is refused.
      hash: ({ ticket, photo: bytes }) => ({ deliveryId, ticket, photo: photoDigest(bytes) }),
      replay: async () => ({ deliveryId }),
      async lock(tx) {
        const [delivery] = await tx
          .select()
          .from(schema.deliveries)
          .where(eq(schema.deliveries.id, deliveryId))
          .for("update");
        if (!delivery) refuseWith(fail(404, "Delivery not found"));
        return delivery;
      },
      landsOn: (_input, delivery) => delivery.date,
      check(_tx, _input, delivery) {
        if (isInvoiced(delivery)) refuseWith(fail(409, INVOICED_TICKETS_MESSAGE));
      },
      async write(tx, { ticket, photo: bytes }, delivery, { actor: who }) {
        const { audit } = await writeTicket(tx, delivery, {
          ticket,
          photo: bytes,
          actorId: who.id,
          timeZone: env().APP_TIME_ZONE,
        });
        return {
          made: { deliveryId },
          resourceId: deliveryId,
          audit: audit as [(typeof audit)[number], ...typeof audit],
        };
      },
    },
    actor,
    input,
    options,
  );
}

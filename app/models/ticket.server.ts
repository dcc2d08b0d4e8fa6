// A delivery's weighbridge tickets (docs/decisions/1220): writing one inside the transaction of
// whoever records it (New Delivery's loading ticket, the office's Record Ticket), and reading them
// back. Writing a ticket sets the delivery's weights: a loading ticket its loaded tons and truck, a
// received ticket its received tons, moisture, and the quality rule and deduction of the delivery's
// day, snapshotted.
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { getDb, schema, type Delivery, type DeliveryTicket, type Executor, type Tx } from "~/db.server";
import type { TicketInput } from "~/schemas/tickets";
import { deductedPercent } from "~/rules/quality";
import { deductionKg, kgToTons } from "~/rules/weights";
import { imageTypeOf, photoRefusal } from "~/rules/images.server";
import { failOn, Refusal } from "~/utils/result";
import type { AuditEvent } from "./audit.server";
import { qualityRuleOn } from "./quality-rule.server";
import { instantOfWallClock } from "~/utils/zone-days.server";
import { registerPlate } from "./truck.server";

const tk = schema.deliveryTickets;

type WriteAudit = Omit<AuditEvent, "actor" | "context">;

/** A ticket as the JSON calls and the pages show it. */
export type TicketView = {
  kind: DeliveryTicket["kind"];
  ticketNo: string;
  truckNo: string;
  grossKg: number;
  tareKg: number;
  netKg: number;
  weighedAt: string | null;
  moisture: string | null;
  hasPhoto: boolean;
  recordedAt: string;
};

export const NO_CLIENT_TICKET_MESSAGE = "This delivery has no client yet: set its client before its client's ticket";

/** Whose weighbridge printed a ticket: the client's for a received ticket, the pick-up site's for a loading one. */
export function weighbridgeOf(kind: TicketInput["kind"], delivery: Pick<Delivery, "clientId" | "location">) {
  if (kind === "received") {
    if (delivery.clientId === null) {
      throw new Refusal(failOn(409, "kind", NO_CLIENT_TICKET_MESSAGE));
    }
    return `client:${delivery.clientId}`;
  }
  return `site:${delivery.location.trim().replace(/\s+/g, " ").toLowerCase()}`;
}

/** The instant of a form's local time ("2026-11-28T14:30") in `timeZone`, or an instant as given. */
export const weighedInstant = (value: string, timeZone: string): Date =>
  /(Z|[+-]\d{2}:\d{2})$/.test(value) ? new Date(value) : instantOfWallClock(timeZone, value);

/** Stores a photo's bytes (checked again here: nothing unchecked reaches the table). */
async function storePhoto(tx: Executor, bytes: Uint8Array, createdBy: string): Promise<number> {
  const refusal = photoRefusal(bytes);
  if (refusal) throw new Refusal(failOn(400, "photo", refusal));
  const [row] = await tx
    .insert(schema.attachments)
    .values({ contentType: imageTypeOf(bytes)!, bytes, sizeBytes: bytes.length, createdBy })
    .returning({ id: schema.attachments.id });
  return row.id;
}

export type TicketWrite = {
  ticket: TicketInput;
  /** The photo's bytes, already read from the form or the JSON; null for none. */
  photo: Uint8Array | null;
  actorId: string;
  timeZone: string;
};

/**
 * Writes `ticket` on `delivery` (locked FOR UPDATE by the caller, not invoiced, in an open month)
 * and sets the delivery's weights from it. A ticket of the same kind is replaced. Refusals (a
 * number another delivery has on the same weighbridge) are thrown as `Refusal`s. Returns the
 * updated delivery and the audit events that record the change.
 */
export async function writeTicket(
  tx: Tx,
  delivery: Delivery,
  { ticket, photo, actorId, timeZone }: TicketWrite,
): Promise<{ delivery: Delivery; audit: WriteAudit[] }> {
  const weighbridge = weighbridgeOf(ticket.kind, delivery);
  // One number per weighbridge: two offices recording one number at once queue here, so the
  // second is told which delivery has it rather than failing on the unique index.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${weighbridge + " " + ticket.ticketNo}, 7261020))`,
  );
  const [holder] = await tx
    .select({ deliveryId: tk.deliveryId })
    .from(tk)
    .where(and(eq(tk.weighbridge, weighbridge), eq(tk.ticketNo, ticket.ticketNo), ne(tk.deliveryId, delivery.id)))
    .limit(1);
  if (holder) {
    throw new Refusal(
      failOn(409, "ticketNo", `Ticket ${ticket.ticketNo} is already recorded on delivery ${holder.deliveryId}`),
    );
  }
  const audit: WriteAudit[] = [];
  const truck = await registerPlate(tx, ticket.truckNo, actorId);
  if (truck.created)
    audit.push({ action: "truck.create", entityType: "truck", entityId: truck.created.id, after: truck.created });
  const photoId = photo ? await storePhoto(tx, photo, actorId) : null;

  const values = {
    ticketNo: ticket.ticketNo,
    weighbridge,
    truckId: truck.truck.id,
    grossKg: ticket.grossKg,
    tareKg: ticket.tareKg,
    weighedAt: ticket.weighedAt ? weighedInstant(ticket.weighedAt, timeZone) : null,
    moisture: ticket.kind === "received" ? ticket.moisture : null,
    photoId,
  };
  const [replaced] = await tx
    .select()
    .from(tk)
    .where(and(eq(tk.deliveryId, delivery.id), eq(tk.kind, ticket.kind)))
    .for("update");
  const [written] = replaced
    ? await tx
        .update(tk)
        .set({ ...values, createdBy: actorId, updatedAt: new Date() })
        .where(eq(tk.id, replaced.id))
        .returning()
    : await tx
        .insert(tk)
        .values({ ...values, deliveryId: delivery.id, kind: ticket.kind, createdBy: actorId })
        .returning();
  audit.push({
    action: replaced ? "delivery.ticket_replace" : "delivery.ticket_record",
    entityType: "delivery",
    entityId: delivery.id,
    ...(replaced ? { before: ticketAudit(replaced) } : {}),
    after: ticketAudit(written),
  });

  const netKg = ticket.grossKg - ticket.tareKg;
  let weights: Partial<typeof schema.deliveries.$inferInsert>;
  if (ticket.kind === "loading") {
    weights = { tons: kgToTons(netKg), truckNo: truck.truck.plate };
  } else {
    const rule = ticket.moisture === null ? null : await qualityRuleOn(delivery.clientId!, delivery.date, tx);
    const percent = rule && ticket.moisture !== null ? deductedPercent(rule, ticket.moisture) : "0";
    weights = {
      receivedTons: kgToTons(netKg),
      moisture: ticket.moisture,
      // The rule that judged the reading, even when it took nothing off.
      qualityRuleId: rule?.id ?? null,
      qualityDeductionTons: kgToTons(deductionKg(netKg, percent)),
      ...(delivery.truckNo ? {} : { truckNo: truck.truck.plate }),
    };
  }
  const [after] = await tx
    .update(schema.deliveries)
    .set({ ...weights, updatedAt: new Date() })
    .where(eq(schema.deliveries.id, delivery.id))
    .returning();
  audit.push({ action: "delivery.weights", entityType: "delivery", entityId: delivery.id, before: delivery, after });
  return { delivery: after, audit };
}

/** A ticket in the audit trail: its fields, the photo by id (never its bytes). */
const ticketAudit = (t: DeliveryTicket) => ({
  id: t.id,
  kind: t.kind,
  ticketNo: t.ticketNo,
  weighbridge: t.weighbridge,
  truckId: t.truckId,
  grossKg: t.grossKg,
  tareKg: t.tareKg,
  netKg: t.netKg,
  weighedAt: t.weighedAt?.toISOString() ?? null,
  moisture: t.moisture,
  photoId: t.photoId,
});

/** A delivery's tickets, loading first, with their trucks' plates. */
export async function ticketsOf(deliveryId: number, db?: Executor): Promise<TicketView[]> {
  return (await ticketsOfDeliveries([deliveryId], db)).get(deliveryId) ?? [];
}

/**
 * The tickets of several deliveries (a page of a list, a batch of the streamed list) in one query
 * on the (delivery, kind) index, by delivery id; a delivery without tickets has no entry.
 */
export async function ticketsOfDeliveries(deliveryIds: readonly number[], db?: Executor) {
  const byDelivery = new Map<number, TicketView[]>();
  if (deliveryIds.length === 0) return byDelivery;
  db ??= await getDb();
  const rows = await db
    .select({ ticket: tk, plate: schema.trucks.plate })
    .from(tk)
    .innerJoin(schema.trucks, eq(schema.trucks.id, tk.truckId))
    .where(inArray(tk.deliveryId, [...deliveryIds]))
    .orderBy(asc(tk.deliveryId), asc(tk.kind));
  for (const { ticket: t, plate } of rows) {
    const list = byDelivery.get(t.deliveryId) ?? [];
    list.push({
      kind: t.kind,
      ticketNo: t.ticketNo,
      truckNo: plate,
      grossKg: t.grossKg,
      tareKg: t.tareKg,
      netKg: t.netKg,
      weighedAt: t.weighedAt?.toISOString() ?? null,
      moisture: t.moisture,
      hasPhoto: t.photoId !== null,
      recordedAt: t.updatedAt.toISOString(),
    });
    byDelivery.set(t.deliveryId, list);
  }
  return byDelivery;
}

/** Whether a delivery has a ticket of `kind` (read inside the caller's transaction). */
export async function hasTicket(tx: Executor, deliveryId: number, kind: DeliveryTicket["kind"]) {
  const [row] = await tx
    .select({ id: tk.id })
    .from(tk)
    .where(and(eq(tk.deliveryId, deliveryId), eq(tk.kind, kind)));
  return row !== undefined;
}

/** The photo of a delivery's ticket of `kind`: its bytes and type, or null. The caller checks who may see the delivery. */
export async function ticketPhoto(deliveryId: number, kind: DeliveryTicket["kind"], db?: Executor) {
  db ??= await getDb();
  const [row] = await db
    .select({ bytes: schema.attachments.bytes, contentType: schema.attachments.contentType })
    .from(tk)
    .innerJoin(schema.attachments, eq(schema.attachments.id, tk.photoId))
    .where(and(eq(tk.deliveryId, deliveryId), eq(tk.kind, kind)));
  return row ?? null;
}

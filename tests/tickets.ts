// What the office's ticket tests share (docs/decisions/1220): the people, a client with a
// quality rule (16%, 1% a point), a delivery maker, the JSON call and the rows to check.
import { eq } from "drizzle-orm";
import { getDb, schema, type Delivery, type User } from "../app/db.server";
import * as apiTickets from "../app/routes/api.deliveries.$id.tickets";
import { createAgent, createClient, createDelivery, createQualityRule, loginAs } from "./factories";
import { call, makeRequest } from "./http";

export const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);
export const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

/** A received ticket of 30,120 kg net at 18.5% moisture, as the JSON call takes it. */
export const ticket = (no: string, extra: Record<string, unknown> = {}) => ({
  kind: "received",
  ticketNo: no,
  truckNo: "lag 123 xy",
  grossKg: 45120,
  tareKg: 15000,
  moisture: "18.5",
  ...extra,
});

/** A delivery as the JSON calls answer it. */
export type View = Record<string, unknown> & {
  tickets: (Record<string, unknown> & { kind: string; photoUrl?: string })[];
};

export type TicketWorld = Awaited<ReturnType<typeof ticketWorld>>;

export async function ticketWorld() {
  const manager = await loginAs("manager");
  const admin = await loginAs("admin");
  const staff = await loginAs("staff");
  const otherStaff = await loginAs("staff");
  const agentId = (await createAgent()).id;
  const client = await createClient({ name: "Weighbridge Client" });
  await createQualityRule({
    clientId: client.id,
    validFrom: "2020-01-01",
    moistureThreshold: "16",
    deductionPerPoint: "1",
  });
  /** A delivery of 30 tons for the client, dated in March 2026, recorded by `by` (staff by default). */
  const delivery = (values: Partial<Delivery> = {}, by: User = staff.user) =>
    createDelivery({ agentId, clientId: client.id, createdBy: by.id, date: "2026-03-02", tons: "30", ...values });
  /** `POST /api/deliveries/{id}/tickets`, as the manager unless `cookie` says otherwise. */
  const postJson = (id: number, body: unknown, cookie = manager.cookie, key?: string) =>
    call(
      apiTickets.action,
      makeRequest(`/api/deliveries/${id}/tickets`, {
        method: "POST",
        cookie,
        json: body,
        headers: key ? { "Idempotency-Key": key } : {},
      }),
      { id: String(id) },
    );
  return { manager, admin, staff, otherStaff, agentId, client, delivery, postJson };
}

export async function ticketRows(deliveryId: number) {
  const db = await getDb();
  return db.select().from(schema.deliveryTickets).where(eq(schema.deliveryTickets.deliveryId, deliveryId));
}

export async function eventsOf(deliveryId: number, action: string) {
  const db = await getDb();
  return (await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, action))).filter(
    (e) => e.entityId === String(deliveryId),
  );
}

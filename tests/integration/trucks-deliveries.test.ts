// New Delivery's Truck No. and the truck register (docs/decisions/1200): a known plate is stored
// on the delivery as the register shows it; an unknown one joins the register in the delivery's
// transaction, audited with it; deliveries racing with one new plate all land; a plate that is
// not one is a 400 naming Truck No. with nothing written. The form, the JSON call and the phone's
// outbox (which posts the JSON call) take the same road.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { createTruck, recentPlates } from "../../app/models/truck.server";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import { createDelivery } from "../../app/services/deliveries/create-delivery.server";
import { expectEveryEventWorded } from "../audit-words";
import { createAgent, createClient, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let agentId: number;
let manager: User;

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Kodan";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  agentId = (await createAgent()).id;
  await createClient({ name: "KODAN" });
  manager = await createUser({ role: "manager" });
  const db = await getDb();
  await db
    .insert(schema.settings)
    .values({ id: 1, buyingRate: "52000.00", sellingRate: "65000.00", offloadingCost: "15000.00" })
    .onConflictDoUpdate({
      target: schema.settings.id,
      set: { buyingRate: "52000.00", sellingRate: "65000.00", offloadingCost: "15000.00" },
    });
});

const form = (truckNo: string, extra: Record<string, string> = {}) => ({
  agentId: String(agentId),
  tons: "10.00",
  location: "Ikorodu yard",
  truckNo,
  idempotencyKey: crypto.randomUUID(),
  returnTo: "/deliveries",
  ...extra,
});

async function trucksKeyed(key: string) {
  const db = await getDb();
  return db.select().from(schema.trucks).where(eq(schema.trucks.plateKey, key));
}

async function deliveriesBy(user: User) {
  const db = await getDb();
  return db.select().from(schema.deliveries).where(eq(schema.deliveries.createdBy, user.id));
}

async function truckEvents(id: number) {
  const db = await getDb();
  return db
    .select()
    .from(schema.auditEvents)
    .where(sql`${schema.auditEvents.entityType} = 'truck' and ${schema.auditEvents.entityId} = ${String(id)}`);
}

describe("New Delivery's Truck No.", () => {
  it("offers the plates most recently added or changed, plates only, to every role", async () => {
    const made = await createTruck(manager, { plate: "SUG 1", phone: "0803 555 0000", transporter: "Secret Co" });
    if (!made.ok) throw new Error(made.message);
    for (const role of ["staff", "manager", "admin"] as const) {
      const { cookie } = await loginAs(role);
      const page = await call(newDelivery.loader, makeRequest("/deliveries/new", { cookie }));
      expect(page.status).toBe(200);
      const data = page.body as { plates: string[]; constraint: Record<string, object> };
      expect(data.plates[0]).toBe("SUG 1");
      expect(JSON.stringify(data)).not.toContain("0803 555 0000");
      expect(JSON.stringify(data)).not.toContain("Secret Co");
      expect(data.constraint.truckNo).toMatchObject({ pattern: expect.any(String) });
    }
  });

  it("keeps at most 200 suggestions, newest first", async () => {
    const db = await getDb();
    await db.insert(schema.trucks).values(
      Array.from({ length: 210 }, (_, i) => ({
        plate: `OLD ${i}`,
        plateKey: `OLD${i}`,
        createdBy: manager.id,
        updatedAt: new Date(Date.UTC(2020, 0, 1, 0, i)),
      })),
    );
    const plates = await recentPlates();
    expect(plates).toHaveLength(200);
    expect(plates.indexOf("OLD 209")).toBeLessThan(plates.indexOf("OLD 100"));
    expect(plates).not.toContain("OLD 0");
  });

  it("a known plate, typed any way, is stored as the register shows it and adds no truck", async () => {
    const made = await createTruck(manager, { plate: "KJA-456-AB" });
    if (!made.ok) throw new Error(made.message);
    const { cookie, user } = await loginAs("staff");
    const sent = await call(
      newDelivery.action,
      makeRequest("/deliveries/new", { method: "POST", cookie, form: form(" kja 456 ab ") }),
    );
    expect(sent.status).toBe(302);
    const [delivery] = await deliveriesBy(user);
    expect(delivery.truckNo).toBe("KJA-456-AB");
    expect(await trucksKeyed("KJA456AB")).toHaveLength(1);
    expect(await truckEvents(made.truck.id)).toHaveLength(1);
  });

  it("an unknown plate joins the register with the delivery, audited as created by whoever recorded it", async () => {
    const { cookie, user } = await loginAs("staff");
    const sent = await call(
      newDelivery.action,
      makeRequest("/deliveries/new", { method: "POST", cookie, form: form("lag  777 xy") }),
    );
    expect(sent.status).toBe(302);
    const [delivery] = await deliveriesBy(user);
    expect(delivery.truckNo).toBe("LAG 777 XY");
    const [truck] = await trucksKeyed("LAG777XY");
    expect(truck).toMatchObject({ plate: "LAG 777 XY", createdBy: user.id, transporter: null, usualTareKg: null });
    const [event] = await truckEvents(truck.id);
    expect(event).toMatchObject({ action: "truck.create", actorId: user.id, after: { plate: "LAG 777 XY" } });
    // The truck's event was written in the delivery's transaction, next to the delivery's.
    const db = await getDb();
    const [deliveryEvent] = await db
      .select()
      .from(schema.auditEvents)
      .where(
        sql`${schema.auditEvents.action} = 'delivery.create' and ${schema.auditEvents.entityId} = ${String(delivery.id)}`,
      );
    expect(event.requestId).toBe(deliveryEvent.requestId);
    expect(event.id).toBe(deliveryEvent.id + 1);
  });

  it("a delivery with no truck number adds nothing", async () => {
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.trucks))[0].n;
    const before = await count();
    const { cookie, user } = await loginAs("staff");
    const sent = await call(
      newDelivery.action,
      makeRequest("/deliveries/new", { method: "POST", cookie, form: form("") }),
    );
    expect(sent.status).toBe(302);
    expect((await deliveriesBy(user))[0].truckNo).toBeNull();
    expect(await count()).toBe(before);
  });

  it("an invalid plate is a 400 naming Truck No., and nothing is written", async () => {
    const { cookie, user } = await loginAs("staff");
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.trucks))[0].n;
    const before = await count();
    for (const truckNo of ["LAG_123", "X", "A".repeat(21), "LAG/1"]) {
      const refused = await call(
        newDelivery.action,
        makeRequest("/deliveries/new", { method: "POST", cookie, form: form(truckNo) }),
      );
      expect(refused.status, truckNo).toBe(400);
      expect(JSON.stringify(refused.body), truckNo).toContain('"truckNo":["Truck No. must be 2 to 20 letters');
      const api = await call(
        apiDeliveries.action,
        makeRequest("/api/deliveries", {
          method: "POST",
          cookie,
          json: { agentId, tons: "1", location: "Yard", truckNo },
        }),
      );
      expect(api.status, truckNo).toBe(400);
      expect((api.body as { errors: Record<string, string[]> }).errors.truckNo[0]).toMatch(/^Truck No\. must be/);
    }
    expect(await deliveriesBy(user)).toHaveLength(0);
    expect(await count()).toBe(before);
  });

  it("POST /api/deliveries (the phone's outbox) adds an unknown plate the same way, once under a replayed key", async () => {
    const { cookie, user } = await loginAs("staff");
    const json = { agentId, tons: "2.00", location: "Sagamu", truckNo: "ogn-12-kt", idempotencyKey: "outbox-truck-1" };
    const first = await call(apiDeliveries.action, makeRequest("/api/deliveries", { method: "POST", cookie, json }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ truckNo: "OGN-12-KT" });
    const again = await call(apiDeliveries.action, makeRequest("/api/deliveries", { method: "POST", cookie, json }));
    expect(again.status).toBe(200);
    expect(await deliveriesBy(user)).toHaveLength(1);
    const [truck] = await trucksKeyed("OGN12KT");
    expect(await truckEvents(truck.id)).toHaveLength(1);
  });

  it("deliveries racing with one new plate all land, and the register gets it once", async () => {
    const racers = await Promise.all([1, 2, 3, 4].map(() => createUser({ role: "staff" })));
    const results = await Promise.all(
      racers.map((user, i) =>
        createDelivery(user, {
          agentId,
          tons: "5.00",
          location: "Race yard",
          truckNo: ["RCE 9", "rce-9", "RCE9", " rce 9 "][i],
        }),
      ),
    );
    for (const result of results) expect(result).toMatchObject({ ok: true });
    const trucks = await trucksKeyed("RCE9");
    expect(trucks).toHaveLength(1);
    expect(await truckEvents(trucks[0].id)).toHaveLength(1);
    // Every delivery shows the plate as the register holds it, whoever won.
    const db = await getDb();
    const plates = await db
      .select({ truckNo: schema.deliveries.truckNo })
      .from(schema.deliveries)
      .where(eq(schema.deliveries.location, "Race yard"));
    expect(new Set(plates.map((p) => p.truckNo))).toEqual(new Set([trucks[0].plate]));
  });

  it("every event these tests wrote reads in words", async () => {
    await expectEveryEventWorded();
  });
});

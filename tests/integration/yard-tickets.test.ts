// New Delivery's loading ticket (docs/decisions/1220), on PGlite and PostgreSQL: the ticket and
// its photo land with the delivery in one transaction, through the JSON call (the phone's outbox)
// and the HTML form (multipart, without JavaScript); the ticket's net is the delivery's tons;
// every bad field is refused by name with nothing written; a number a pick-up site has used is a
// 409 naming the delivery; a resend under its key lands once; the agent's pay basis is copied.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { ticketPhoto, ticketsOf } from "../../app/models/ticket.server";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import * as api from "../../app/routes/api.deliveries";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let agentId: number;

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Kodan";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  agentId = (await createAgent()).id;
  await createClient({ name: "KODAN" });
  const db = await getDb();
  await db
    .insert(schema.settings)
    .values({ id: 1, buyingRate: "52000.00", sellingRate: "65000.00", offloadingCost: "15000.00" })
    .onConflictDoUpdate({
      target: schema.settings.id,
      set: { buyingRate: "52000.00", sellingRate: "65000.00", offloadingCost: "15000.00" },
    });
});

/** Bytes that read as a JPEG (the first three bytes decide, decision 1220), `size` long. */
function jpeg(size = 64, fill = 7) {
  const bytes = new Uint8Array(size).fill(fill);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return bytes;
}
const dataUrl = (bytes: Uint8Array) => `data:image/jpeg;base64,${Buffer.from(bytes).toString("base64")}`;

let sites = 0;
/** A pick-up site of its own, so ticket numbers never meet another test's. */
const site = () => `Yard ${++sites} ${crypto.randomUUID().slice(0, 8)}`;

const ticket = (extra: Record<string, unknown> = {}) => ({
  ticketNo: "lt-0042",
  truckNo: "lag 123 xy",
  grossKg: "45550",
  tareKg: 15000,
  weighedAt: "2026-03-01T07:45",
  ...extra,
});

const post = (cookie: string, json: unknown, key?: string) =>
  call(
    api.action,
    makeRequest("/api/deliveries", { method: "POST", cookie, json, headers: key ? { "Idempotency-Key": key } : {} }),
  );

/** New Delivery posted as the browser does without JavaScript: multipart, the photo as a file. */
function postForm(cookie: string, fields: Record<string, string>, photo?: Uint8Array<ArrayBuffer>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append(
    "loadingTicket.photo",
    photo
      ? new File([photo], "ticket.jpg", { type: "image/jpeg" })
      : new File([], "", { type: "application/octet-stream" }),
  );
  return call(
    newDelivery.action,
    new Request("http://localhost/deliveries/new", { method: "POST", headers: { Cookie: cookie }, body }),
  );
}

async function counts() {
  const db = await getDb();
  const n = async (table: typeof schema.deliveries | typeof schema.deliveryTickets | typeof schema.attachments) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  return {
    deliveries: await n(schema.deliveries),
    tickets: await n(schema.deliveryTickets),
    photos: await n(schema.attachments),
  };
}

async function deliveryAt(location: string) {
  const db = await getDb();
  return db.select().from(schema.deliveries).where(eq(schema.deliveries.location, location));
}

type Refused = { status: number; body: { message: string; errors: Record<string, string[]> } };

describe("a loading ticket from the yard, through the JSON call", () => {
  it("records the ticket and its photo with the delivery; the ticket's net is the tons and its plate the truck", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const photo = jpeg(5000);
    const res = await post(cookie, { agentId, location, loadingTicket: ticket({ photo: dataUrl(photo) }) });
    expect(res.status).toBe(201);
    const [delivery] = await deliveryAt(location);
    expect(delivery).toMatchObject({
      tons: "30.550",
      truckNo: "LAG 123 XY",
      invoicedTons: "30.550",
      paidTons: "30.550",
    });
    expect((res.body as { id: number }).id).toBe(delivery.id);
    const [loading] = await ticketsOf(delivery.id);
    expect(loading).toMatchObject({
      kind: "loading",
      ticketNo: "LT-0042",
      truckNo: "LAG 123 XY",
      grossKg: 45550,
      tareKg: 15000,
      netKg: 30550,
      hasPhoto: true,
      // 07:45 in Lagos (UTC+1).
      weighedAt: "2026-03-01T06:45:00.000Z",
    });
    const stored = await ticketPhoto(delivery.id, "loading");
    expect(stored?.contentType).toBe("image/jpeg");
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(photo))).toBe(true);

    const db = await getDb();
    const events = await db
      .select({ action: schema.auditEvents.action })
      .from(schema.auditEvents)
      .where(and(eq(schema.auditEvents.entityType, "delivery"), eq(schema.auditEvents.entityId, String(delivery.id))));
    expect(events.map((e) => e.action).sort()).toEqual([
      "delivery.create",
      "delivery.ticket_record",
      "delivery.weights",
    ]);
  });

  it("takes typed tons equal to the ticket's net, a photo as bare base64, and a ticket with Truck No. as its plate", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const { truckNo: _plate, ...withoutPlate } = ticket({ photo: Buffer.from(jpeg()).toString("base64") });
    const res = await post(cookie, {
      agentId,
      location,
      tons: "30.55",
      truckNo: "kja 1 b",
      loadingTicket: withoutPlate,
    });
    expect(res.status).toBe(201);
    const [delivery] = await deliveryAt(location);
    expect(delivery).toMatchObject({ tons: "30.550", truckNo: "KJA 1 B" });
    expect((await ticketsOf(delivery.id))[0]).toMatchObject({ truckNo: "KJA 1 B", hasPhoto: true });
  });

  it("without a ticket, or with every box of it blank, records the tons typed, and requires them", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const blank = { ticketNo: "", grossKg: "", tareKg: "", weighedAt: "", photo: "" };
    expect((await post(cookie, { agentId, location, tons: "12.5", loadingTicket: blank })).status).toBe(201);
    expect((await post(cookie, { agentId, location, tons: "3", loadingTicket: null })).status).toBe(201);
    const recorded = await deliveryAt(location);
    expect(recorded.map((d) => d.tons).sort()).toEqual(["12.500", "3.000"]);
    for (const d of recorded) expect(await ticketsOf(d.id)).toEqual([]);
    const before = await counts();
    const missing = (await post(cookie, { agentId, location })) as Refused;
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ tons: ["Tons is required"] });
    expect(await counts()).toEqual(before);
  });

  it("refuses tons that are not the ticket's net, naming Tons and the net", async () => {
    const { cookie } = await loginAs("staff");
    const before = await counts();
    const res = (await post(cookie, { agentId, location: site(), tons: "30.5", loadingTicket: ticket() })) as Refused;
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({
      tons: ["Tons must match the loading ticket's net (30.550 t), or be left blank"],
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses each bad ticket field by its name and writes nothing", async () => {
    const { cookie } = await loginAs("staff");
    const before = await counts();
    const tooLarge = dataUrl(jpeg(2 * 1024 * 1024 + 1));
    const cases: [Record<string, unknown> | unknown, string, RegExp][] = [
      [ticket({ grossKg: "15000" }), "loadingTicket.grossKg", /Gross must be more than tare/],
      [ticket({ grossKg: "14000" }), "loadingTicket.grossKg", /Gross must be more than tare/],
      [ticket({ grossKg: "45550.5" }), "loadingTicket.grossKg", /whole number of kilograms/],
      [ticket({ tareKg: 1.5 }), "loadingTicket.tareKg", /whole number of kilograms/],
      [ticket({ grossKg: "200001" }), "loadingTicket.grossKg", /between 1 and 200,000 kg/],
      [ticket({ tareKg: "-1" }), "loadingTicket.tareKg", /whole number|between/],
      [ticket({ grossKg: "" }), "loadingTicket.grossKg", /Gross is required/],
      [ticket({ ticketNo: " " }), "loadingTicket.ticketNo", /Ticket number is required/],
      [ticket({ ticketNo: "x".repeat(41) }), "loadingTicket.ticketNo", /at most 40/],
      [ticket({ weighedAt: "yesterday" }), "loadingTicket.weighedAt", /date and time/],
      [ticket({ moisture: "17.5" }), "loadingTicket.moisture", /received\) ticket/],
      [ticket({ truckNo: "LAG#1" }), "loadingTicket.truckNo", /Truck No\. must be/],
      [ticket({ photo: "data:text/plain;base64,aGVsbG8gd29ybGQ=" }), "loadingTicket.photo", /JPEG, PNG or WebP/],
      [ticket({ photo: "not base64 at all!" }), "loadingTicket.photo", /data URL/],
      [ticket({ photo: 12 }), "loadingTicket.photo", /data URL/],
      [ticket({ photo: tooLarge }), "loadingTicket.photo", /larger than 2 MB/],
      ["a ticket", "loadingTicket", /object/],
      [[ticket()], "loadingTicket", /object/],
    ];
    for (const [loadingTicket, field, message] of cases) {
      const res = (await post(cookie, { agentId, location: site(), loadingTicket })) as Refused;
      const label = `${field} ${JSON.stringify(loadingTicket).slice(0, 60)}`;
      expect(res.status, label).toBe(400);
      expect(res.body.errors[field], label).toEqual([expect.stringMatching(message)]);
    }
    // A ticket with no plate of its own and no Truck No.: said under Truck No., the box the form has.
    const { truckNo: _plate, ...noPlate } = ticket();
    const plateless = (await post(cookie, { agentId, location: site(), loadingTicket: noPlate })) as Refused;
    expect(plateless.body.errors).toEqual({ truckNo: ["Truck No. is required"] });
    // The ticket's own plate must be the delivery's Truck No. when both are given.
    const other = (await post(cookie, {
      agentId,
      location: site(),
      truckNo: "KJA 9 Z",
      loadingTicket: ticket(),
    })) as Refused;
    expect(other.body.errors).toEqual({
      "loadingTicket.truckNo": ["The loading ticket's truck must be the Truck No."],
    });
    // The delivery's own fields and the ticket's are answered together.
    const both = (await post(cookie, { agentId, location: "", loadingTicket: ticket({ grossKg: "x" }) })) as Refused;
    expect(Object.keys(both.body.errors).sort()).toEqual(["loadingTicket.grossKg", "location"]);
    expect(await counts()).toEqual(before);
  });

  it("refuses a ticket number the pick-up site's weighbridge has on another delivery (409), naming it", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const first = await post(cookie, { agentId, location, loadingTicket: ticket({ ticketNo: "dup-1" }) });
    expect(first.status).toBe(201);
    const before = await counts();
    // The same site typed another way is the same weighbridge.
    const again = (await post(cookie, {
      agentId,
      location: ` ${location.toUpperCase()}  `,
      loadingTicket: ticket({ ticketNo: "DUP-1 " }),
    })) as Refused;
    expect(again.status).toBe(409);
    const id = (first.body as { id: number }).id;
    expect(again.body.errors).toEqual({
      "loadingTicket.ticketNo": [`Ticket DUP-1 is already recorded on delivery ${id}`],
    });
    expect(await counts()).toEqual(before);
    // Another site's weighbridge may print the same number.
    expect(
      (await post(cookie, { agentId, location: site(), loadingTicket: ticket({ ticketNo: "dup-1" }) })).status,
    ).toBe(201);
  });

  it("lands once when the phone sends the same ticket and photo twice under one key; another photo under it is refused", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const key = crypto.randomUUID();
    const body = { agentId, location, loadingTicket: ticket({ photo: dataUrl(jpeg(3000, 1)) }) };
    const before = await counts();
    const first = await post(cookie, body, key);
    const second = await post(cookie, body, key);
    expect([first.status, second.status]).toEqual([201, 200]);
    expect((second.body as { id: number }).id).toBe((first.body as { id: number }).id);
    const changed = (await post(
      cookie,
      { ...body, loadingTicket: ticket({ photo: dataUrl(jpeg(3000, 2)) }) },
      key,
    )) as Refused;
    expect(changed.status).toBe(422);
    expect(changed.body.message).toMatch(/already recorded under this request/);
    const after = await counts();
    expect(after).toEqual({
      deliveries: before.deliveries + 1,
      tickets: before.tickets + 1,
      photos: before.photos + 1,
    });
  });

  it("copies the agent's pay basis of the moment into the delivery", async () => {
    const { cookie } = await loginAs("staff");
    const db = await getDb();
    const agent = await createAgent({ payBasis: "received" });
    const location = site();
    expect((await post(cookie, { agentId: agent.id, location, tons: "10" })).status).toBe(201);
    await db.update(schema.agents).set({ payBasis: "accepted" }).where(eq(schema.agents.id, agent.id));
    expect((await post(cookie, { agentId: agent.id, location, tons: "11", loadingTicket: null })).status).toBe(201);
    const rows = await deliveryAt(location);
    expect(rows.map((d) => [d.tons, d.payBasis]).sort()).toEqual([
      ["10.000", "received"],
      ["11.000", "accepted"],
    ]);
  });
});

describe("a loading ticket from the yard, through the form without JavaScript", () => {
  const form = (location: string, extra: Record<string, string> = {}) => ({
    agentId: String(agentId),
    tons: "",
    location,
    truckNo: "ekY 44 zz",
    "loadingTicket.ticketNo": "F-77",
    "loadingTicket.grossKg": "32,480",
    "loadingTicket.tareKg": "12000",
    "loadingTicket.weighedAt": "",
    idempotencyKey: crypto.randomUUID(),
    returnTo: "/deliveries",
    ...extra,
  });

  it("records the delivery, its ticket and the photo posted as a file", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const photo = jpeg(40_000);
    const res = await postForm(cookie, form(location), photo);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/deliveries");
    const [delivery] = await deliveryAt(location);
    expect(delivery).toMatchObject({ tons: "20.480", truckNo: "EKY 44 ZZ" });
    expect((await ticketsOf(delivery.id))[0]).toMatchObject({ ticketNo: "F-77", netKg: 20480, hasPhoto: true });
    const stored = await ticketPhoto(delivery.id, "loading");
    expect(Buffer.from(stored!.bytes).equals(Buffer.from(photo))).toBe(true);
  });

  it("records a delivery with the ticket's boxes left empty as before, urlencoded or multipart", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const empty = { "loadingTicket.ticketNo": "", "loadingTicket.grossKg": "", "loadingTicket.tareKg": "" };
    expect((await postForm(cookie, form(location, { ...empty, tons: "7.25" }))).status).toBe(302);
    const plain = await call(
      newDelivery.action,
      makeRequest("/deliveries/new", { method: "POST", cookie, form: form(location, { ...empty, tons: "8" }) }),
    );
    expect(plain.status).toBe(302);
    expect((await deliveryAt(location)).map((d) => d.tons).sort()).toEqual(["7.250", "8.000"]);
  });

  it("shows a refusal under the ticket's box, keeps what was typed and writes nothing", async () => {
    const { cookie } = await loginAs("staff");
    const before = await counts();
    const res = await postForm(cookie, form(site(), { "loadingTicket.tareKg": "40000" }), jpeg());
    expect(res.status).toBe(400);
    const result = (res.body as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } })
      .result;
    expect(result.error["loadingTicket.grossKg"]).toEqual(["Gross must be more than tare"]);
    expect(result.initialValue).toMatchObject({ loadingTicket: { ticketNo: "F-77", tareKg: "40000" } });
    // The photo's bytes never come back in the page.
    expect(JSON.stringify(result.initialValue)).not.toContain("photo");
    const mismatch = await postForm(cookie, form(site(), { tons: "20" }));
    expect((mismatch.body as { result: { error: Record<string, string[]> } }).result.error.tons).toEqual([
      "Tons must match the loading ticket's net (20.480 t), or be left blank",
    ]);
    expect(await counts()).toEqual(before);
  });

  it("says a photo over 2 MB is too large, under Photo, keeping the other boxes", async () => {
    const { cookie } = await loginAs("staff");
    const before = await counts();
    const res = await postForm(cookie, form(site()), jpeg(2 * 1024 * 1024 + 10));
    expect(res.status).toBe(400);
    const result = (res.body as { result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } })
      .result;
    expect(result.error["loadingTicket.photo"]).toEqual(["The photo is larger than 2 MB"]);
    expect(result.initialValue).toMatchObject({ truckNo: "ekY 44 zz", loadingTicket: { ticketNo: "F-77" } });
    const notImage = await postForm(cookie, form(site()), new TextEncoder().encode("just some text"));
    expect(
      (notImage.body as { result: { error: Record<string, string[]> } }).result.error["loadingTicket.photo"],
    ).toEqual(["The photo must be a JPEG, PNG or WebP image"]);
    expect(await counts()).toEqual(before);
  });

  it("a resubmitted form with its photo lands once", async () => {
    const { cookie } = await loginAs("staff");
    const location = site();
    const fields = form(location);
    expect((await postForm(cookie, fields, jpeg(900))).status).toBe(302);
    expect((await postForm(cookie, fields, jpeg(900))).status).toBe(302);
    expect(await deliveryAt(location)).toHaveLength(1);
  });
});

// The office's side of weighbridge tickets (docs/decisions/1220), on PGlite and PostgreSQL: a
// manager records a delivery's received (client's) or loading ticket through Record Ticket (a
// multipart form with a photo) or its JSON twin; a second ticket of a kind replaces the first,
// audited; invoiced deliveries, closed months and a number another delivery has are refused
// with 409, each bad field with a 400 naming it, and nothing is written; the three weights and
// the tickets show in the delivery's JSON, the list (its page's tickets in one query) and the
// Deliveries page's rows; a ticket's photo is served only to those who may see the delivery;
// and an edit cannot contradict a ticket.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb, rowsOf, schema, type Client, type Delivery, type User } from "../../app/db.server";
import { listDeliveryRows } from "../../app/models/delivery.server";
import { updateDelivery } from "../../app/models/delivery-changes.server";
import { closeMonth } from "../../app/models/period.server";
import * as tickets from "../../app/models/ticket.server";
import * as recordDialog from "../../app/routes/_app.deliveries.$id.tickets.new";
import * as photoRoute from "../../app/routes/_app.deliveries.$id.tickets.$kind.photo";
import * as editDialog from "../../app/routes/_app.deliveries.$id.edit";
import * as apiList from "../../app/routes/api.deliveries";
import * as apiOne from "../../app/routes/api.deliveries.$id";
import * as apiTickets from "../../app/routes/api.deliveries.$id.tickets";
import { MAX_ATTACHMENT_BYTES } from "../../app/rules/images.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createQualityRule, loginAs } from "../factories";
import { call, makeRequest } from "../http";

// The list's ticket reads are counted: one query a page or a batch, never one a row.
vi.mock("../../app/models/ticket.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../app/models/ticket.server")>();
  return { ...original, ticketsOfDeliveries: vi.fn(original.ticketsOfDeliveries) };
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

describeAccess("Record Ticket, its JSON twin and the ticket photos", [
  {
    name: "record ticket dialog",
    handler: recordDialog.loader,
    method: "GET",
    path: "/deliveries/1/tickets/new",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "record ticket",
    handler: recordDialog.action,
    method: "POST",
    path: "/deliveries/1/tickets/new",
    params: { id: "1" },
    form: { kind: "received", ticketNo: "A-1", truckNo: "LAG 1", grossKg: "2000", tareKg: "1000" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "api tickets of a delivery",
    handler: apiTickets.loader,
    method: "GET",
    path: "/api/deliveries/1/tickets",
    params: { id: "1" },
    allowed: ["staff", "manager", "admin"],
  },
  {
    name: "api record ticket",
    handler: apiTickets.action,
    method: "POST",
    path: "/api/deliveries/1/tickets",
    params: { id: "1" },
    json: { kind: "received", ticketNo: "A-2", truckNo: "LAG 1", grossKg: 2000, tareKg: 1000 },
    allowed: ["manager", "admin"],
  },
  {
    name: "ticket photo",
    handler: photoRoute.loader,
    method: "GET",
    path: "/deliveries/1/tickets/received/photo",
    params: { id: "1", kind: "received" },
    allowed: ["staff", "manager", "admin"],
    page: true,
  },
]);

let manager: Awaited<ReturnType<typeof loginAs>>;
let admin: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;
let otherStaff: Awaited<ReturnType<typeof loginAs>>;
let agentId: number;
let client: Client;

beforeAll(async () => {
  manager = await loginAs("manager");
  admin = await loginAs("admin");
  staff = await loginAs("staff");
  otherStaff = await loginAs("staff");
  agentId = (await createAgent()).id;
  client = await createClient({ name: "Weighbridge Client" });
  await createQualityRule({
    clientId: client.id,
    validFrom: "2020-01-01",
    moistureThreshold: "16",
    deductionPerPoint: "1",
  });
});

let made = 0;
/** A delivery of 30 tons for the client, dated in March 2026, recorded by `by` (staff by default). */
const delivery = (values: Partial<Delivery> = {}, by: User = staff.user) =>
  createDelivery({ agentId, clientId: client.id, createdBy: by.id, date: "2026-03-02", tons: "30", ...values }).then(
    (d) => ({ ...d, no: ++made }),
  );

const ticket = (no: string, extra: Record<string, unknown> = {}) => ({
  kind: "received",
  ticketNo: no,
  truckNo: "lag 123 xy",
  grossKg: 45120,
  tareKg: 15000,
  moisture: "18.5",
  ...extra,
});

function postJson(id: number, body: unknown, cookie = manager.cookie, key?: string) {
  return call(
    apiTickets.action,
    makeRequest(`/api/deliveries/${id}/tickets`, {
      method: "POST",
      cookie,
      json: body,
      headers: key ? { "Idempotency-Key": key } : {},
    }),
    { id: String(id) },
  );
}

/** Record Ticket's form as a browser posts it: multipart, the photo a file (or none chosen). */
function postForm(
  id: number,
  fields: Record<string, string>,
  photo: Uint8Array | null = null,
  { cookie = manager.cookie, query = "" } = {},
) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append("photo", new Blob([new Uint8Array(photo ?? [])]), photo ? "ticket.png" : "");
  const request = new Request(`http://localhost/deliveries/${id}/tickets/new${query}`, {
    method: "POST",
    body,
    headers: { Cookie: cookie },
  });
  return call(recordDialog.action, request, { id: String(id) });
}

const formFields = (no: string, extra: Record<string, string> = {}) => ({
  kind: "received",
  ticketNo: no,
  truckNo: "LAG 456 KJ",
  grossKg: "42,000",
  tareKg: "12000",
  weighedAt: "2026-03-03T14:30",
  moisture: "",
  idempotencyKey: crypto.randomUUID(),
  ...extra,
});

async function ticketRows(deliveryId: number) {
  const db = await getDb();
  return db.select().from(schema.deliveryTickets).where(eq(schema.deliveryTickets.deliveryId, deliveryId));
}

async function counts() {
  const db = await getDb();
  const [row] = rowsOf<Record<string, number>>(
    await db.execute(sql`
      select (select count(*) from delivery_tickets)::int as tickets, (select count(*) from attachments)::int as photos,
             (select count(*) from audit_events)::int as audit, (select count(*) from trucks)::int as trucks,
             (select count(*) from idempotency_keys)::int as keys,
             (select string_agg(id || ':' || coalesce(received_tons::text, '-') || ':' || tons::text, ',' order by id)
                from deliveries) as weights`),
  );
  return row;
}

async function eventsOf(deliveryId: number, action: string) {
  const db = await getDb();
  return (await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, action))).filter(
    (e) => e.entityId === String(deliveryId),
  );
}

type View = Record<string, unknown> & {
  tickets: (Record<string, unknown> & { kind: string; photoUrl?: string })[];
};

describe("recording the client's ticket through the JSON call", () => {
  it("answers 201 with the three weights and the ticket; a resend under its key answers 200, recorded once", async () => {
    const d = await delivery();
    const key = crypto.randomUUID();
    const first = await postJson(d.id, ticket("r-100"), manager.cookie, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // 30,120 kg received, 2.5% of it (753 kg) deducted by the rule of the delivery's day.
    expect(first.body).toMatchObject({
      id: d.id,
      tons: "30.000",
      loadedTons: "30.000",
      receivedTons: "30.120",
      acceptedTons: "29.367",
      shortageTons: "-0.120",
      moisture: "18.50",
      qualityDeductionTons: "0.753",
      truckNo: "LAG 123 XY",
      tickets: [
        {
          kind: "received",
          ticketNo: "R-100",
          truckNo: "LAG 123 XY",
          grossKg: 45120,
          tareKg: 15000,
          netKg: 30120,
          weighedAt: null,
          moisture: "18.50",
          hasPhoto: false,
        },
      ],
    });
    expect((first.body as View).tickets[0].photoUrl).toBeUndefined();
    const again = await postJson(d.id, ticket("r-100"), manager.cookie, key);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ receivedTons: "30.120", tickets: [{ ticketNo: "R-100" }] });
    expect(await ticketRows(d.id)).toHaveLength(1);
    expect(await eventsOf(d.id, "delivery.ticket_record")).toHaveLength(1);
    // The same key with another ticket is refused, and changes nothing.
    const other = await postJson(d.id, ticket("r-101"), manager.cookie, key);
    expect(other.status).toBe(422);
    expect((await ticketRows(d.id))[0].ticketNo).toBe("R-100");
  });

  it("takes a photo as a data URL or bare base64, and a loading ticket without moisture", async () => {
    const d = await delivery();
    const dataUrl = `data:image/png;base64,${Buffer.from(PNG).toString("base64")}`;
    const received = await postJson(d.id, ticket("r-110", { photo: dataUrl }), admin.cookie);
    expect(received.status).toBe(201);
    expect((received.body as View).tickets[0]).toMatchObject({
      hasPhoto: true,
      photoUrl: `/deliveries/${d.id}/tickets/received/photo`,
    });
    const loading = await postJson(d.id, {
      kind: "loading",
      ticketNo: "L-110",
      truckNo: "LAG 123 XY",
      grossKg: "44,550",
      tareKg: "14000",
      weighedAt: "2026-03-02T07:15:00Z",
      photo: Buffer.from(JPEG).toString("base64"),
    });
    expect(loading.status).toBe(201);
    // The loading ticket's net is now the loaded tons; the shortage follows.
    expect(loading.body).toMatchObject({
      tons: "30.550",
      loadedTons: "30.550",
      receivedTons: "30.120",
      shortageTons: "0.430",
    });
    const view = loading.body as View;
    expect(view.tickets.map((t) => [t.kind, t.ticketNo, t.weighedAt, t.photoUrl])).toEqual([
      ["loading", "L-110", "2026-03-02T07:15:00.000Z", `/deliveries/${d.id}/tickets/loading/photo`],
      ["received", "R-110", null, `/deliveries/${d.id}/tickets/received/photo`],
    ]);
  });
});

describe("refusals: nothing is written", () => {
  it("refuses each bad field with a 400 naming it", async () => {
    const d = await delivery();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [ticket(""), "ticketNo", /Ticket number is required/],
      [ticket("r-1", { truckNo: "LAG_1" }), "truckNo", /Truck No\./],
      [ticket("r-1", { truckNo: "" }), "truckNo", /Truck No\./],
      [ticket("r-1", { grossKg: "12.5" }), "grossKg", /whole number of kilograms/],
      [ticket("r-1", { grossKg: 300000 }), "grossKg", /between 1 and 200,000 kg/],
      [ticket("r-1", { tareKg: -1 }), "tareKg", /Tare/],
      [ticket("r-1", { grossKg: 15000 }), "grossKg", /Gross must be more than tare/],
      [ticket("r-1", { weighedAt: "yesterday" }), "weighedAt", /Weighed at must be a date and time/],
      [ticket("r-1", { moisture: "101" }), "moisture", /Moisture must be between 0 and 100/],
      [ticket("r-1", { kind: "loading" }), "moisture", /goes on the client's \(received\) ticket/],
      [ticket("r-1", { kind: "outbound" }), "kind", /Kind must be/],
      [ticket("r-1", { photo: "not a photo!" }), "photo", /JPEG, PNG or WebP/],
      [ticket("r-1", { photo: 42 }), "photo", /JPEG, PNG or WebP/],
      [ticket("r-1", { photo: Buffer.from("GIF89a....").toString("base64") }), "photo", /JPEG, PNG or WebP/],
    ];
    const before = await counts();
    for (const [body, field, message] of cases) {
      const res = await postJson(d.id, body);
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(400);
      const errors = (res.body as { errors: Record<string, string[]> }).errors;
      expect(errors[field]?.[0], field).toMatch(message);
    }
    // A photo over 2 MB, as base64.
    const large = new Uint8Array(MAX_ATTACHMENT_BYTES + 1);
    large.set(PNG);
    const tooLarge = await postJson(d.id, ticket("r-1", { photo: Buffer.from(large).toString("base64") }));
    expect(tooLarge.status).toBe(400);
    expect((tooLarge.body as { errors: Record<string, string[]> }).errors.photo).toEqual([
      "The photo is larger than 2 MB",
    ]);
    expect(await counts()).toEqual(before);
  });

  it("refuses an invoiced delivery, a closed month and a number another delivery has, with 409", async () => {
    const invoiced = await delivery({}, manager.user);
    expect(await createInvoiceForDelivery(manager.user, { deliveryId: invoiced.id })).toMatchObject({ ok: true });
    const closed = await delivery({ date: "2025-06-10" });
    expect(await closeMonth(admin.user, { month: "2025-06" })).toMatchObject({ ok: true });
    const holder = await delivery();
    expect((await postJson(holder.id, ticket("R-200"))).status).toBe(201);
    const second = await delivery();

    const before = await counts();
    const onInvoiced = await postJson(invoiced.id, ticket("R-201"));
    expect(onInvoiced).toMatchObject({
      status: 409,
      body: { message: "This delivery is invoiced: its tickets can no longer change" },
    });
    const inClosed = await postJson(closed.id, ticket("R-202"));
    expect(inClosed.status).toBe(409);
    expect((inClosed.body as { message: string }).message).toMatch(/closed/i);
    // Typed another way, the same number of the same weighbridge: named with its delivery.
    const duplicate = await postJson(second.id, ticket(" r-200 "));
    expect(duplicate.status).toBe(409);
    expect((duplicate.body as { errors: Record<string, string[]> }).errors.ticketNo).toEqual([
      `Ticket R-200 is already recorded on delivery ${holder.id}`,
    ]);
    expect((await postJson(second.id + 10_000, ticket("R-203"))).status).toBe(404);
    // The form says the same, as the same status.
    const viaForm = await postForm(second.id, formFields("R-200"));
    expect(viaForm.status).toBe(409);
    expect(JSON.stringify(viaForm.body)).toContain(`Ticket R-200 is already recorded on delivery ${holder.id}`);
    expect(await counts()).toEqual(before);

    // The dialog says why before anything is typed.
    for (const [id, reason] of [
      [invoiced.id, /invoiced/],
      [closed.id, /closed/i],
    ] as const) {
      const page = await call(
        recordDialog.loader,
        makeRequest(`/deliveries/${id}/tickets/new`, { cookie: manager.cookie }),
        {
          id: String(id),
        },
      );
      expect((page.body as { blocked: string }).blocked).toMatch(reason);
    }
    const noClient = await delivery({ clientId: null });
    const page = await call(
      recordDialog.loader,
      makeRequest(`/deliveries/${noClient.id}/tickets/new`, { cookie: manager.cookie }),
      { id: String(noClient.id) },
    );
    expect((page.body as { blocked: string }).blocked).toMatch(/no client yet/);
    // A loading ticket needs no client.
    const loadingPage = await call(
      recordDialog.loader,
      makeRequest(`/deliveries/${noClient.id}/tickets/new?kind=loading`, { cookie: manager.cookie }),
      { id: String(noClient.id) },
    );
    expect(loadingPage.body).toMatchObject({ kind: "loading", blocked: null });
  });

  it("staff are refused with 403, whoever recorded the delivery", async () => {
    const own = await delivery();
    const before = await counts();
    expect((await postJson(own.id, ticket("R-300"), staff.cookie)).status).toBe(403);
    expect((await postForm(own.id, formFields("R-300"), null, { cookie: staff.cookie })).status).toBe(403);
    expect(await recordTicket(staff.user, own.id, ticket("R-300"), null)).toMatchObject({ ok: false, status: 403 });
    expect(await counts()).toEqual(before);
  });
});

describe("Record Ticket's form", () => {
  it("records the client's ticket with a photo and returns to the list it was opened from", async () => {
    const d = await delivery();
    const res = await postForm(d.id, formFields("k-500", { moisture: "17" }), PNG, {
      query: "?status=confirmed&kind=received",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(302);
    expect(res.headers.get("Location")).toBe("/deliveries?status=confirmed");
    const [row] = await ticketRows(d.id);
    expect(row).toMatchObject({ ticketNo: "K-500", grossKg: 42000, tareKg: 12000, netKg: 30000 });
    // Typed as Lagos time (UTC+1).
    expect(row.weighedAt?.toISOString()).toBe("2026-03-03T13:30:00.000Z");
    expect(row.photoId).not.toBeNull();
    const db = await getDb();
    const [after] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, d.id));
    // 1 point above 16%: 1% of 30,000 kg.
    expect(after).toMatchObject({ receivedTons: "30.000", qualityDeductionTons: "0.300", acceptedTons: "29.700" });

    // Opened from Edit Delivery, it goes back there.
    const loading = await postForm(d.id, formFields("L-500", { kind: "loading", moisture: "" }), null, {
      query: "?back=edit&kind=loading&cursor=2026-01-01_9",
    });
    expect(loading.status).toBe(302);
    expect(loading.headers.get("Location")).toBe(`/deliveries/${d.id}/edit?cursor=2026-01-01_9`);
  });

  it("says what is wrong under each field and keeps what was typed; a photo too large or not an image likewise", async () => {
    const d = await delivery();
    const before = await counts();
    const bad = await postForm(d.id, formFields("", { grossKg: "abc", moisture: "150" }));
    expect(bad.status).toBe(400);
    const result = (bad.body as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } })
      .result;
    expect(result.error.ticketNo).toEqual(["Ticket number is required"]);
    expect(result.error.grossKg[0]).toMatch(/whole number of kilograms/);
    expect(result.error.moisture[0]).toMatch(/between 0 and 100/);
    expect(result.initialValue.truckNo).toBe("LAG 456 KJ");

    const large = new Uint8Array(MAX_ATTACHMENT_BYTES + 1);
    large.set(PNG);
    const tooLarge = await postForm(d.id, formFields("K-600"), large);
    expect(tooLarge.status).toBe(400);
    const tooLargeResult = (tooLarge.body as { result: { error: Record<string, string[]>; initialValue: object } })
      .result;
    expect(tooLargeResult.error.photo).toEqual(["The photo is larger than 2 MB"]);
    expect(tooLargeResult.initialValue).toMatchObject({ ticketNo: "K-600", grossKg: "42,000" });

    const notImage = await postForm(d.id, formFields("K-601"), new TextEncoder().encode("<svg></svg>"));
    expect(notImage.status).toBe(400);
    expect((notImage.body as { result: { error: Record<string, string[]> } }).result.error.photo).toEqual([
      "The photo must be a JPEG, PNG or WebP image",
    ]);
    expect(await counts()).toEqual(before);
  });

  it("replaces a ticket of the same kind, audited before and after; the dialog says what it replaces", async () => {
    const d = await delivery();
    expect((await postForm(d.id, formFields("K-700"), PNG)).status).toBe(302);
    const dialog = await call(
      recordDialog.loader,
      makeRequest(`/deliveries/${d.id}/tickets/new`, { cookie: manager.cookie }),
      {
        id: String(d.id),
      },
    );
    expect(dialog.body).toMatchObject({
      kind: "received",
      blocked: null,
      replaces: { ticketNo: "K-700", netKg: 30000, weighedAt: "2026-03-03T14:30", photoUrl: expect.any(String) },
    });
    const [first] = await ticketRows(d.id);
    expect((await postForm(d.id, formFields("K-701", { grossKg: "43000" }))).status).toBe(302);
    const rows = await ticketRows(d.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, ticketNo: "K-701", netKg: 31000, photoId: null });
    const [replaced] = await eventsOf(d.id, "delivery.ticket_replace");
    expect(replaced.before).toMatchObject({ ticketNo: "K-700", netKg: 30000, photoId: first.photoId });
    expect(replaced.after).toMatchObject({ ticketNo: "K-701", netKg: 31000, photoId: null });
    // The replaced ticket's photo stays, for the trail.
    const db = await getDb();
    const [kept] = await db.select().from(schema.attachments).where(eq(schema.attachments.id, first.photoId!));
    expect(kept.contentType).toBe("image/png");
    const [weights] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, d.id));
    expect(weights.receivedTons).toBe("31.000");
  });
});

describe("the weights and tickets wherever a delivery is shown", () => {
  it("GET one delivery and the list carry them for every role, staff without money", async () => {
    const d = await delivery({ date: "2026-04-01" });
    await postJson(d.id, ticket("R-800", { photo: Buffer.from(PNG).toString("base64") }));
    const one = await call(apiOne.loader, makeRequest(`/api/deliveries/${d.id}`, { cookie: staff.cookie }), {
      id: String(d.id),
    });
    expect(one.body).toMatchObject({
      receivedTons: "30.120",
      acceptedTons: "29.367",
      shortageTons: "-0.120",
      tickets: [{ kind: "received", ticketNo: "R-800", photoUrl: `/deliveries/${d.id}/tickets/received/photo` }],
    });
    expect(one.body).not.toHaveProperty("sellingRate");
    const ticketsCall = await call(
      apiTickets.loader,
      makeRequest(`/api/deliveries/${d.id}/tickets`, { cookie: staff.cookie }),
      { id: String(d.id) },
    );
    expect(ticketsCall.body).toMatchObject([{ ticketNo: "R-800", hasPhoto: true }]);
    // Someone else's delivery is not there for a staff member.
    expect(
      (
        await call(apiTickets.loader, makeRequest(`/api/deliveries/${d.id}/tickets`, { cookie: otherStaff.cookie }), {
          id: String(d.id),
        })
      ).status,
    ).toBe(404);

    const reads = vi.mocked(tickets.ticketsOfDeliveries);
    reads.mockClear();
    const page = await call(
      apiList.loader,
      makeRequest("/api/deliveries?limit=20&from=2026-04-01", { cookie: admin.cookie }),
    );
    const listed = (page.body as View[]).find((v) => v.id === d.id)!;
    expect(listed).toMatchObject({ receivedTons: "30.120", tickets: [{ ticketNo: "R-800" }] });
    expect(reads).toHaveBeenCalledTimes(1);
    // The whole list, streamed in batches: one ticket query a batch.
    reads.mockClear();
    const all = await call(apiList.loader, makeRequest("/api/deliveries", { cookie: admin.cookie }));
    const everything = all.body as View[];
    expect(everything.find((v) => v.id === d.id)).toMatchObject({ tickets: [{ ticketNo: "R-800" }] });
    expect(everything.length).toBeLessThanOrEqual(1000);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads.mock.calls[0][0]).toHaveLength(everything.length);
  });

  it("the Deliveries page's rows read the weights from the delivery and the kinds of ticket in one query", async () => {
    const d = await delivery({ date: "2026-05-01" });
    await postJson(d.id, ticket("R-900"));
    await postJson(d.id, { ...ticket("L-900", { kind: "loading", moisture: null }), grossKg: 44550, tareKg: 14000 });
    const plain = await delivery({ date: "2026-05-01" });
    const reads = vi.mocked(tickets.ticketsOfDeliveries);
    reads.mockClear();
    const filters = { from: "2026-05-01", to: "2026-05-01", agentId: undefined };
    const { items } = await listDeliveryRows(staff.user, filters);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(items.find((r) => r.id === d.id)).toMatchObject({
      tons: "30.550",
      receivedTons: "30.120",
      acceptedTons: "29.367",
      shortageTons: "0.430",
      ticketKinds: ["loading", "received"],
    });
    expect(items.find((r) => r.id === plain.id)).toMatchObject({
      receivedTons: null,
      acceptedTons: null,
      shortageTons: null,
      ticketKinds: [],
    });
    expect(items[0]).not.toHaveProperty("profit");
  });

  it("Edit Delivery shows the weights, the tickets with their photos, and Record ticket", async () => {
    const d = await delivery();
    await postJson(
      d.id,
      ticket("R-950", { photo: Buffer.from(PNG).toString("base64"), weighedAt: "2026-03-03T08:00Z" }),
    );
    const page = await call(
      editDialog.loader,
      makeRequest(`/deliveries/${d.id}/edit?status=confirmed`, { cookie: manager.cookie }),
      { id: String(d.id) },
    );
    expect(page.body).toMatchObject({
      weights: {
        loadedTons: "30.000",
        receivedTons: "30.120",
        acceptedTons: "29.367",
        shortageTons: "-0.120",
        moisture: "18.50",
        qualityDeductionTons: "0.753",
        // Lagos time.
        tickets: [{ ticketNo: "R-950", weighedAt: "2026-03-03T09:00", photoUrl: expect.stringMatching(/photo$/) }],
      },
      recordTicketTo: `/deliveries/${d.id}/tickets/new?status=confirmed&back=edit`,
    });
  });
});

describe("a ticket's photo", () => {
  it("is served with its type, privately and not sniffed, only to those who may see the delivery", async () => {
    const d = await delivery();
    await postJson(d.id, ticket("R-1000", { photo: Buffer.from(PNG).toString("base64") }));
    const get = (cookie: string, kind = "received", id = d.id) =>
      call(photoRoute.loader, makeRequest(`/deliveries/${id}/tickets/${kind}/photo`, { cookie }), {
        id: String(id),
        kind,
      });
    for (const who of [staff, manager, admin]) {
      const res = await get(who.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/png");
      expect(res.headers.get("Cache-Control")).toMatch(/^private\b/);
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    }
    const raw = await photoRoute.loader({
      request: makeRequest(`/deliveries/${d.id}/tickets/received/photo`, { cookie: staff.cookie }),
      params: { id: String(d.id), kind: "received" },
      context: {},
    });
    expect(new Uint8Array(await raw.arrayBuffer())).toEqual(PNG);
    // Another staff member's delivery, a kind without a photo, a kind that is not one, no delivery.
    expect((await get(otherStaff.cookie)).status).toBe(404);
    expect((await get(manager.cookie, "loading")).status).toBe(404);
    expect((await get(manager.cookie, "outbound")).status).toBe(404);
    expect((await get(manager.cookie, "received", d.id + 10_000)).status).toBe(404);
  });
});

describe("editing a delivery that has tickets", () => {
  it("refuses an admin's new tons over a loading ticket, and a new client over a received one, with why", async () => {
    const d = await delivery({}, manager.user);
    await postJson(d.id, { ...ticket("L-1100", { kind: "loading", moisture: null }), grossKg: 44550, tareKg: 14000 });
    const tons = await updateDelivery(admin.user, d.id, { tons: "31.00" });
    expect(tons).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: { tons: ["This delivery's tons come from its loading ticket: record a new ticket instead"] },
    });
    // The same tons sent back unchanged are not a change.
    expect(await updateDelivery(admin.user, d.id, { tons: "30.55", location: "Moved yard" })).toMatchObject({
      ok: true,
      delivery: { tons: "30.550", location: "Moved yard" },
    });

    await postJson(d.id, ticket("R-1100"));
    const other = await createClient({ name: "Other Client" });
    const patch = await call(
      apiOne.action,
      makeRequest(`/api/deliveries/${d.id}`, { method: "PATCH", cookie: manager.cookie, json: { clientId: other.id } }),
      { id: String(d.id) },
    );
    expect(patch.status).toBe(409);
    expect((patch.body as { errors: Record<string, string[]> }).errors.clientId[0]).toMatch(
      /has its client's ticket.*its client can no longer change/,
    );
    expect(await updateDelivery(manager.user, d.id, { clientId: null })).toMatchObject({ ok: false, status: 409 });

    // The ticket's weights are not the PATCH's to change; sent back as read, they are no change.
    const view = (
      await call(apiOne.loader, makeRequest(`/api/deliveries/${d.id}`, { cookie: manager.cookie }), {
        id: String(d.id),
      })
    ).body as Record<string, unknown>;
    for (const [field, value] of [
      ["receivedTons", "40.000"],
      ["acceptedTons", "1"],
      ["shortageTons", "0"],
      ["moisture", "12"],
      ["qualityDeductionTons", "0"],
    ] as const) {
      const refused = await call(
        apiOne.action,
        makeRequest(`/api/deliveries/${d.id}`, { method: "PATCH", cookie: manager.cookie, json: { [field]: value } }),
        { id: String(d.id) },
      );
      expect(refused.status, field).toBe(400);
      expect((refused.body as { errors: Record<string, string[]> }).errors[field][0], field).toMatch(
        /record a ticket instead/,
      );
    }
    const roundTrip = await call(
      apiOne.action,
      makeRequest(`/api/deliveries/${d.id}`, {
        method: "PATCH",
        cookie: admin.cookie,
        json: { ...view, logisticsCost: "5000" },
      }),
      { id: String(d.id) },
    );
    expect(roundTrip.status, JSON.stringify(roundTrip.body)).toBe(200);
    expect(roundTrip.body).toMatchObject({ receivedTons: "30.120", logisticsCost: "5000.00", clientId: client.id });
  });
});

// The office's side of weighbridge tickets (docs/decisions/1220), on PGlite and PostgreSQL: a
// manager records a delivery's received (client's) or loading ticket through Record Ticket (a
// multipart form with a photo) or its JSON twin; a second ticket of a kind replaces the first,
// audited; invoiced deliveries, closed months and a number another delivery has are refused
// with 409, each bad field with a 400 naming it, and nothing is written. Where the weights and
// tickets show, and edits of a delivery with tickets: office-tickets-views.test.ts.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema } from "../../app/db.server";
import { closeMonth } from "../../app/models/period.server";
import * as recordDialog from "../../app/routes/_app.deliveries.$id.tickets.new";
import * as photoRoute from "../../app/routes/_app.deliveries.$id.tickets.$kind.photo";
import * as apiTickets from "../../app/routes/api.deliveries.$id.tickets";
import { MAX_ATTACHMENT_BYTES } from "../../app/rules/images.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { describeAccess } from "../access";
import { call, makeRequest } from "../http";
import { eventsOf, JPEG, PNG, ticket, ticketRows, ticketWorld, type TicketWorld, type View } from "../tickets";

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

let manager: TicketWorld["manager"];
let admin: TicketWorld["admin"];
let staff: TicketWorld["staff"];
let delivery: TicketWorld["delivery"];
let postJson: TicketWorld["postJson"];

beforeAll(async () => {
  ({ manager, admin, staff, delivery, postJson } = await ticketWorld());
});

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

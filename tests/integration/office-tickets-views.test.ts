// Where a delivery's three weights and tickets show, and what editing a delivery with tickets
// may change (docs/decisions/1220), on PGlite and PostgreSQL: the delivery's JSON, the list (its
// page's tickets in one query, a streamed list's one a batch), the Deliveries page's rows and
// Edit Delivery carry them for every role; a ticket's photo is served only to those who may see
// the delivery; and an edit cannot contradict a ticket.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listDeliveryRows } from "../../app/models/delivery.server";
import { updateDelivery } from "../../app/models/delivery-changes.server";
import * as tickets from "../../app/models/ticket.server";
import * as photoRoute from "../../app/routes/_app.deliveries.$id.tickets.$kind.photo";
import * as editDialog from "../../app/routes/_app.deliveries.$id.edit";
import * as apiList from "../../app/routes/api.deliveries";
import * as apiOne from "../../app/routes/api.deliveries.$id";
import * as apiTickets from "../../app/routes/api.deliveries.$id.tickets";
import { createClient } from "../factories";
import { call, makeRequest } from "../http";
import { PNG, ticket, ticketWorld, type TicketWorld, type View } from "../tickets";

let manager: TicketWorld["manager"];
let admin: TicketWorld["admin"];
let staff: TicketWorld["staff"];
let otherStaff: TicketWorld["otherStaff"];
let client: TicketWorld["client"];
let delivery: TicketWorld["delivery"];
let postJson: TicketWorld["postJson"];

// The list's ticket reads are counted: one query a page or a batch, never one a row. The files
// of a worker share their modules (decision 0840): the spy goes when this file is done.
const reads = vi.spyOn(tickets, "ticketsOfDeliveries");
afterAll(() => reads.mockRestore());

beforeAll(async () => {
  ({ manager, admin, staff, otherStaff, client, delivery, postJson } = await ticketWorld());
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

  it("the Deliveries page's rows read the weights from the delivery and the kinds of ticket in the same query", async () => {
    const d = await delivery({ date: "2026-05-01" });
    await postJson(d.id, ticket("R-900"));
    await postJson(d.id, { ...ticket("L-900", { kind: "loading", moisture: null }), grossKg: 44550, tareKg: 14000 });
    const plain = await delivery({ date: "2026-05-01" });
    reads.mockClear();
    const filters = { from: "2026-05-01", to: "2026-05-01", agentId: undefined };
    const { items } = await listDeliveryRows(staff.user, filters);
    expect(reads).not.toHaveBeenCalled();
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

// Ids and cursors too big or malformed for the database are refused before any query: a 400
// on /api, an ignored filter (first page) on a page; never a 500.
import { beforeAll, describe, expect, it } from "vitest";
import * as deliveriesPage from "../../app/routes/_app.deliveries";
import * as invoicesPage from "../../app/routes/_app.invoices";
import * as newInvoice from "../../app/routes/_app.invoices.new";
import * as deliveriesApi from "../../app/routes/api.deliveries";
import * as invoicesApi from "../../app/routes/api.invoices";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let cookie: string;
let agentId: number;

beforeAll(async () => {
  const manager = await loginAs("admin");
  cookie = manager.cookie;
  agentId = (await createAgent({ name: "Paging Agent" })).id;
  const clientId = (await createClient()).id;
  for (let day = 1; day <= 7; day++) {
    await createDelivery({
      agentId,
      clientId,
      createdBy: manager.user.id,
      date: `2030-05-0${day}`,
      location: `Day ${day}`,
    });
  }
});

describe("big or malformed ids and cursors", () => {
  it("answers 400 on the JSON calls", async () => {
    for (const path of [
      "/api/invoices?clientId=99999999999",
      "/api/invoices?clientId=abc",
      "/api/deliveries?cursor=2025-02-30_1",
      "/api/deliveries?before=x_1",
    ]) {
      const res = await call(
        path.startsWith("/api/invoices") ? invoicesApi.loader : deliveriesApi.loader,
        makeRequest(path, { cookie }),
      );
      expect(res.status, path).toBe(400);
      expect(res.body, path).toHaveProperty("message");
    }
  });

  it("ignores them on pages", async () => {
    expect((await call(invoicesPage.loader, makeRequest("/invoices?clientId=99999999999", { cookie }))).status).toBe(
      200,
    );
    expect(
      (await call(newInvoice.loader, makeRequest("/invoices/new?deliveryId=99999999999", { cookie }))).status,
    ).toBe(200);
    const page = await call(
      deliveriesPage.loader,
      makeRequest(`/deliveries?agentId=${agentId}&cursor=2025-02-30_1`, { cookie }),
    );
    expect(page.status).toBe(200);
    expect((page.body as { deliveries: unknown[] }).deliveries).toHaveLength(7);
  });
});

describe("deliveries pages go older and newer", () => {
  it("walks back and forth with the filter kept", async () => {
    const { listDeliveries } = await import("../../app/models/delivery.server");
    const { parseCursor } = await import("../../app/utils/params");
    const viewer = { id: "00000000-0000-0000-0000-000000000000", role: "admin" as const };
    const filters = { from: undefined, to: undefined, agentId };
    const locations = (page: { deliveries: { location: string }[] }) => page.deliveries.map((d) => d.location);

    const first = await listDeliveries(viewer, filters, { limit: 3 });
    expect(locations(first)).toEqual(["Day 7", "Day 6", "Day 5"]);
    expect(first.newerCursor).toBeNull();
    const second = await listDeliveries(viewer, filters, {
      limit: 3,
      page: { cursor: parseCursor(first.olderCursor, "date"), direction: "older" },
    });
    expect(locations(second)).toEqual(["Day 4", "Day 3", "Day 2"]);
    const third = await listDeliveries(viewer, filters, {
      limit: 3,
      page: { cursor: parseCursor(second.olderCursor, "date"), direction: "older" },
    });
    expect(locations(third)).toEqual(["Day 1"]);
    expect(third.olderCursor).toBeNull();
    const back = await listDeliveries(viewer, filters, {
      limit: 3,
      page: { cursor: parseCursor(third.newerCursor, "date"), direction: "newer" },
    });
    expect(locations(back)).toEqual(["Day 4", "Day 3", "Day 2"]);
    const top = await listDeliveries(viewer, filters, {
      limit: 3,
      page: { cursor: parseCursor(back.newerCursor, "date"), direction: "newer" },
    });
    expect(locations(top)).toEqual(["Day 7", "Day 6", "Day 5"]);
    expect(top.newerCursor).toBeNull();
  });
});

// The routes of the audit trail and month close (decisions 0900, 0901): GET /api/audit with the page's
// filters for admins only, POST /api/periods/close and /reopen, the System Settings form, a
// back-dated payment refused over HTTP, and the request id and client address an event keeps
// when it is written under the route wrapper.
import { desc } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as payPage from "../../app/routes/_app.invoices.$id.pay";
import * as periodsPage from "../../app/routes/_app.settings.periods";
import * as apiAudit from "../../app/routes/api.audit";
import * as apiPeriodsClose from "../../app/routes/api.periods.close";
import * as apiPeriodsReopen from "../../app/routes/api.periods.reopen";
import * as apiPayments from "../../app/routes/api.payments";
import * as apiSettings from "../../app/routes/api.settings";
import * as auditPage from "../../app/routes/_app.audit";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { guardHandler } from "../../app/utils/unavailable.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let admin: Awaited<ReturnType<typeof loginAs>>;
let manager: Awaited<ReturnType<typeof loginAs>>;
let staff: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  admin = await loginAs("admin");
  manager = await loginAs("manager");
  staff = await loginAs("staff");
});

async function lastEvent() {
  const db = await getDb();
  return (await db.select().from(schema.auditEvents).orderBy(desc(schema.auditEvents.id)).limit(1))[0];
}

describe("request context", () => {
  it("an event written under the route wrapper keeps the request id and client address", async () => {
    const handler = guardHandler(apiSettings.action as never, "action") as never;
    const res = await call(
      handler,
      makeRequest("/api/settings", { method: "PATCH", cookie: admin.cookie, json: { sellingRate: "64000.75" } }),
      {},
      { requestId: "req-audit-1", clientAddress: "203.0.113.44" },
    );
    expect(res.status).toBe(200);
    expect(await lastEvent()).toMatchObject({
      action: "settings.update",
      actorId: admin.user.id,
      requestId: "req-audit-1",
      clientAddress: "203.0.113.44",
      after: { sellingRate: "64000.75" },
    });
  });
});

describe("GET /api/audit and /audit", () => {
  it("admins read filtered keyset pages; managers and staff are refused; bad filters are 400", async () => {
    for (const rate of ["1.00", "2.00", "3.00"]) {
      const r = await call(
        apiSettings.action,
        makeRequest("/api/settings", { method: "PATCH", cookie: admin.cookie, json: { buyingRate: rate } }),
      );
      expect(r.status).toBe(200);
    }
    const first = await call(
      apiAudit.loader,
      makeRequest(`/api/audit?entity=settings&action=settings.update&actor=${admin.user.email}&limit=2`, {
        cookie: admin.cookie,
      }),
    );
    expect(first.status).toBe(200);
    const events = first.body as { after: { buyingRate: string }; changes: { field: string }[] }[];
    expect(events.map((e) => e.after.buyingRate)).toEqual(["3.00", "2.00"]);
    expect(events[0].changes).toContainEqual({ field: "buyingRate", before: "2.00", after: "3.00" });
    const cursor = first.headers.get("X-Next-Cursor");
    expect(cursor).toMatch(/^\d+$/);
    const second = await call(
      apiAudit.loader,
      makeRequest(`/api/audit?entity=settings&actor=${admin.user.email}&limit=2&cursor=${cursor}`, {
        cookie: admin.cookie,
      }),
    );
    expect((second.body as { after: { buyingRate: string } }[])[0].after.buyingRate).toBe("1.00");

    for (const who of [manager, staff]) {
      expect((await call(apiAudit.loader, makeRequest("/api/audit", { cookie: who.cookie }))).status).toBe(403);
      expect((await call(auditPage.loader, makeRequest("/audit", { cookie: who.cookie }))).status).toBe(403);
    }
    for (const query of ["entity=rocket", "action=x.y", "from=2026-13-01", "cursor=abc", "limit=0"]) {
      const bad = await call(apiAudit.loader, makeRequest(`/api/audit?${query}`, { cookie: admin.cookie }));
      expect(bad.status, query).toBe(400);
    }
    const page = await call(auditPage.loader, makeRequest("/audit?entity=rocket", { cookie: admin.cookie }));
    expect(page.status).toBe(200);
  });
});

describe("month close over HTTP", () => {
  it("POST /api/periods/close and /reopen: admins only, a real ended month, a reason to reopen", async () => {
    const post = (route: typeof apiPeriodsClose, path: string, cookie: string, json: unknown) =>
      call(route.action, makeRequest(path, { method: "POST", cookie, json }));
    expect((await post(apiPeriodsClose, "/api/periods/close", manager.cookie, { month: "2024-01" })).status).toBe(403);
    const bad = await post(apiPeriodsClose, "/api/periods/close", admin.cookie, { month: "2024-1" });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { month: [expect.stringContaining("yyyy-MM")] } });
    const ok = await post(apiPeriodsClose, "/api/periods/close", admin.cookie, { month: "2024-01" });
    expect(ok).toMatchObject({ status: 200, body: { closedThrough: "2024-01-31", changed: true } });
    const noReason = await post(apiPeriodsReopen, "/api/periods/reopen", admin.cookie, { month: "2024-01" });
    expect(noReason).toMatchObject({
      status: 400,
      body: { errors: { reason: ["A reason is required to reopen a month"] } },
    });
  });

  it("the System Settings form says what is wrong and changes nothing; a good close redirects", async () => {
    const form = (fields: Record<string, string>) =>
      call(
        periodsPage.action,
        makeRequest("/settings/periods", { method: "POST", cookie: admin.cookie, form: fields }),
      );
    const noReason = await form({ intent: "reopen", month: "2024-01", reason: "" });
    expect(noReason.status).toBe(400);
    expect(JSON.stringify(noReason.body)).toContain("A reason is required to reopen a month");
    const notEnded = await form({ intent: "close", month: "2999-01" });
    expect(notEnded.status).toBe(400);
    expect(JSON.stringify(notEnded.body)).toContain("has not ended yet");
    const closed = await form({ intent: "close", month: "2024-02" });
    expect(closed.status).toBe(302);
    const staffPost = await call(
      periodsPage.action,
      makeRequest("/settings/periods", {
        method: "POST",
        cookie: staff.cookie,
        form: { intent: "close", month: "2024-03" },
      }),
    );
    expect(staffPost.status).toBe(403);
  });

  it("a payment dated in a closed month answers 409 on /api and a clear message on the page", async () => {
    const agent = await createAgent();
    const client = await createClient();
    const d = await createDelivery({
      agentId: agent.id,
      clientId: client.id,
      createdBy: manager.user.id,
      date: "2024-03-05",
    });
    const made = await createInvoiceForDelivery(manager.user, { deliveryId: d.id });
    if (!made.ok) throw new Error(made.message);
    const api = await call(
      apiPayments.action,
      makeRequest("/api/payments", {
        method: "POST",
        cookie: manager.cookie,
        json: { invoiceId: made.invoice.id, amount: "10", paymentDate: "2024-02-10" },
      }),
    );
    expect(api.status).toBe(409);
    expect((api.body as { message: string }).message).toMatch(/^This month is closed/);
    const page = await call(
      payPage.action,
      makeRequest(`/invoices/${made.invoice.id}/pay`, {
        method: "POST",
        cookie: manager.cookie,
        form: { amount: "10", paymentDate: "2024-01-20" },
      }),
      { id: String(made.invoice.id) },
    );
    expect(page.status).toBe(409);
    expect(JSON.stringify(page.body)).toContain("Failed to record payment: This month is closed");
  });
});

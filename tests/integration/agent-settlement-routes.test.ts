// The agent settlement routes (docs/decisions/0980) as Remix calls them, on
// both drivers: admins only for every page, export and JSON call; the payout form and its JSON
// twin record once under one key; bad input is a 400 that writes nothing; a bad period is a
// 400 on the statement page, its CSV and its PDF.
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/db.server";
import * as payoutsApi from "../../app/routes/api.agents.$id.payouts";
import * as statementApi from "../../app/routes/api.agents.$id.statement";
import * as owedPage from "../../app/routes/_app.agents_.owed";
import * as owedExport from "../../app/routes/_app.agents_.owed_.export";
import * as statementPage from "../../app/routes/_app.agents_.$id.statement";
import * as payoutDialog from "../../app/routes/_app.agents_.$id.statement.payout";
import * as reverseDialog from "../../app/routes/_app.agents_.$id.statement.reverse.$payoutId";
import * as reversalApi from "../../app/routes/api.agents.$id.payouts.$payoutId.reversal";
import * as statementExport from "../../app/routes/_app.agents_.$id.statement_.export";
import { describeAccess } from "../access";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let agentId: number;
let hostileId: number;

beforeAll(async () => {
  const admin = await createUser({ role: "admin" });
  agentId = (await createAgent({ name: "Route Agent" })).id;
  hostileId = (await createAgent({ name: '=HYPERLINK("http://x.test","Agent")' })).id;
  // Net payable: 10 x 50,000 - 0 = 500,000.00 each.
  for (const id of [agentId, hostileId]) {
    await createDelivery({
      agentId: id,
      createdBy: admin.id,
      date: "2026-03-05",
      tons: "10.00",
      buyingRate: "50000.00",
      offloadingCost: "0",
    });
  }
});

const id = () => String(agentId);

describeAccess("agent settlements", [
  {
    name: "agent balances page",
    handler: owedPage.loader,
    method: "GET",
    path: "/agents/owed",
    allowed: ["admin"],
    page: true,
  },
  {
    name: "agent balances export",
    handler: owedExport.loader,
    method: "GET",
    path: "/agents/owed/export",
    allowed: ["admin"],
    page: true,
  },
  {
    name: "agent statement",
    handler: statementPage.loader,
    method: "GET",
    path: "/agents/1/statement",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "agent statement export",
    handler: statementExport.loader,
    method: "GET",
    path: "/agents/1/statement/export",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "record payout dialog",
    handler: payoutDialog.loader,
    method: "GET",
    path: "/agents/1/statement/payout",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "record payout",
    handler: payoutDialog.action,
    method: "POST",
    path: "/agents/1/statement/payout",
    params: { id: "1" },
    form: { amount: "", method: "cash" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse payout dialog",
    handler: reverseDialog.loader,
    method: "GET",
    path: "/agents/1/statement/reverse/1",
    params: { id: "1", payoutId: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse payout",
    handler: reverseDialog.action,
    method: "POST",
    path: "/agents/1/statement/reverse/1",
    params: { id: "1", payoutId: "1" },
    form: { reason: "" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse payout (JSON)",
    handler: reversalApi.action,
    method: "POST",
    path: "/api/agents/1/payouts/1/reversal",
    params: { id: "1", payoutId: "1" },
    json: { reason: "" },
    allowed: ["admin"],
  },
  {
    name: "agent statement (JSON)",
    handler: statementApi.loader,
    method: "GET",
    path: "/api/agents/1/statement",
    params: { id: "1" },
    allowed: ["admin"],
  },
  {
    name: "list payouts",
    handler: payoutsApi.loader,
    method: "GET",
    path: "/api/agents/1/payouts",
    params: { id: "1" },
    allowed: ["admin"],
  },
  {
    name: "record payout (JSON)",
    handler: payoutsApi.action,
    method: "POST",
    path: "/api/agents/1/payouts",
    params: { id: "1" },
    json: { amount: "" },
    allowed: ["admin"],
  },
]);

async function payoutCount() {
  const db = await getDb();
  const result = await db.execute(sql`select count(*)::int as n from agent_payouts`);
  return (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows)[0].n as number;
}

describe("recording a payout", () => {
  it("through the form: redirects to the statement with a toast, once per key", async () => {
    const { cookie } = await loginAs("admin");
    const before = await payoutCount();
    const form = { amount: "100,000.00", method: "cash", payoutDate: "2026-03-10", idempotencyKey: "form-key-1" };
    const path = `/agents/${id()}/statement/payout?from=2026-03-01&to=2026-03-31`;
    const first = await call(payoutDialog.action, makeRequest(path, { method: "POST", cookie, form }), { id: id() });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`/agents/${id()}/statement?from=2026-03-01&to=2026-03-31`);
    const again = await call(payoutDialog.action, makeRequest(path, { method: "POST", cookie, form }), { id: id() });
    expect(again.status).toBe(302);
    expect(await payoutCount()).toBe(before + 1);
  });

  it("through the form: bad input is a 400 with the message under its field, nothing written", async () => {
    const { cookie } = await loginAs("admin");
    const before = await payoutCount();
    const path = `/agents/${id()}/statement/payout`;
    for (const [form, field] of [
      [{ amount: "0", method: "cash" }, "amount"],
      [{ amount: "12.345", method: "cash" }, "amount"],
      [{ amount: "5", method: "barter" }, "method"],
      [{ amount: "999999999.00", method: "cash" }, "amount"],
    ] as const) {
      const result = await call(payoutDialog.action, makeRequest(path, { method: "POST", cookie, form }), {
        id: id(),
      });
      expect(result.status, JSON.stringify(form)).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(result.body), JSON.stringify(form)).toContain(`"${field}"`);
    }
    expect(await payoutCount()).toBe(before);
  });

  it("through JSON: 201, then 200 with the same payout for the same Idempotency-Key; 400 for bad input", async () => {
    const { cookie } = await loginAs("admin");
    const path = `/api/agents/${id()}/payouts`;
    const body = { amount: 1500.5, method: "bank_transfer", payoutDate: "2026-03-11", reference: "TRF-9" };
    const headers = { "Idempotency-Key": "json-key-1", Origin: "http://localhost" };
    const first = await call(payoutsApi.action, makeRequest(path, { method: "POST", cookie, json: body, headers }), {
      id: id(),
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ amount: "1500.50", method: "bank_transfer", owed: "398499.50" });
    const again = await call(payoutsApi.action, makeRequest(path, { method: "POST", cookie, json: body, headers }), {
      id: id(),
    });
    expect(again.status).toBe(200);
    expect((again.body as { id: number }).id).toBe((first.body as { id: number }).id);
    const before = await payoutCount();
    const bad = await call(
      payoutsApi.action,
      makeRequest(path, { method: "POST", cookie, json: { amount: -1, method: "cash" } }),
      { id: id() },
    );
    expect(bad.status).toBe(400);
    const unknown = await call(
      payoutsApi.action,
      makeRequest("/api/agents/999999/payouts", { method: "POST", cookie, json: { amount: 1, method: "cash" } }),
      { id: "999999" },
    );
    expect(unknown.status).toBe(404);
    expect(await payoutCount()).toBe(before);
  });

  it("lists payouts in pages with the next cursor in a header", async () => {
    const { cookie } = await loginAs("admin");
    const result = await call(payoutsApi.loader, makeRequest(`/api/agents/${id()}/payouts?limit=1`, { cookie }), {
      id: id(),
    });
    expect(result.status).toBe(200);
    expect(result.body).toHaveLength(1);
    expect(result.headers.get("X-Next-Cursor")).toMatch(/^\d{4}-\d{2}-\d{2}_\d+$/);
    expect(result.headers.get("Link")).toContain('rel="next"');
  });
});

describe("statements and balances", () => {
  it("a bad period is a 400 on the page (with the agent's name) and on the CSV", async () => {
    const { cookie } = await loginAs("admin");
    const query = "?from=2026-04-01&to=2026-03-01";
    const page = await call(statementPage.loader, makeRequest(`/agents/${id()}/statement${query}`, { cookie }), {
      id: id(),
    });
    expect(page.status).toBe(400);
    expect(page.body).toMatchObject({ agent: { name: "Route Agent" }, error: "The start date is after the end date" });
    const csv = await call(
      statementExport.loader,
      makeRequest(`/agents/${id()}/statement/export${query}`, { cookie }),
      {
        id: id(),
      },
    );
    expect(csv.status).toBe(400);
    const json = await call(statementApi.loader, makeRequest(`/api/agents/${id()}/statement${query}`, { cookie }), {
      id: id(),
    });
    expect(json).toMatchObject({ status: 400, body: { message: "The start date is after the end date" } });
    const march = await call(
      statementApi.loader,
      makeRequest(`/api/agents/${id()}/statement?from=2026-03-01&to=2026-03-31`, { cookie }),
      { id: id() },
    );
    expect(march.body).toMatchObject({ openingOwed: "0.00", totals: { earned: "500000.00" } });
    const missing = await call(statementPage.loader, makeRequest(`/agents/999999/statement`, { cookie }), {
      id: "999999",
    });
    expect(missing.status).toBe(404);
  });

  it("the balances export guards a hostile agent name and keeps amounts plain", async () => {
    const { cookie } = await loginAs("admin");
    const result = await call(owedExport.loader, makeRequest("/agents/owed/export", { cookie }));
    expect(result.status).toBe(200);
    const rows = parse(String(result.body).replace(/^\uFEFF/, ""), { columns: true }) as Record<string, string>[];
    const hostile = rows.find((r) => r["Agent ID"] === String(hostileId));
    expect(hostile?.Agent).toBe(`'=HYPERLINK("http://x.test","Agent")`);
    expect(hostile?.Owed).toBe("500000.00");
  });
});

// The receipts' JSON calls (docs/decisions/1240): POST /api/receipts with and without allocations,
// its Idempotency-Key, its refusals naming the field, the list's pages and filters, one receipt,
// its reversal; the client's whtRate and withholdsVat; invoices' amountWithheld; who may call.
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import * as clientApi from "../../app/routes/api.clients.$id";
import * as clientsApi from "../../app/routes/api.clients";
import * as invoiceApi from "../../app/routes/api.invoices.$id";
import * as receiptsApi from "../../app/routes/api.receipts";
import * as receiptApi from "../../app/routes/api.receipts.$id";
import * as reversalApi from "../../app/routes/api.receipts.$id.reversal";
import { describeAccess } from "../access";
import { createAgent, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { invoiceOfTenThousand } from "../money-entries";

let manager: { user: User; cookie: string };
let admin: { user: User; cookie: string };
let agentId: number;

beforeAll(async () => {
  manager = await loginAs("manager");
  admin = await loginAs("admin");
  agentId = (await createAgent()).id;
});

const post = (
  handler: Parameters<typeof call>[0],
  path: string,
  json: unknown,
  cookie: string,
  headers = {},
  params = {},
) => call(handler, makeRequest(path, { method: "POST", cookie, json, headers }), params);
const get = (handler: Parameters<typeof call>[0], path: string, cookie: string, params = {}) =>
  call(handler, makeRequest(path, { method: "GET", cookie }), params);

describe("POST /api/receipts", () => {
  it("a client made with whtRate and withholdsVat, a receipt over its invoices, allocations with cash, wht and vatWithheld", async () => {
    const made = await post(
      clientsApi.action,
      "/api/clients",
      { name: `WHT client ${Date.now()}`, taxRate: "7.50", whtRate: "5.00", withholdsVat: false },
      manager.cookie,
    );
    expect(made.status).toBe(201);
    const client = made.body as { id: number; whtRate: string; withholdsVat: boolean };
    expect(client).toMatchObject({ whtRate: "5.00", withholdsVat: false });
    // An edit that leaves them out keeps them.
    const edited = await call(
      clientApi.action,
      makeRequest(`/api/clients/${client.id}`, {
        method: "PATCH",
        cookie: manager.cookie,
        json: { name: `Renamed ${Date.now()}`, taxRate: "7.50" },
      }),
      { id: String(client.id) },
    );
    expect(edited.body).toMatchObject({ whtRate: "5.00" });
    const bad = await post(
      clientsApi.action,
      "/api/clients",
      { name: `Bad ${Date.now()}`, whtRate: "100" },
      manager.cookie,
    );
    expect(bad).toMatchObject({ status: 400, body: { errors: { whtRate: [expect.any(String)] } } });

    const a = await invoiceOfTenThousand(manager.user, agentId, client.id);
    const b = await invoiceOfTenThousand(manager.user, agentId, client.id);
    const key = { "Idempotency-Key": `api-receipt-${Date.now()}` };
    const body = {
      clientId: client.id,
      amount: "9534.88",
      reference: "NIP/123",
      allocations: [{ invoiceId: b.invoice.id, amount: "10000.00" }],
    };
    const first = await post(receiptsApi.action, "/api/receipts", body, manager.cookie, key);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      clientId: client.id,
      amount: "9534.88",
      settled: "10000.00",
      withheld: "465.12",
      reversed: false,
      allocations: [
        { invoiceId: b.invoice.id, amount: "10000.00", cash: "9534.88", wht: "465.12", vatWithheld: "0.00" },
      ],
    });
    const again = await post(receiptsApi.action, "/api/receipts", body, manager.cookie, key);
    expect(again.status).toBe(200);
    expect((again.body as { id: number }).id).toBe((first.body as { id: number }).id);
    const invoice = await get(invoiceApi.loader, `/api/invoices/${b.invoice.id}`, manager.cookie, {
      id: String(b.invoice.id),
    });
    expect(invoice.body).toMatchObject({ amountWithheld: "465.12", amountPaid: "9534.88", balance: "0.00" });

    // Automatic: the other invoice.
    const auto = await post(
      receiptsApi.action,
      "/api/receipts",
      { clientId: client.id, amount: "1000.00" },
      manager.cookie,
    );
    expect(auto).toMatchObject({ status: 201, body: { allocations: [{ invoiceId: a.invoice.id, cash: "1000.00" }] } });

    const id = (first.body as { id: number }).id;
    const one = await get(receiptApi.loader, `/api/receipts/${id}`, manager.cookie, { id: String(id) });
    expect(one.body).toMatchObject({ id, reference: "NIP/123" });
    expect((await get(receiptApi.loader, "/api/receipts/x", manager.cookie, { id: "x" })).status).toBe(404);

    const page = await get(receiptsApi.loader, `/api/receipts?clientId=${client.id}&limit=1`, manager.cookie);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(1);
    expect(page.headers.get("X-Next-Cursor")).toBeTruthy();
    const byRef = await get(receiptsApi.loader, `/api/receipts?clientId=${client.id}&reference=nip/`, manager.cookie);
    expect((byRef.body as { id: number }[]).map((r) => r.id)).toEqual([id]);
    const streamed = await get(receiptsApi.loader, `/api/receipts?clientId=${client.id}`, manager.cookie);
    expect(streamed.body).toHaveLength(2);
    expect((await get(receiptsApi.loader, "/api/receipts?from=nope", manager.cookie)).status).toBe(400);

    const reversed = await post(
      reversalApi.action,
      `/api/receipts/${id}/reversal`,
      { reason: "Wrong" },
      admin.cookie,
      {},
      { id: String(id) },
    );
    expect(reversed).toMatchObject({ status: 201, body: { reversed: true } });
    const twice = await post(
      reversalApi.action,
      `/api/receipts/${id}/reversal`,
      { reason: "Wrong" },
      admin.cookie,
      {},
      { id: String(id) },
    );
    expect(twice.status).toBe(409);
  });

  it("refuses bad input with a 4xx naming the field", async () => {
    const { clientId } = await invoiceOfTenThousand(manager.user, agentId);
    const cases: [unknown, number, string][] = [
      [{ clientId, amount: "0" }, 400, "amount"],
      [{ clientId, amount: "1.001" }, 400, "amount"],
      [{ clientId, amount: "10", date: "2999-01-01" }, 400, "date"],
      [{ clientId, amount: "10", allocations: [{ invoiceId: 1, amount: "x" }] }, 400, "allocations"],
      [{ amount: "10" }, 400, "clientId"],
    ];
    for (const [json, status, field] of cases) {
      const result = await post(receiptsApi.action, "/api/receipts", json, manager.cookie);
      expect(result.status, JSON.stringify(json)).toBe(status);
      expect(Object.keys((result.body as { errors: object }).errors)).toContain(field);
    }
  });
});

describeAccess("receipts JSON", [
  { name: "list", handler: receiptsApi.loader, method: "GET", path: "/api/receipts", allowed: ["manager", "admin"] },
  {
    name: "record",
    handler: receiptsApi.action,
    method: "POST",
    path: "/api/receipts",
    json: {},
    allowed: ["manager", "admin"],
  },
  {
    name: "one",
    handler: receiptApi.loader,
    method: "GET",
    path: "/api/receipts/1",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  {
    name: "reversal",
    handler: reversalApi.action,
    method: "POST",
    path: "/api/receipts/1/reversal",
    params: { id: "1" },
    json: { reason: "x" },
    allowed: ["admin"],
  },
]);

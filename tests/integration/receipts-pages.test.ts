// The receipts' pages without JavaScript (docs/decisions/1240): Record Receipt's form, chosen
// amounts included, and its refusals; the list with its filters and CSV; the receipt's page and
// its reversal; the invoice page's cash and withholding per receipt; who may open them.
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import * as invoicePage from "../../app/routes/_app.invoices_.$id";
import * as listPage from "../../app/routes/_app.receipts";
import * as exportRoute from "../../app/routes/_app.receipts.export";
import * as receiptPage from "../../app/routes/_app.receipts_.$id";
import * as newPage from "../../app/routes/_app.receipts_.new";
import { describeAccess } from "../access";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { invoiceOfTenThousand, invoiceRow } from "../money-entries";

let manager: { user: User; cookie: string };
let admin: { user: User; cookie: string };
let agentId: number;

beforeAll(async () => {
  manager = await loginAs("manager");
  admin = await loginAs("admin");
  agentId = (await createAgent()).id;
});

describe("Record Receipt, the list and the receipt's page", () => {
  it("records a receipt from the form over a chosen invoice, lists it, shows it, and reverses it", async () => {
    const clientId = (await createClient({ taxRate: "7.50", whtRate: "5.00" })).id;
    const a = await invoiceOfTenThousand(manager.user, agentId, clientId);
    const b = await invoiceOfTenThousand(manager.user, agentId, clientId);
    const form = await call(
      newPage.loader,
      makeRequest(`/receipts/new?clientId=${clientId}`, { cookie: manager.cookie }),
    );
    expect(form.status).toBe(200);
    const offered = (form.body as { invoices: { id: number; cashToSettle: string }[] }).invoices;
    expect(offered.map((i) => i.id)).toEqual([a.invoice.id, b.invoice.id]);
    expect(offered[0].cashToSettle).toBe("9534.88");

    const refused = await call(
      newPage.action,
      makeRequest("/receipts/new", {
        method: "POST",
        cookie: manager.cookie,
        form: {
          clientId: String(clientId),
          amount: "100.00",
          "allocations[0].invoiceId": String(b.invoice.id),
          "allocations[0].amount": "20000",
        },
      }),
    );
    expect(refused.status).toBe(409);

    const posted = await call(
      newPage.action,
      makeRequest("/receipts/new", {
        method: "POST",
        cookie: manager.cookie,
        form: {
          clientId: String(clientId),
          amount: "9534.88",
          reference: "FORM-1",
          idempotencyKey: `form-${Date.now()}`,
          "allocations[0].invoiceId": String(a.invoice.id),
          "allocations[0].amount": "",
          "allocations[1].invoiceId": String(b.invoice.id),
          "allocations[1].amount": "10,000.00",
        },
      }),
    );
    expect(posted.status).toBe(302);
    const location = posted.headers.get("Location")!;
    const id = location.split("/").pop()!;
    expect(await invoiceRow(b.invoice.id)).toMatchObject({ amountWithheld: "465.12", paymentStatus: "paid" });
    expect(await invoiceRow(a.invoice.id)).toMatchObject({ paymentStatus: "pending" });

    const list = await call(listPage.loader, makeRequest(`/receipts?clientId=${clientId}`, { cookie: manager.cookie }));
    expect(list.body).toMatchObject({
      receipts: [{ id: Number(id), withheld: "465.12", invoices: [b.invoice.invoiceNo] }],
    });
    const csv = await call(
      exportRoute.loader,
      makeRequest(`/receipts/export?clientId=${clientId}`, { cookie: manager.cookie }),
    );
    expect(csv.status).toBe(200);
    expect(String(csv.body)).toContain("FORM-1");

    const page = await call(receiptPage.loader, makeRequest(`/receipts/${id}`, { cookie: manager.cookie }), { id });
    expect(page.body).toMatchObject({ receipt: { amount: "9534.88", settled: "10000.00" }, canReverse: false });
    const shown = await call(invoicePage.loader, makeRequest(`/invoices/${b.invoice.id}`, { cookie: manager.cookie }), {
      id: String(b.invoice.id),
    });
    expect(shown.body).toMatchObject({
      invoice: { amountWithheld: "465.12" },
      receipts: [{ id: Number(id), allocations: [{ cash: "9534.88", wht: "465.12" }] }],
    });

    const noReason = await call(
      receiptPage.action,
      makeRequest(`/receipts/${id}`, { method: "POST", cookie: admin.cookie, form: { reason: "" } }),
      { id },
    );
    expect(noReason.status).toBe(400);
    const reversed = await call(
      receiptPage.action,
      makeRequest(`/receipts/${id}`, { method: "POST", cookie: admin.cookie, form: { reason: "Wrong client" } }),
      { id },
    );
    expect(reversed.status).toBe(302);
    expect(await invoiceRow(b.invoice.id)).toMatchObject({ amountWithheld: "0.00", paymentStatus: "pending" });
  });
});

describeAccess("receipt pages", [
  {
    name: "list",
    handler: listPage.loader,
    method: "GET",
    path: "/receipts",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "export",
    handler: exportRoute.loader,
    method: "GET",
    path: "/receipts/export",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "new",
    handler: newPage.loader,
    method: "GET",
    path: "/receipts/new",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "record",
    handler: newPage.action,
    method: "POST",
    path: "/receipts/new",
    form: {},
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "reverse",
    handler: receiptPage.action,
    method: "POST",
    path: "/receipts/1",
    params: { id: "1" },
    form: { reason: "x" },
    allowed: ["admin"],
    page: true,
  },
]);

import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { listPayments, paymentTotals } from "../../app/presenters/payments.server";
import { listEligibleDeliveries, previewInvoice } from "../../app/presenters/invoice-picker.server";
import { getInvoice, invoiceSummary } from "../../app/presenters/invoice-list.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { listMonths, monthDetails } from "../../app/presenters/reconciliation.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { env } from "../../app/utils/env.server";
import { add, toFixed } from "../../app/utils/money";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

let agentId: number;
let clientId: number;
let user: User;

beforeAll(async () => {
  agentId = (await createAgent()).id;
  clientId = (await createClient({ name: "Kodan", taxRate: "7.50", paymentTermsDays: 45 })).id;
  user = await createUser({ role: "manager" });
});

const delivery = (overrides: Parameters<typeof createDelivery>[0] extends infer T ? Partial<T> : never = {}) =>
  createDelivery({ agentId, clientId, createdBy: user.id, ...overrides });

describe("invoices", () => {
  it("numbers from 127, recomputes figures and moves the delivery to invoiced", async () => {
    const d = await delivery({
      date: "2026-01-10",
      tons: "30.55",
      buyingRate: "52000.00",
      sellingRate: "65000.50",
      logisticsCost: "150000.10",
      otherCosts: "12500.05",
    });
    const preview = await previewInvoice(user, d.id);
    expect(preview).toMatchObject({
      invoiceNo: "127",
      amount: "1985765.28",
      profit: "234665.13",
      taxRate: "7.50",
      // Due 45 days from the day it is issued (decision 0300, "Due date"), not from the delivery.
      expectedPaymentDate: addDays(todayIn(env().APP_TIME_ZONE), 45),
    });
    const result = await createInvoiceForDelivery(user, { deliveryId: d.id, invoiceNo: undefined });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.invoice).toMatchObject({
      invoiceNo: "127",
      amount: "1985765.28",
      paymentStatus: "pending",
      amountPaid: "0.00",
    });
    const db = await getDb();
    const [after] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, d.id));
    expect(after).toMatchObject({ status: "invoiced", invoiceId: result.invoice.id });
    expect(await createInvoiceForDelivery(user, { deliveryId: d.id })).toMatchObject({ ok: false, status: 409 });
    expect((await listEligibleDeliveries(user, {}, { limit: 500 })).items.map((e) => e.id)).not.toContain(d.id);
  });

  it("refuses deliveries without a client, unknown ones and taken numbers", async () => {
    const noClient = await delivery({ clientId: null });
    expect(await createInvoiceForDelivery(user, { deliveryId: noClient.id })).toMatchObject({ ok: false, status: 409 });
    expect(await createInvoiceForDelivery(user, { deliveryId: 999999 })).toMatchObject({ ok: false, status: 404 });
    expect(await createInvoiceForDelivery(user, {})).toMatchObject({
      ok: false,
      status: 400,
      message: "Please select a delivery",
    });
    const d = await delivery();
    expect(await createInvoiceForDelivery(user, { deliveryId: d.id, invoiceNo: "INV-1" })).toMatchObject({
      ok: false,
      status: 400,
    });
    expect(await createInvoiceForDelivery(user, { deliveryId: d.id, invoiceNo: "127" })).toMatchObject({
      ok: false,
      status: 409,
    });
  });

  it("takes a chosen number only when it is the next one: numbers run without gaps", async () => {
    const db = await getDb();
    const counter = async () => (await db.select().from(schema.invoiceCounter))[0]?.lastNo;
    const d = await delivery();
    const next = String(Number((await previewInvoice(user, d.id))!.invoiceNo));
    const before = await counter();
    // Far ahead: the counter would pass what an invoice number holds (18 digits), and every later
    // invoice would fail; a little ahead would leave numbers never used.
    for (const chosen of ["999999999999999999", String(Number(next) + 1), "5"]) {
      const refused = await createInvoiceForDelivery(user, { deliveryId: d.id, invoiceNo: chosen });
      expect(refused, chosen).toMatchObject({
        ok: false,
        status: 409,
        message: expect.stringContaining(`invoice numbers run without gaps, and the next is ${next}`),
      });
      expect(await counter()).toBe(before);
    }
    const chosen = await createInvoiceForDelivery(user, { deliveryId: d.id, invoiceNo: ` 0${next} ` });
    expect(chosen).toMatchObject({ ok: true, invoice: { invoiceNo: next } });
    const after = await createInvoiceForDelivery(user, { deliveryId: (await delivery()).id });
    expect(after).toMatchObject({ ok: true, invoice: { invoiceNo: String(Number(next) + 1) } });
  });

  it("gives 20 invoices created at once 20 contiguous numbers", async () => {
    const db = await getDb();
    const before = Number(
      (await db.select({ max: sql<string>`max(invoice_no::bigint)::text` }).from(schema.invoices))[0].max ?? "126",
    );
    const ds = await Promise.all(Array.from({ length: 20 }, () => delivery()));
    const results = await Promise.all(ds.map((d) => createInvoiceForDelivery(user, { deliveryId: d.id })));
    expect(results.every((r) => r.ok)).toBe(true);
    const numbers = results.map((r) => (r.ok ? Number(r.invoice.invoiceNo) : 0)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => before + 1 + i));
  });
});

describe("payments", () => {
  it("goes pending, partial, paid and never over-pays", async () => {
    const d = await delivery({ tons: "10.00", sellingRate: "1000.10" });
    const created = await createInvoiceForDelivery(user, { deliveryId: d.id });
    if (!created.ok) throw new Error(created.message);
    const id = created.invoice.id;
    expect(await recordPayment(user, { invoiceId: id, amount: "0" })).toMatchObject({
      ok: false,
      status: 400,
      message: "Please enter a valid payment amount",
    });
    expect(await recordPayment(user, { invoiceId: id, amount: "-5" })).toMatchObject({ ok: false, status: 400 });
    expect(await recordPayment(user, { invoiceId: id, amount: "1.001" })).toMatchObject({ ok: false, status: 400 });
    expect(await recordPayment(user, { invoiceId: 999999, amount: "1" })).toMatchObject({ ok: false, status: 404 });
    expect(await recordPayment(user, { invoiceId: id, amount: "4,000.50", reference: "TRF-1" })).toMatchObject({
      ok: true,
      paymentStatus: "partial",
      amountPaid: "4000.50",
    });
    expect(await recordPayment(user, { invoiceId: id, amount: "6000.51" })).toMatchObject({
      ok: false,
      status: 409,
      message: "Amount exceeds the remaining balance of ₦6,000.50",
    });
    expect(await recordPayment(user, { invoiceId: id, amount: "6000.50" })).toMatchObject({
      ok: true,
      paymentStatus: "paid",
      amountPaid: "10001.00",
    });
    expect(await recordPayment(user, { invoiceId: id, amount: "0.01" })).toMatchObject({ ok: false, status: 409 });
    expect(await getInvoice(user, id)).toMatchObject({ paymentStatus: "paid", balance: "0.00" });
  });

  it("lets exactly one of five racing payments take the last balance", async () => {
    const d = await delivery({ tons: "1.00", sellingRate: "5000.00" });
    const created = await createInvoiceForDelivery(user, { deliveryId: d.id });
    if (!created.ok) throw new Error(created.message);
    const id = created.invoice.id;
    await recordPayment(user, { invoiceId: id, amount: "3000" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => recordPayment(user, { invoiceId: id, amount: "2000" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(4);
    const invoice = await getInvoice(user, id);
    expect(invoice).toMatchObject({ amountPaid: "5000.00", paymentStatus: "paid" });
    const db = await getDb();
    const rows = await db.select().from(schema.payments).where(eq(schema.payments.invoiceId, id));
    expect(toFixed(add(...rows.map((r) => r.amount)))).toBe("5000.00");
  });

  it("counts an invoice past its expected date with money owed as overdue", async () => {
    const d = await delivery({ date: "2020-01-01", tons: "2.00", sellingRate: "100.00" });
    // Issued the day of its delivery, so due on 15 Feb 2020: long past.
    const created = await createInvoiceForDelivery(
      user,
      { deliveryId: d.id },
      { now: new Date("2020-01-01T12:00:00Z") },
    );
    if (!created.ok) throw new Error(created.message);
    expect(await getInvoice(user, created.invoice.id)).toMatchObject({ paymentStatus: "overdue" });
    const summary = await invoiceSummary(user);
    expect(summary.overdue).toBeGreaterThanOrEqual(1);
  });

  it("totals payments to the kobo", async () => {
    const totals = await paymentTotals(user);
    const listed = (await listPayments(user, {}, { limit: 500 })).items;
    expect(totals.count).toBe(listed.length);
    expect(totals.total).toBe(toFixed(add(...listed.map((p) => p.amount))));
  });
});

describe("monthly reconciliation", () => {
  it("groups by month, shows the next invoice number whichever month and invoices a month per client", async () => {
    const other = await createClient({ name: "Lafarge", paymentTermsDays: 10 });
    await delivery({ date: "2019-03-05", tons: "10.00", sellingRate: "100.00" });
    await delivery({ date: "2019-03-20", tons: "5.50", sellingRate: "200.00" });
    await delivery({ date: "2019-03-21", tons: "1.00", sellingRate: "50.00", clientId: other.id });
    await delivery({ date: "2019-04-02", tons: "3.00", sellingRate: null });
    const db = await getDb();
    const highest = Number(
      (await db.select({ max: sql<string>`max(invoice_no::bigint)::text` }).from(schema.invoices))[0].max,
    );
    const { months, nextInvoiceNo } = await listMonths(user);
    const march = months.find((m) => m.month === "2019-03")!;
    const april = months.find((m) => m.month === "2019-04")!;
    expect(march).toMatchObject({
      count: 3,
      confirmedCount: 3,
      totalTons: "16.50",
      revenue: "2150.00",
      invoiced: false,
      canGenerate: true,
    });
    // One number for the page, the counter's next, whichever month is invoiced first (decision 0501).
    expect(nextInvoiceNo).toBe(highest + 1);
    expect(april).toMatchObject({ canGenerate: true, closed: false });
    expect(months[0].month >= months[months.length - 1].month).toBe(true);

    const result = await createInvoicesForMonth(user, "2019-03");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.invoices.map((i) => i.amount)).toEqual(["2100.00", "50.00"]);
    // Issued today: due today + each client's terms (decision 0300, "Due date"), not 20 Mar + 45 days.
    const today = todayIn(env().APP_TIME_ZONE);
    expect(result.invoices.map((i) => i.expectedPaymentDate)).toEqual([addDays(today, 45), addDays(today, 10)]);
    const after = (await listMonths(user)).months.find((m) => m.month === "2019-03")!;
    expect(after).toMatchObject({ invoiced: true, canGenerate: false, invoiceCount: 2 });
    expect([after.firstInvoiceNo, after.lastInvoiceNo]).toEqual(result.invoices.map((i) => i.invoiceNo).sort());
    const details = await monthDetails(user, "2019-04");
    expect(details.items[0]).toMatchObject({ tons: "3.000", revenue: null });
    expect(await createInvoicesForMonth(user, "2019-03")).toMatchObject({ ok: false, status: 409 });
  });

  it("issues the number the confirmation showed, whichever month, and refuses once another invoice took it", async () => {
    await delivery({ date: "2018-06-05", tons: "1.00", sellingRate: "100.00" });
    await delivery({ date: "2018-07-05", tons: "1.00", sellingRate: "100.00" });
    await delivery({ date: "2018-08-05", tons: "1.00", sellingRate: "100.00" });
    const shown = (await listMonths(user)).nextInvoiceNo;
    // August before June and July: it takes the number shown, not a number kept for it.
    const august = await createInvoicesForMonth(user, "2018-08", { expectedFirstNo: String(shown) });
    expect(august).toMatchObject({ ok: true, invoices: [{ invoiceNo: String(shown) }] });
    // A confirmation shown before that invoice promised the same number: refused, nothing made.
    const stale = await createInvoicesForMonth(user, "2018-06", { expectedFirstNo: String(shown) });
    expect(stale).toMatchObject({ ok: false, status: 409, message: expect.stringContaining(`#${shown + 1}`) });
    expect((await listMonths(user)).months.find((m) => m.month === "2018-06")).toMatchObject({ canGenerate: true });
    expect(await createInvoicesForMonth(user, "2018-06", { expectedFirstNo: "12a" })).toMatchObject({ status: 400 });
    const july = await createInvoicesForMonth(user, "2018-07", { expectedFirstNo: String(shown + 1) });
    expect(july).toMatchObject({ ok: true, invoices: [{ invoiceNo: String(shown + 1) }] });
  });
});

import * as invoicesPage from "../../app/routes/_app.invoices";
import * as newInvoice from "../../app/routes/_app.invoices.new";
import * as payRoute from "../../app/routes/_app.invoices.$id.pay";
import * as paymentsPage from "../../app/routes/_app.payments";
import * as reconciliationPage from "../../app/routes/_app.reconciliation";
import * as apiInvoices from "../../app/routes/api.invoices";
import * as apiPayments from "../../app/routes/api.payments";
import * as dashboard from "../../app/routes/_app._index";
import { describeAccess } from "../access";
import { loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("invoice, payment and reconciliation routes", [
  {
    name: "invoices page",
    handler: invoicesPage.loader,
    method: "GET",
    path: "/invoices",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "generate invoice page",
    handler: newInvoice.loader,
    method: "GET",
    path: "/invoices/new",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "generate invoice action",
    handler: newInvoice.action,
    method: "POST",
    path: "/invoices/new",
    form: {},
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "record payment page",
    handler: payRoute.loader,
    method: "GET",
    path: "/invoices/1/pay",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "record payment action",
    handler: payRoute.action,
    method: "POST",
    path: "/invoices/1/pay",
    params: { id: "1" },
    form: { amount: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "payments page",
    handler: paymentsPage.loader,
    method: "GET",
    path: "/payments",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "reconciliation page",
    handler: reconciliationPage.loader,
    method: "GET",
    path: "/reconciliation",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "reconciliation action",
    handler: reconciliationPage.action,
    method: "POST",
    path: "/reconciliation",
    form: { month: "2001-01" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "api invoices list",
    handler: apiInvoices.loader,
    method: "GET",
    path: "/api/invoices",
    allowed: ["manager", "admin"],
  },
  {
    name: "api invoices create",
    handler: apiInvoices.action,
    method: "POST",
    path: "/api/invoices",
    json: {},
    allowed: ["manager", "admin"],
  },
  {
    name: "api payments list",
    handler: apiPayments.loader,
    method: "GET",
    path: "/api/payments",
    allowed: ["manager", "admin"],
  },
  {
    name: "api payments create",
    handler: apiPayments.action,
    method: "POST",
    path: "/api/payments",
    json: {},
    allowed: ["manager", "admin"],
  },
]);

describe("the JSON calls", () => {
  it("recompute posted figures and answer 400, 404 and 409", async () => {
    const { cookie } = await loginAs("manager");
    const { todayIn } = await import("../../app/utils/dates");
    const d = await delivery({
      date: todayIn("Africa/Lagos"),
      tons: "3.000",
      sellingRate: "1000.00",
      buyingRate: "800.00",
    });
    const post = (json: unknown) =>
      call(apiInvoices.action, makeRequest("/api/invoices", { method: "POST", cookie, json }));
    const created = await post({ deliveryId: d.id, amount: "1", profit: "999999", taxRate: "50" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      amount: "3000.00",
      profit: "600.00",
      taxRate: "7.50",
      clientName: "Kodan",
      paymentStatus: "pending",
      amountPaid: "0.00",
    });
    expect((await post({ deliveryId: d.id })).status).toBe(409);
    expect((await post({ deliveryId: 987654 })).status).toBe(404);
    expect((await post({})).status).toBe(400);
    expect(
      (await call(apiInvoices.action, makeRequest("/api/invoices", { method: "POST", cookie, json: "nope" }))).status,
    ).toBe(400);
    const invoiceId = (created.body as { id: number }).id;
    const pay = (json: unknown) =>
      call(apiPayments.action, makeRequest("/api/payments", { method: "POST", cookie, json }));
    const today = todayIn("Africa/Lagos");
    expect((await pay({ invoiceId, amount: 0.1 + 0.2, paymentDate: today })).status).toBe(400);
    expect((await pay({ invoiceId, amount: "3000.01", paymentDate: today })).status).toBe(409);
    expect((await pay({ invoiceId, amount: "10", paymentDate: "2026-02-30" })).status).toBe(400);
    expect(await pay({ invoiceId, amount: 3000, paymentDate: today, reference: "TRF" })).toMatchObject({
      status: 201,
      body: { paymentStatus: "paid", amountPaid: "3000.00" },
    });
    const list = await call(apiInvoices.loader, makeRequest("/api/invoices?status=paid", { cookie }));
    expect((list.body as { id: number }[]).map((i) => i.id)).toContain(invoiceId);
  });

  it("the manager dashboard adds up in SQL", async () => {
    const { cookie } = await loginAs("manager");
    const res = await call(dashboard.loader, makeRequest("/", { cookie }));
    const body = res.body as {
      kind: string;
      manager: { totalDeliveries: number; trends: { id: string }[]; outstanding: string; overdue: number };
    };
    expect(body.kind).toBe("manager");
    expect(body.manager.trends.map((c) => c.id)).toEqual(["trend-profit", "trend-tons"]);
    expect(body.manager.totalDeliveries).toBeGreaterThan(0);
    expect(body.manager.overdue).toBeGreaterThanOrEqual(1);
    expect(body.manager.outstanding).toMatch(/^\d+\.\d{2}$/);
  });
});

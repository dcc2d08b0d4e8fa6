// Decision 0805: a payment, an invoice or a month invoice is never made twice for
// one submission, and a payment date is a day between the invoice's creation and today.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import {
  PAYMENT_DATE_BEFORE_INVOICE,
  PAYMENT_DATE_FUTURE,
  recordPayment,
} from "../../app/services/payments/record-payment.server";
import * as payRoute from "../../app/routes/_app.invoices.$id.pay";
import * as newInvoice from "../../app/routes/_app.invoices.new";
import * as reconciliationPage from "../../app/routes/_app.reconciliation";
import * as apiInvoices from "../../app/routes/api.invoices";
import * as apiPayments from "../../app/routes/api.payments";
import { addDays, todayIn } from "../../app/utils/dates";
import { deleteOldKeys, LANDED_WITH_OTHER_VALUES } from "../../app/utils/idempotency.server";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let agentId: number;
let clientId: number;
let manager: Awaited<ReturnType<typeof loginAs>>;
const today = () => todayIn("Africa/Lagos");

beforeAll(async () => {
  agentId = (await createAgent()).id;
  clientId = (await createClient()).id;
  manager = await loginAs("manager");
});

async function invoice(amount = "10000.00") {
  const d = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.user.id,
    tons: "1.00",
    sellingRate: amount,
    date: today(),
  });
  const created = await createInvoiceForDelivery(manager.user, { deliveryId: d.id });
  if (!created.ok) throw new Error(created.message);
  return created.invoice;
}

async function paymentsOf(invoiceId: number) {
  const db = await getDb();
  return db.select().from(schema.payments).where(eq(schema.payments.invoiceId, invoiceId));
}

const payApi = (json: unknown, key?: string) =>
  call(
    apiPayments.action,
    makeRequest("/api/payments", {
      method: "POST",
      cookie: manager.cookie,
      json,
      headers: key ? { "Idempotency-Key": key } : {},
    }),
  );

describe("Record Payment is idempotent", () => {
  it("the form posted twice records one payment and both land on the same page", async () => {
    const inv = await invoice();
    const page = await call(payRoute.loader, makeRequest(`/invoices/${inv.id}/pay`, { cookie: manager.cookie }), {
      id: String(inv.id),
    });
    const key = (page.body as { idempotencyKey: string }).idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const form = { amount: "2500", paymentDate: today(), reference: "TAP", idempotencyKey: key };
    const post = () =>
      call(payRoute.action, makeRequest(`/invoices/${inv.id}/pay`, { method: "POST", cookie: manager.cookie, form }), {
        id: String(inv.id),
      });
    const a = await post();
    const b = await post();
    expect(a.status).toBe(302);
    expect(b.status).toBe(302);
    expect(b.headers.get("Location")).toBe(a.headers.get("Location"));
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  it("the API replays the same Idempotency-Key sequentially: 201 then 200, one row", async () => {
    const inv = await invoice();
    const json = { invoiceId: inv.id, amount: "100.00" };
    const first = await payApi(json, "pay-seq-1");
    const second = await payApi(json, "pay-seq-1");
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect((second.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  it("ten concurrent posts with one key make one payment", async () => {
    const inv = await invoice();
    const json = { invoiceId: inv.id, amount: "100.00" };
    const results = await Promise.all(Array.from({ length: 10 }, () => payApi(json, "pay-race-1")));
    // Each either waited and replayed the first, or was told the first is still running: never a second effect.
    expect(results.every((r) => r.status === 201 || r.status === 200 || r.status === 409)).toBe(true);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  it("the same key with a different payload answers 422 and changes nothing", async () => {
    const inv = await invoice();
    expect((await payApi({ invoiceId: inv.id, amount: "100.00" }, "pay-diff-1")).status).toBe(201);
    const other = await payApi({ invoiceId: inv.id, amount: "200.00" }, "pay-diff-1");
    expect(other.status).toBe(422);
    // The key landed: the answer says so, rather than "reload the form" (a new key, a second payment).
    expect((other.body as { message: string }).message).toBe(LANDED_WITH_OTHER_VALUES);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  it("a refused payment frees its key for a corrected retry", async () => {
    const inv = await invoice("100.00");
    expect((await payApi({ invoiceId: inv.id, amount: "500.00" }, "pay-fix-1")).status).toBe(409);
    expect((await payApi({ invoiceId: inv.id, amount: "50.00" }, "pay-fix-1")).status).toBe(201);
  });

  it("keeps keys for at least 24 hours, then prunes them", async () => {
    const inv = await invoice();
    expect((await payApi({ invoiceId: inv.id, amount: "1.00" }, "pay-old-1")).status).toBe(201);
    const db = await getDb();
    await db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'pay-old-1'`);
    await db.transaction((tx) => deleteOldKeys(tx));
    expect((await payApi({ invoiceId: inv.id, amount: "1.00" }, "pay-old-1")).status).toBe(200);
    await db.execute(sql`update idempotency_keys set created_at = now() - interval '91 days' where key = 'pay-old-1'`);
    await db.transaction((tx) => deleteOldKeys(tx));
    expect(
      await db.select().from(schema.idempotencyKeys).where(eq(schema.idempotencyKeys.key, "pay-old-1")),
    ).toHaveLength(0);
  });

  it("refuses an unusable key", async () => {
    const inv = await invoice();
    expect((await payApi({ invoiceId: inv.id, amount: "1.00" }, "x".repeat(201))).status).toBe(400);
  });
});

describe("Generate Invoice is idempotent", () => {
  it("the dialog posted twice makes one invoice and both redirect to the list", async () => {
    const d = await createDelivery({ agentId, clientId, createdBy: manager.user.id, date: today() });
    const page = await call(
      newInvoice.loader,
      makeRequest(`/invoices/new?deliveryId=${d.id}`, { cookie: manager.cookie }),
    );
    const key = (page.body as { idempotencyKey: string }).idempotencyKey;
    const post = () =>
      call(
        newInvoice.action,
        makeRequest("/invoices/new", {
          method: "POST",
          cookie: manager.cookie,
          form: { deliveryId: String(d.id), idempotencyKey: key },
        }),
      );
    const a = await post();
    const b = await post();
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(b.headers.get("Location")).toBe(a.headers.get("Location"));
    const db = await getDb();
    expect(await db.select().from(schema.invoices).where(eq(schema.invoices.deliveryId, d.id))).toHaveLength(1);
  });

  it("POST /api/invoices with one key, sequential and concurrent, makes one invoice; a different payload is 422", async () => {
    const d = await createDelivery({ agentId, clientId, createdBy: manager.user.id, date: today() });
    const post = (json: unknown, key: string) =>
      call(
        apiInvoices.action,
        makeRequest("/api/invoices", {
          method: "POST",
          cookie: manager.cookie,
          json,
          headers: { "Idempotency-Key": key },
        }),
      );
    const results = await Promise.all(Array.from({ length: 6 }, () => post({ deliveryId: d.id }, "inv-race-1")));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.every((r) => [200, 201, 409].includes(r.status))).toBe(true);
    expect((await post({ deliveryId: d.id }, "inv-race-1")).status).toBe(200);
    const other = await createDelivery({ agentId, clientId, createdBy: manager.user.id, date: today() });
    expect((await post({ deliveryId: other.id }, "inv-race-1")).status).toBe(422);
    const db = await getDb();
    expect(await db.select().from(schema.invoices).where(eq(schema.invoices.deliveryId, d.id))).toHaveLength(1);
    expect(await db.select().from(schema.invoices).where(eq(schema.invoices.deliveryId, other.id))).toHaveLength(0);
  });

  it("the month invoice posted twice makes its invoices once", async () => {
    await createDelivery({ agentId, clientId, createdBy: manager.user.id, date: "2018-06-03" });
    await createDelivery({ agentId, clientId, createdBy: manager.user.id, date: "2018-06-09" });
    const form = { month: "2018-06", idempotencyKey: "month-key-1" };
    const post = () =>
      call(reconciliationPage.action, makeRequest("/reconciliation", { method: "POST", cookie: manager.cookie, form }));
    const a = await post();
    const b = await post();
    expect(a.headers.get("Location")).toBe("/reconciliation?month=2018-06");
    expect(b.headers.get("Location")).toBe(a.headers.get("Location"));
    const db = await getDb();
    const rows = await db
      .select()
      .from(schema.invoices)
      .where(
        sql`${schema.invoices.deliveryId} in (select id from deliveries where date between '2018-06-01' and '2018-06-30')`,
      );
    expect(rows).toHaveLength(1);
    expect((await createInvoicesForMonth(manager.user, "2018-07", { idempotencyKey: "month-key-1" })).ok).toBe(false);
  });
});

describe("payment dates", () => {
  it("refuses a date before the invoice and one in the future, with a field message", async () => {
    const inv = await invoice();
    const before = await payApi({ invoiceId: inv.id, amount: "1.00", paymentDate: "2000-01-01" });
    expect(before).toMatchObject({
      status: 400,
      body: { message: PAYMENT_DATE_BEFORE_INVOICE, errors: { paymentDate: [PAYMENT_DATE_BEFORE_INVOICE] } },
    });
    const future = await payApi({ invoiceId: inv.id, amount: "1.00", paymentDate: addDays(today(), 1) });
    expect(future).toMatchObject({
      status: 400,
      body: { message: PAYMENT_DATE_FUTURE, errors: { paymentDate: [PAYMENT_DATE_FUTURE] } },
    });
    expect((await payApi({ invoiceId: inv.id, amount: "1.00", paymentDate: today() })).status).toBe(201);
    expect(await paymentsOf(inv.id)).toHaveLength(1);
  });

  it("takes 'today' in the business time zone", async () => {
    const inv = await invoice();
    // 23:30 UTC is already the next day in Lagos (UTC+1).
    const now = new Date(`${today()}T23:30:00Z`);
    const lagosTomorrow = addDays(today(), 1);
    const result = await recordPayment(
      manager.user,
      { invoiceId: inv.id, amount: "1.00", paymentDate: lagosTomorrow },
      now,
    );
    expect(result.ok).toBe(true);
  });
});

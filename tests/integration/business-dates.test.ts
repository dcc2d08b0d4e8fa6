// Dates that cannot be (decision 0841): a delivery, payment, payout or refund dated before 2000
// or after tomorrow (deliveries) or today (money) is refused with a message and writes nothing;
// a month or a period no page can compute is refused, and a month holding a row dated as late
// as 9999-12-31 (written before this rule) is shown and exported, and refused invoicing, without a 500.
import { eq, gt } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { refundClientCredit } from "../../app/services/payments/refund-credit.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { createDelivery as recordDelivery } from "../../app/services/deliveries/create-delivery.server";
import { parseStatementPeriod } from "../../app/schemas/statement-query.server";
import * as auditPage from "../../app/routes/_app.audit";
import * as reconciliationPage from "../../app/routes/_app.reconciliation";
import * as reconciliationExport from "../../app/routes/_app.reconciliation.export";
import * as taxPage from "../../app/routes/_app.tax";
import * as taxExport from "../../app/routes/_app.tax.export";
import * as apiDelivery from "../../app/routes/api.deliveries.$id";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import * as apiPayments from "../../app/routes/api.payments";
import * as apiTaxMonths from "../../app/routes/api.tax-months";
import { addDays, todayIn } from "../../app/utils/dates";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let admin: Awaited<ReturnType<typeof loginAs>>;
let agentId: number;
let clientId: number;
const today = () => todayIn("Africa/Lagos");

beforeAll(async () => {
  admin = await loginAs("admin");
  agentId = (await createAgent()).id;
  clientId = (await createClient()).id;
});

async function deliveriesAt(location: string) {
  const db = await getDb();
  return db.select().from(schema.deliveries).where(eq(schema.deliveries.location, location));
}

const postDelivery = (json: unknown) =>
  call(apiDeliveries.action, makeRequest("/api/deliveries", { method: "POST", cookie: admin.cookie, json }));

describe("a delivery's date", () => {
  it("is refused before 1 January 2000 or after tomorrow in the business time zone, writing nothing", async () => {
    const refused: [string, string][] = [
      ["9999-12-31", "Date must be no later than tomorrow"],
      ["2099-01-01", "Date must be no later than tomorrow"],
      [addDays(today(), 2), "Date must be no later than tomorrow"],
      ["1999-12-31", "Date must be on or after 1 January 2000"],
      ["1969-12-31", "Date must be on or after 1 January 2000"],
    ];
    for (const [date, message] of refused) {
      const reply = await postDelivery({ agentId, tons: "1.00", location: "Far yard", date });
      expect(reply, date).toMatchObject({ status: 400, body: { message, errors: { date: [message] } } });
    }
    expect(await deliveriesAt("Far yard")).toEqual([]);
    for (const date of ["2000-01-01", addDays(today(), 1)]) {
      expect((await postDelivery({ agentId, clientId, tons: "1.00", location: "Near yard", date })).status, date).toBe(
        201,
      );
    }
  });

  it("counts tomorrow from the day in Lagos, not in UTC", async () => {
    // 23:30 UTC on 14 March is 00:30 on the 15th in Lagos: the 16th is tomorrow, the 17th is not.
    const now = new Date("2026-03-14T23:30:00Z");
    const input = (date: string) => ({ agentId, clientId, tons: "1.00", location: "Midnight yard", date });
    expect((await recordDelivery(admin.user, input("2026-03-16"), { now })).ok).toBe(true);
    expect(await recordDelivery(admin.user, input("2026-03-17"), { now })).toMatchObject({
      ok: false,
      status: 400,
      message: "Date must be no later than tomorrow",
    });
  });

  it("cannot be edited to one out of range", async () => {
    const delivery = await createDelivery({ agentId, clientId, createdBy: admin.user.id, date: today() });
    for (const date of ["9999-12-31", "1969-12-31"]) {
      const reply = await call(
        apiDelivery.action,
        makeRequest(`/api/deliveries/${delivery.id}`, { method: "PATCH", cookie: admin.cookie, json: { date } }),
        { id: String(delivery.id) },
      );
      expect(reply.status, date).toBe(400);
    }
    const [after] = await (await getDb()).select().from(schema.deliveries).where(eq(schema.deliveries.id, delivery.id));
    expect(after.date).toBe(today());
  });
});

describe("money's dates", () => {
  it("refuses a payment, a refund and a payout dated before 2000 or in the future", async () => {
    const delivery = await createDelivery({ agentId, clientId, createdBy: admin.user.id, date: today() });
    const created = await createInvoiceForDelivery(admin.user, { deliveryId: delivery.id });
    if (!created.ok) throw new Error(created.message);
    const invoiceId = created.invoice.id;
    const pay = (paymentDate: string) =>
      call(
        apiPayments.action,
        makeRequest("/api/payments", {
          method: "POST",
          cookie: admin.cookie,
          json: { invoiceId, amount: "1.00", paymentDate },
        }),
      );
    expect(await pay("1969-12-31")).toMatchObject({
      status: 400,
      body: { message: "Payment date must be on or after 1 January 2000" },
    });
    expect(await pay("9999-12-31")).toMatchObject({
      status: 400,
      body: { message: "Payment date cannot be in the future" },
    });
    const refund = await refundClientCredit(admin.user, invoiceId, {
      amount: "1.00",
      paymentDate: "1999-12-31",
      reason: "Test",
    });
    expect(refund).toMatchObject({ ok: false, status: 400, message: "Refund date must be on or after 1 January 2000" });
    const payout = (payoutDate: string) =>
      recordAgentPayout(admin.user, agentId, { amount: "1.00", payoutDate, method: "cash" });
    expect(await payout("1969-12-31")).toMatchObject({
      ok: false,
      status: 400,
      message: "Payout date must be on or after 1 January 2000",
    });
    expect(await payout("2099-01-01")).toMatchObject({ status: 400, message: "Payout date cannot be in the future" });
    const db = await getDb();
    expect(await db.select().from(schema.payments).where(eq(schema.payments.invoiceId, invoiceId))).toEqual([]);
    expect(await db.select().from(schema.agentPayouts).where(eq(schema.agentPayouts.agentId, agentId))).toEqual([]);
  });
});

describe("a statement's period", () => {
  it("is refused before 2000 or ending more than a year from today, with the message of each", () => {
    const now = new Date("2026-03-15T12:00:00Z");
    const period = (query: string) => parseStatementPeriod(new URLSearchParams(query), now);
    expect(period("from=1969-12-01&to=1970-01-31")).toEqual({
      ok: false,
      status: 400,
      message: "The start date must be on or after 1 January 2000",
    });
    expect(period("from=9999-01-01&to=9999-12-31")).toEqual({
      ok: false,
      status: 400,
      message: "The end date must be within a year from today",
    });
    expect(period("from=2000-01-01&to=2000-12-31")).toEqual({
      ok: true,
      period: { from: "2000-01-01", to: "2000-12-31" },
    });
  });
});

describe("a month no page could compute", () => {
  it("shows and exports December 9999, where a row written before the rule sits, and refuses to invoice it", async () => {
    const db = await getDb();
    await createDelivery({ agentId, clientId, createdBy: admin.user.id, date: "9999-12-31", location: "Last yard" });
    const get = (handler: Parameters<typeof call>[0], url: string) =>
      call(handler, makeRequest(url, { cookie: admin.cookie }));
    expect((await get(reconciliationPage.loader, "/reconciliation?month=9999-12")).status).toBe(200);
    const exported = await get(reconciliationExport.loader, "/reconciliation/export?month=9999-12");
    expect(exported.status).toBe(200);
    expect(String(exported.body)).toContain("Last yard");
    expect((await get(taxPage.loader, "/tax?month=9999-12")).status).toBe(200);
    expect((await get(taxExport.loader, "/tax/export?month=9999-12")).status).toBe(200);
    // No invoice was issued in that month: nothing to show, answered as such.
    expect((await get(apiTaxMonths.loader, "/api/tax-months?month=9999-12")).status).toBe(404);
    expect((await get(auditPage.loader, "/audit?from=9999-12-31&to=9999-12-31")).status).toBe(200);
    const invoiced = await call(
      reconciliationPage.action,
      makeRequest("/reconciliation", { method: "POST", cookie: admin.cookie, form: { month: "9999-12" } }),
    );
    expect(invoiced.status).toBe(302);
    // Refused with its reason in the toast: a month that has not begun has nothing true to invoice.
    const toast = decodeURIComponent(/__toast=([^.;]+)/.exec(invoiced.headers.get("Set-Cookie") ?? "")![1]);
    expect(Buffer.from(toast, "base64").toString()).toContain("December 9999 has not begun: it cannot be invoiced yet");
    const [last] = await deliveriesAt("Last yard");
    expect(last.invoiceId).toBeNull();
    expect(
      await db.select().from(schema.invoices).where(gt(schema.invoices.expectedPaymentDate, "9000-01-01")),
    ).toEqual([]);
  });
});

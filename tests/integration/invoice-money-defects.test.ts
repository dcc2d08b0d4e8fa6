// An invoice's money after the fact (decision 0300): its profit follows its deliveries' costs when
// a haulage bill arrives after invoicing (in the same transaction, audited, refused in a closed
// month, and held by the database at commit), and its due date counts from the day it is issued.
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { listAuditEvents } from "../../app/models/audit.server";
import { updateDelivery } from "../../app/models/delivery-changes.server";
import { paymentTotals } from "../../app/presenters/payments.server";
import { reversePayment } from "../../app/services/payments/reverse-payment.server";
import { previewInvoice } from "../../app/presenters/invoice-picker.server";
import { getInvoice } from "../../app/presenters/invoice-list.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth } from "../../app/models/period.server";
import * as invoicesExport from "../../app/routes/_app.invoices.export";
import { addDays, todayIn } from "../../app/utils/dates";
import { env } from "../../app/utils/env.server";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { makeRequest } from "../http";
import { invoiceRow, statementOutcome } from "../money-entries";

let manager: User;
let managerCookie: string;
let admin: User;
let agentId: number;
let clientId: number;
const today = () => todayIn(env().APP_TIME_ZONE);

beforeAll(async () => {
  ({ user: manager, cookie: managerCookie } = await loginAs("manager"));
  admin = await createUser({ role: "admin" });
  agentId = (await createAgent()).id;
  clientId = (await createClient({ name: "Profit Client", taxRate: "7.50", paymentTermsDays: 30 })).id;
});

const delivery = (fields: Partial<Parameters<typeof createDelivery>[0]> = {}) =>
  createDelivery({
    agentId,
    clientId,
    createdBy: manager.id,
    date: addDays(today(), -5),
    tons: "10.00",
    buyingRate: "52000.00",
    sellingRate: "65000.00",
    logisticsCost: "20000.00",
    ...fields,
  });

async function invoiceOf(deliveryId: number, now?: Date) {
  const made = await createInvoiceForDelivery(manager, { deliveryId }, { now });
  if (!made.ok) throw new Error(made.message);
  return made.invoice;
}

/** The invoice's deliveries' profit, recounted by the database from scratch. */
async function deliveriesProfit(invoiceId: number) {
  const db = await getDb();
  const [row] = await db
    .select({
      profit: sql<string>`round(sum(tons * selling_rate - tons * coalesce(buying_rate, 0)
        - coalesce(logistics_cost, 0) - coalesce(other_costs, 0)), 2)::text`,
    })
    .from(schema.deliveries)
    .where(eq(schema.deliveries.invoiceId, invoiceId));
  return row.profit;
}

async function profitInCsv(invoiceNo: string) {
  const res = (await (invoicesExport.loader as (args: object) => Promise<Response>)({
    request: makeRequest("/invoices/export", { cookie: managerCookie }),
    params: {},
    context: {},
  })) as Response;
  const [header, ...rows] = parse(await res.text(), { bom: true }) as string[][];
  const row = rows.find((r) => r[header.indexOf("Invoice No")] === invoiceNo);
  return row?.[header.indexOf("Profit")];
}

const profitBreaches = async () =>
  (await findBreaches((await getDb()) as unknown as Db)).filter(
    (b) => b.check === "invoice profit equals its deliveries' profit",
  );

describe("an invoice's profit follows its deliveries' costs", () => {
  it("takes a haulage bill entered after invoicing, in the invoice, its CSV and its history", async () => {
    const d = await delivery();
    const invoice = await invoiceOf(d.id);
    // 10 t x (65,000 - 52,000) - 20,000 = 110,000.00.
    expect(invoice.profit).toBe("110000.00");
    const edited = await updateDelivery(manager, d.id, { logisticsCost: "35000.50", otherCosts: "1000.25" });
    expect(edited.ok).toBe(true);
    expect((await invoiceRow(invoice.id)).profit).toBe("93999.25");
    expect(await deliveriesProfit(invoice.id)).toBe("93999.25");
    expect(await profitInCsv(invoice.invoiceNo)).toBe("93999.25");
    const history = await listAuditEvents(manager, { entityType: "invoice", entityId: String(invoice.id) });
    expect(history.events.find((e) => e.action === "invoice.profit")).toMatchObject({
      before: { profit: "110000.00" },
      after: { profit: "93999.25", editedDeliveryId: d.id },
    });
    expect(await profitBreaches()).toEqual([]);
  });

  it("recounts a month's invoice from all its deliveries, rounded once", async () => {
    const month = addDays(today(), -400).slice(0, 7);
    const other = (await createClient({ name: "Month Profit Client" })).id;
    // Products with four decimals: the profit is rounded once, over the sum.
    const rates = { sellingRate: "65000.33", buyingRate: "52000.17" };
    const a = await delivery({ clientId: other, date: `${month}-03`, tons: "1.25", logisticsCost: null, ...rates });
    await delivery({ clientId: other, date: `${month}-04`, tons: "2.35", logisticsCost: "0.10", ...rates });
    const made = await createInvoicesForMonth(manager, month);
    if (!made.ok) throw new Error(made.message);
    const [invoice] = made.invoices;
    expect(invoice.profit).toBe(await deliveriesProfit(invoice.id));
    expect((await updateDelivery(manager, a.id, { otherCosts: "0.01" })).ok).toBe(true);
    // 3.60 t x 13,000.16 - 0.10 - 0.01 = 46,800.466, to the kobo 46,800.47.
    expect((await invoiceRow(invoice.id)).profit).toBe("46800.47");
    expect(await deliveriesProfit(invoice.id)).toBe("46800.47");
  });

  it("writes nothing to the invoice when no cost changes", async () => {
    const d = await delivery();
    const invoice = await invoiceOf(d.id);
    expect((await updateDelivery(manager, d.id, { logisticsCost: "20000", truckNo: "KJA-1" })).ok).toBe(true);
    expect(await invoiceRow(invoice.id)).toEqual(invoice);
  });

  it("leaves a void invoice as it was: its deliveries are free, and its profit never moves", async () => {
    const d = await delivery();
    const invoice = await invoiceOf(d.id);
    expect((await voidInvoice(manager, invoice.id, { reason: "Wrong client" })).ok).toBe(true);
    expect((await updateDelivery(manager, d.id, { logisticsCost: "1.00" })).ok).toBe(true);
    expect((await invoiceRow(invoice.id)).profit).toBe("110000.00");
    expect(await statementOutcome(sql`update invoices set profit = 0 where id = ${invoice.id}`)).toMatch(
      /is issued: .* its profit only follows its deliveries' costs/,
    );
  });

  it("is held by the database: a cost written behind the app's back, or a made-up profit, is refused", async () => {
    const d = await delivery();
    const invoice = await invoiceOf(d.id);
    expect(await statementOutcome(sql`update deliveries set logistics_cost = 1 where id = ${d.id}`)).toMatch(
      /invoice \d+ says profit 110000.00, but its deliveries come to 129999.00/,
    );
    expect(await statementOutcome(sql`update invoices set profit = profit + 1 where id = ${invoice.id}`)).toMatch(
      /its profit only follows its deliveries' costs/,
    );
    expect(await invoiceRow(invoice.id)).toEqual(invoice);
  });

  it("is checked by db:check when the two differ (a hand edit with triggers off)", async () => {
    const d = await delivery();
    const invoice = await invoiceOf(d.id);
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update deliveries set other_costs = 5 where id = ${d.id}`);
    });
    expect(await profitBreaches()).toEqual([
      {
        check: "invoice profit equals its deliveries' profit",
        detail: `invoice ${invoice.invoiceNo}: profit 110000.00, deliveries 109995.00`,
      },
    ]);
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`update deliveries set other_costs = null where id = ${d.id}`);
    });
    expect(await profitBreaches()).toEqual([]);
  });
});

describe("an invoice's due date counts from the day it is issued", () => {
  it("makes an invoice of months-old deliveries due the client's terms after today, not overdue", async () => {
    // Delivered in June, invoiced on 28 Nov: due 28 Dec, not 29 Jul.
    const d = await delivery({ date: addDays(today(), -150) });
    const preview = await previewInvoice(manager, d.id);
    expect(preview).toMatchObject({ issueDate: today(), expectedPaymentDate: addDays(today(), 30) });
    const invoice = await invoiceOf(d.id);
    expect(invoice).toMatchObject({ issueDate: today(), expectedPaymentDate: addDays(today(), 30) });
    expect(await getInvoice(manager, invoice.id)).toMatchObject({ paymentStatus: "pending" });
  });

  it("does the same for a month's invoice", async () => {
    const month = addDays(today(), -200).slice(0, 7);
    const late = (await createClient({ name: "Late Month Client", paymentTermsDays: 14 })).id;
    await delivery({ clientId: late, date: `${month}-28` });
    const made = await createInvoicesForMonth(manager, month);
    if (!made.ok) throw new Error(made.message);
    expect(made.invoices.map((i) => i.expectedPaymentDate)).toEqual([addDays(today(), 14)]);
  });

  it("is the spec's delivery date + terms for an invoice made the day of its delivery", async () => {
    const d = await delivery({ date: "2025-06-10" });
    const invoice = await invoiceOf(d.id, new Date("2025-06-10T15:00:00Z"));
    expect(invoice).toMatchObject({ issueDate: "2025-06-10", expectedPaymentDate: "2025-07-10" });
  });
});

describe("Total Payments counts the payments received that stand", () => {
  it("counts neither a reversal nor the payment it takes back, on every filter, and the total is net", async () => {
    const own = (await createClient({ name: "Payments Count Client" })).id;
    const inv = await invoiceOf((await delivery({ clientId: own })).id);
    const paidOn = today();
    const first = await recordPayment(manager, { invoiceId: inv.id, amount: "1000.00", paymentDate: paidOn });
    const second = await recordPayment(manager, { invoiceId: inv.id, amount: "250.00", paymentDate: paidOn });
    if (!first.ok || !second.ok) throw new Error("payment refused");
    const reversed = await reversePayment(admin, first.payment.id, { reason: "Wrong invoice" });
    expect(reversed.ok).toBe(true);
    const expected = { count: 1, total: "250.00" };
    expect(await paymentTotals(manager, { clientId: own })).toEqual(expected);
    expect(await paymentTotals(manager, { clientId: own, from: paidOn, to: paidOn })).toMatchObject({ count: 1 });
    expect(await paymentTotals(manager, { invoiceNo: inv.invoiceNo })).toEqual(expected);
    // The kept count equals a recount after the rebuild.
    const db = await getDb();
    const kept = async () =>
      (
        await db
          .select({ n: sql<number>`coalesce(sum(received), 0)::int` })
          .from(schema.paymentDayTotals)
          .where(eq(schema.paymentDayTotals.clientId, own))
      )[0].n;
    expect(await kept()).toBe(1);
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(await kept()).toBe(1);
  });
});

// Last: closing a month holds for the rest of the file.
describe("a closed month", () => {
  it("refuses a cost change of an invoiced delivery in it, and the invoice's profit stays", async () => {
    const d = await delivery({ date: "2024-02-10" });
    const invoice = await invoiceOf(d.id, new Date("2024-02-12T10:00:00Z"));
    expect((await closeMonth(admin, { month: "2024-02" })).ok).toBe(true);
    expect(await updateDelivery(manager, d.id, { logisticsCost: "1.00" })).toMatchObject({ ok: false, status: 409 });
    expect(await invoiceRow(invoice.id)).toEqual(invoice);
  });
});

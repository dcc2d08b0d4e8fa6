// Receipts over several invoices with withholding (docs/decisions/1240), on both drivers: one
// transaction per receipt, oldest due first unless chosen, the WHT on the VAT-exclusive amount,
// each invoice's balance = amount - paid - withheld - credited and its status following, receipts
// racing for one balance never over-settling it, a reversal restoring every balance, bad input
// refused with nothing written, and db:check holding the withheld totals to their rows.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { closeMonth } from "../../app/models/period.server";
import { recordReceipt } from "../../app/services/receipts/record-receipt.server";
import { reverseReceipt, RECEIPT_ALREADY_REVERSED } from "../../app/services/receipts/reverse-receipt.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { receiptPartMessage, reversePayment } from "../../app/services/payments/reverse-payment.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { findBreaches } from "../../db/ops";
import { expectEveryEventWorded } from "../audit-words";
import { createAgent, createClient, createUser } from "../factories";
import {
  auditEvents,
  expectKeptTotalsToMatchRebuild,
  invoiceOfTenThousand,
  invoiceRow,
  rewriteInvoice,
} from "../money-entries";

const today = () => todayIn("Africa/Lagos");
let admin: User;
let manager: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
});

/** A client at VAT 7.5 % withholding WHT at `whtRate`, with `n` invoices of 10,000.00, the 2nd due first. */
async function clientWithInvoices(n: number, whtRate = "5.00", withholdsVat = false) {
  const clientId = (await createClient({ taxRate: "7.50", whtRate, withholdsVat })).id;
  const invoices = [];
  for (let i = 0; i < n; i++) invoices.push((await invoiceOfTenThousand(manager, agentId, clientId)).invoice);
  if (n > 1) await rewriteInvoice(invoices[1].id, { expectedPaymentDate: addDays(today(), 1) });
  return { clientId, invoices };
}

async function counts() {
  const db = await getDb();
  return rowsOf<{ receipts: number; payments: number; withholdings: number }>(
    await db.execute(sql`select
      (select count(*) from receipts)::int as receipts, (select count(*) from payments)::int as payments,
      (select count(*) from withholdings)::int as withholdings, (select count(*) from audit_events)::int as events`),
  )[0];
}

describe("a receipt over three invoices with withholding", () => {
  it("settles each with cash plus the WHT on its VAT-exclusive amount, and each invoice is paid", async () => {
    const { clientId, invoices } = await clientWithInvoices(3);
    // 10,000 at VAT 7.5 and WHT 5: 465.12 withheld (10,000 x 5 / 107.5 = 465.116), 9,534.88 cash each.
    const made = await recordReceipt(manager, { clientId, amount: "28604.64", reference: "TRF-3INV" });
    if (!made.ok) throw new Error(made.message);
    expect(made.receipt).toMatchObject({
      amount: "28604.64",
      settled: "30000.00",
      withheld: "1395.36",
      reversed: false,
    });
    expect(made.receipt.allocations).toHaveLength(3);
    for (const a of made.receipt.allocations)
      expect(a).toMatchObject({ amount: "10000.00", cash: "9534.88", wht: "465.12", vatWithheld: "0.00" });
    for (const invoice of invoices)
      expect(await invoiceRow(invoice.id)).toMatchObject({
        amountPaid: "9534.88",
        amountWithheld: "465.12",
        paymentStatus: "paid",
      });
    expect(await findBreaches(await getDb())).toEqual([]);
    await expectKeptTotalsToMatchRebuild([
      "payment_day_totals",
      "invoice_status_rollup",
      "client_owed_totals",
      "client_balances",
    ]);
  });

  it("goes to the oldest due first, and the cash that does not settle an invoice whole is grossed up", async () => {
    const { clientId, invoices } = await clientWithInvoices(3);
    const made = await recordReceipt(manager, { clientId, amount: "15000.00" });
    if (!made.ok) throw new Error(made.message);
    const [first, second] = made.receipt.allocations;
    // Invoice 2 is due first (its due date was moved a day earlier than the others'): it is paid whole.
    expect(first).toMatchObject({ invoiceId: invoices[0].id }); // allocations read back in id order
    const byId = new Map(made.receipt.allocations.map((a) => [a.invoiceId, a]));
    expect(byId.get(invoices[1].id)).toMatchObject({ amount: "10000.00", cash: "9534.88", wht: "465.12" });
    // 5,465.12 left: settles 5,465.12 x 107.5 / 102.5 = 5,731.71 of the next oldest, 266.59 withheld.
    expect(byId.get(invoices[0].id)).toMatchObject({ cash: "5465.12", amount: "5731.71", wht: "266.59" });
    expect(byId.has(invoices[2].id)).toBe(false);
    expect(second).toBeDefined();
    expect(await invoiceRow(invoices[1].id)).toMatchObject({ paymentStatus: "paid" });
    expect(await invoiceRow(invoices[0].id)).toMatchObject({
      amountPaid: "5465.12",
      amountWithheld: "266.59",
      paymentStatus: "partial",
    });
  });

  it("takes invoices and amounts chosen by hand, and the VAT a client withholds", async () => {
    const { clientId, invoices } = await clientWithInvoices(2, "2.00", true);
    // 5,000 of invoice 1: WHT 5,000 x 2 / 107.5 = 93.02, VAT 5,000 x 7.5 / 107.5 = 348.84, cash 4,558.14.
    const made = await recordReceipt(manager, {
      clientId,
      amount: "4558.14",
      allocations: [{ invoiceId: invoices[0].id, amount: "5000.00" }],
    });
    if (!made.ok) throw new Error(made.message);
    expect(made.receipt.allocations).toEqual([
      expect.objectContaining({
        invoiceId: invoices[0].id,
        amount: "5000.00",
        cash: "4558.14",
        wht: "93.02",
        vatWithheld: "348.84",
      }),
    ]);
    expect(await invoiceRow(invoices[0].id)).toMatchObject({ amountWithheld: "441.86", paymentStatus: "partial" });
    expect(await invoiceRow(invoices[1].id)).toMatchObject({ amountPaid: "0.00", paymentStatus: "pending" });
  });

  it("lands once under one request key, audited once", async () => {
    const { clientId } = await clientWithInvoices(1, "0");
    const before = await auditEvents("receipt.create");
    const key = `receipt-${Date.now()}`;
    const a = await recordReceipt(manager, { clientId, amount: "1000.00" }, new Date(), { idempotencyKey: key });
    const b = await recordReceipt(manager, { clientId, amount: "1000.00" }, new Date(), { idempotencyKey: key });
    expect(a).toMatchObject({ ok: true, replayed: false });
    expect(b).toMatchObject({ ok: true, replayed: true });
    if (!a.ok || !b.ok) throw new Error("refused");
    expect(b.receipt.id).toBe(a.receipt.id);
    expect(await auditEvents("receipt.create")).toBe(before + 1);
    await expectEveryEventWorded();
  });
});

describe("what a receipt refuses, with nothing written", () => {
  it("names the problem: another client's invoice, more than a balance or than the cash, amounts and dates", async () => {
    const { clientId, invoices } = await clientWithInvoices(2);
    const other = await clientWithInvoices(1);
    expect(await closeMonth(admin, { month: "2025-02" })).toMatchObject({ ok: true });
    const before = await counts();
    const refused = async (input: Record<string, unknown>, status: number, field: string) => {
      const result = await recordReceipt(manager, { clientId, amount: "1000.00", ...input });
      expect(result, JSON.stringify(input)).toMatchObject({ ok: false, status });
      if (!result.ok) expect(Object.keys(result.fieldErrors ?? {}), JSON.stringify(input)).toContain(field);
    };
    await refused({ allocations: [{ invoiceId: other.invoices[0].id, amount: "100.00" }] }, 400, "allocations");
    await refused({ allocations: [{ invoiceId: invoices[0].id, amount: "10000.01" }] }, 409, "allocations");
    // 2,000 settled is 1,906.98 of cash: more than the 1,000.00 received.
    await refused({ allocations: [{ invoiceId: invoices[0].id, amount: "2000.00" }] }, 409, "allocations");
    await refused({ allocations: [{ invoiceId: invoices[0].id, amount: "1.005" }] }, 400, "allocations");
    await refused(
      {
        allocations: [
          { invoiceId: invoices[0].id, amount: "5" },
          { invoiceId: invoices[0].id, amount: "5" },
        ],
      },
      400,
      "allocations",
    );
    await refused({ allocations: "all of them" }, 400, "allocations");
    await refused({ amount: "0" }, 400, "amount");
    await refused({ amount: "-5.00" }, 400, "amount");
    await refused({ amount: "10.001" }, 400, "amount");
    await refused({ amount: "100000.00" }, 409, "amount"); // more than the client owes
    await refused({ date: addDays(today(), 1) }, 400, "date");
    await refused({ clientId: "x" }, 400, "clientId");
    expect(await recordReceipt(manager, { clientId: 99999999, amount: "1.00" })).toMatchObject({
      ok: false,
      status: 404,
    });
    await refused({ date: "2025-02-10" }, 409, "date");
    // Staff may not record money in.
    const staff = await createUser({ role: "staff" });
    expect(await recordReceipt(staff, { clientId, amount: "1.00" })).toMatchObject({ ok: false, status: 403 });
    expect(await counts()).toEqual(before);
  });
});

describe("receipts racing for one invoice's last balance", () => {
  it("never over-settle it: the second sees what the first settled", async () => {
    const { clientId, invoices } = await clientWithInvoices(1, "5.00");
    // Each alone would settle the invoice whole (9,534.88 of cash); together, one must be refused.
    const results = await Promise.all(
      Array.from({ length: 4 }, () => recordReceipt(manager, { clientId, amount: "9534.88" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(3);
    expect(await invoiceRow(invoices[0].id)).toMatchObject({
      amountPaid: "9534.88",
      amountWithheld: "465.12",
      paymentStatus: "paid",
    });
    // And a part: two of 6,000 settle no more than the balance between them.
    const two = await clientWithInvoices(1, "0");
    const raced = await Promise.all([
      recordReceipt(manager, { clientId: two.clientId, amount: "6000.00" }),
      recordReceipt(manager, { clientId: two.clientId, amount: "6000.00" }),
    ]);
    expect(raced.filter((r) => r.ok)).toHaveLength(1);
    expect(await invoiceRow(two.invoices[0].id)).toMatchObject({ amountPaid: "6000.00", paymentStatus: "partial" });
    expect(await findBreaches(await getDb())).toEqual([]);
  });
});

describe("reversing a receipt", () => {
  it("restores every balance and status, once, and db:check and the kept totals agree", async () => {
    const { clientId, invoices } = await clientWithInvoices(3);
    const made = await recordReceipt(manager, { clientId, amount: "20000.00" });
    if (!made.ok) throw new Error(made.message);
    expect(await reverseReceipt(manager, made.receipt.id, { reason: "Wrong client" })).toMatchObject({
      ok: false,
      status: 403,
    });
    const reversed = await reverseReceipt(admin, made.receipt.id, { reason: "Wrong client" });
    expect(reversed).toMatchObject({ ok: true, receipt: { reversed: true } });
    for (const invoice of invoices)
      expect(await invoiceRow(invoice.id)).toMatchObject({
        amountPaid: "0.00",
        amountWithheld: "0.00",
        paymentStatus: "pending",
      });
    expect(await reverseReceipt(admin, made.receipt.id, { reason: "Again" })).toMatchObject({
      ok: false,
      status: 409,
      message: RECEIPT_ALREADY_REVERSED,
    });
    expect(await reverseReceipt(admin, made.receipt.id, { reason: "" })).toMatchObject({ ok: false, status: 400 });
    expect(await reverseReceipt(admin, 99999999, { reason: "x" })).toMatchObject({ ok: false, status: 404 });
    const db = await getDb();
    const rows = await db.select().from(schema.withholdings).where(eq(schema.withholdings.receiptId, made.receipt.id));
    // 20,000 settled two invoices whole and 930.24 of cash the third: three withholdings taken back.
    expect(rows.filter((w) => w.reversesWithholdingId !== null)).toHaveLength(3);
    expect(await findBreaches(db)).toEqual([]);
    await expectKeptTotalsToMatchRebuild([
      "payment_day_totals",
      "invoice_status_rollup",
      "client_owed_totals",
      "client_balances",
    ]);
    await expectEveryEventWorded();
  });

  it("a payment of a receipt over several invoices goes back only with the receipt", async () => {
    const { clientId } = await clientWithInvoices(2, "0");
    const made = await recordReceipt(manager, { clientId, amount: "15000.00" });
    if (!made.ok) throw new Error(made.message);
    const db = await getDb();
    const [payment] = await db.select().from(schema.payments).where(eq(schema.payments.receiptId, made.receipt.id));
    expect(await reversePayment(admin, payment.id, { reason: "x" })).toMatchObject({
      ok: false,
      status: 409,
      message: receiptPartMessage(made.receipt.id),
    });
  });
});

describe("Record Payment: a one-invoice cash receipt", () => {
  it("writes the receipt with its payment, and reversing the payment reverses the receipt", async () => {
    const { invoices } = await clientWithInvoices(1, "5.00");
    const paid = await recordPayment(manager, { invoiceId: invoices[0].id, amount: "4000.00", reference: "TRF-ONE" });
    if (!paid.ok) throw new Error(paid.message);
    expect(paid.payment.receiptId).not.toBeNull();
    const db = await getDb();
    const [receipt] = await db.select().from(schema.receipts).where(eq(schema.receipts.id, paid.payment.receiptId!));
    expect(receipt).toMatchObject({ amount: "4000.00", reference: "TRF-ONE" });
    // Cash only: nothing withheld on a payment recorded this way.
    expect(await invoiceRow(invoices[0].id)).toMatchObject({ amountPaid: "4000.00", amountWithheld: "0.00" });
    expect(await reversePayment(admin, paid.payment.id, { reason: "Typo" })).toMatchObject({ ok: true });
    expect(await reverseReceipt(admin, receipt.id, { reason: "Again" })).toMatchObject({ ok: false, status: 409 });
    expect(await findBreaches(db)).toEqual([]);
  });
});

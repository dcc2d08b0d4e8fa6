// Reversing a client payment recorded in error (docs/decisions/0920), on
// both drivers: the payment stays, a negative row dated the day of the reversal names it, the
// invoice is owed the amount again (paid total and status in the same transaction), once and
// only once (also when reversals race), with a reason, audited, idempotent, refused in a closed
// month and for anyone but an admin; the payments list, the invoice page and document, the
// client statement, the CSV exports and the kept totals all agree.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { getPaymentToReverse, listPayments, paymentTotals } from "../../app/presenters/payments.server";
import { PAYMENT_REVERSAL_NOT_REVERSIBLE, reversePayment } from "../../app/services/payments/reverse-payment.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth } from "../../app/models/period.server";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { paymentsExport } from "../../app/presenters/exports.server";
import { clientStatementExport } from "../../app/presenters/statement-exports.server";
import { loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { receivedAmount, receivedLabel } from "../../app/utils/money-line-words";
import * as reverseDialog from "../../app/routes/_app.payments.$id.reverse";
import * as reversalApi from "../../app/routes/api.payments.$id.reversal";
import * as voidRoute from "../../app/routes/_app.invoices_.$id.void";
import { todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import {
  auditEvents,
  behindTotals,
  csvText,
  expectKeptTotalsToMatchRebuild,
  invoiceOfTenThousand,
  invoiceRow,
  paidAndRecount,
  statementOutcome,
} from "../money-entries";
import { expectEveryEventWorded } from "../audit-words";

const today = () => todayIn("Africa/Lagos");
let admin: User;
let manager: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
});

/** An invoice of 10,000.00 for a client of its own, with one payment of `amount` made today. */
async function paidInvoice(amount = "10000.00") {
  const { clientId, invoice: made } = await invoiceOfTenThousand(manager, agentId);
  const paid = await recordPayment(manager, { invoiceId: made.id, amount, reference: "TRF-1" });
  if (!paid.ok) throw new Error(paid.message);
  return { clientId, invoice: made, payment: paid.payment };
}

describe("reversing a payment", () => {
  it("adds a negative row dated today that names the payment; the invoice is owed the amount again", async () => {
    const { invoice, payment } = await paidInvoice("4000.50");
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "4000.50", paymentStatus: "partial" });
    const before = await auditEvents("payment.reverse");

    const result = await reversePayment(admin, payment.id, { reason: "  Recorded on the wrong invoice  " });
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({
      replayed: false,
      payment: { id: payment.id },
      invoiceNo: invoice.invoiceNo,
      amountPaid: "0.00",
      paymentStatus: "pending",
    });
    expect(result.reversal).toMatchObject({
      invoiceId: invoice.id,
      amount: "-4000.50",
      paymentDate: today(),
      reference: "TRF-1",
      note: "Recorded on the wrong invoice",
      reversesPaymentId: payment.id,
      createdBy: admin.id,
    });
    // The payment itself is unchanged; the invoice's paid total equals its payments' sum.
    const db = await getDb();
    const [kept] = await db.select().from(schema.payments).where(eq(schema.payments.id, payment.id));
    expect(kept).toEqual(payment);
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });
    expect(await invoiceRow(invoice.id)).toMatchObject({ paymentStatus: "pending" });
    expect(await auditEvents("payment.reverse")).toBe(before + 1);

    // The Payments list shows both, the reversal first; the dialog knows it was reversed.
    const listed = await listPayments(admin, { invoiceNo: invoice.invoiceNo });
    expect(listed.items.map((p) => [p.amount, p.reversesPaymentId, p.note, p.reversedOn])).toEqual([
      ["-4000.50", payment.id, "Recorded on the wrong invoice", null],
      ["4000.50", null, null, today()],
    ]);
    // A payment reversed is no payment, and its reversal is none either (decision 0300, "Total Payments").
    expect(await paymentTotals(admin, { invoiceNo: invoice.invoiceNo })).toEqual({ count: 0, total: "0.00" });
    expect(await getPaymentToReverse(admin, payment.id)).toMatchObject({ reversedOn: today() });
    expect(await getPaymentToReverse(admin, result.reversal.id)).toBeNull();

    // The invoice page lists both, and an invoice that had a payment still cannot be voided.
    const detail = await getInvoiceDetail(admin, invoice.id);
    expect(detail!.payments.items.map((p) => [p.amount, p.reversesPaymentId, p.reversedOn])).toEqual([
      ["-4000.50", payment.id, null],
      ["4000.50", null, today()],
    ]);
    expect(await voidInvoice(manager, invoice.id, { reason: "Wrong" })).toMatchObject({ ok: false, status: 409 });
    // The Void dialog says so instead of offering a form that would be refused.
    const { cookie } = await loginAs("manager");
    const voidDialog = await call(voidRoute.loader, makeRequest(`/invoices/${invoice.id}/void`, { cookie }), {
      id: String(invoice.id),
    });
    expect(voidDialog).toMatchObject({ status: 200, body: { invoice: { voidable: false } } });
  });

  it("takes a paid invoice back to partial, and a new payment may settle it again, never more", async () => {
    const { invoice } = await paidInvoice("6000.00");
    const second = await recordPayment(manager, { invoiceId: invoice.id, amount: "4000.00" });
    if (!second.ok) throw new Error(second.message);
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "10000.00", paymentStatus: "paid" });
    const reversed = await reversePayment(admin, second.payment.id, { reason: "Cheque bounced" });
    expect(reversed).toMatchObject({ ok: true, amountPaid: "6000.00", paymentStatus: "partial" });
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "4000.01" })).toMatchObject({
      ok: false,
      status: 409,
      message: "Amount exceeds the remaining balance of ₦4,000.00",
    });
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "4000.00" })).toMatchObject({
      ok: true,
      paymentStatus: "paid",
    });
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "10000.00", recount: "10000.00" });
  });

  it("shows on the client statement as a negative credit, in the statement's CSV and on the invoice document", async () => {
    const { clientId, invoice, payment } = await paidInvoice("2500.00");
    const reversed = await reversePayment(admin, payment.id, { reason: "Bank reversed the transfer" });
    if (!reversed.ok) throw new Error(reversed.message);
    const period = { from: today(), to: today() };
    const made = await clientStatement(admin, clientId, period);
    if (!made.ok) throw new Error(made.message);
    const { statement } = made;
    expect(statement.lines.map((l) => [l.kind, l.debit, l.credit, l.balance, l.reversesPaymentId, l.note])).toEqual([
      ["invoice", "10000.00", "0.00", "10000.00", null, null],
      ["payment", "0.00", "2500.00", "7500.00", null, null],
      ["payment_reversal", "0.00", "-2500.00", "10000.00", payment.id, "Bank reversed the transfer"],
    ]);
    // Invoiced 10,000; paid and credited net of the reversal: nothing.
    expect(statement).toMatchObject({ totalDebits: "10000.00", totalCredits: "0.00", closingBalance: "10000.00" });

    const csv = await clientStatementExport(admin, clientId, new URLSearchParams(period));
    if (!csv || "invalid" in csv) throw new Error("no export");
    const text = await csvText(csv.batches);
    expect(text).toContain('"type":"Payment reversal"');
    expect(text).toContain(`"reference":"Reverses payment #${payment.id}: Bank reversed the transfer"`);

    const payments = paymentsExport(admin, new URLSearchParams({ invoiceNo: invoice.invoiceNo }));
    if ("invalid" in payments) throw new Error("no export");
    const note = payments.columns.find((c) => c.header === "Note")!;
    const rows: Parameters<typeof note.value>[0][] = [];
    for await (const batch of payments.batches) rows.push(...batch);
    expect(rows.map((r) => note.value(r))).toEqual([
      `Reverses payment #${payment.id}: Bank reversed the transfer`,
      `Reversed on ${today()}`,
    ]);

    const document = await loadInvoiceDocument(admin, invoice.id);
    expect(document!.received.map((r) => [receivedLabel(r), receivedAmount(r)])).toEqual([
      [expect.stringMatching(/^Payment .* \(TRF-1\)$/), "-₦2,500.00"],
      [expect.stringMatching(new RegExp(`^Payment reversed .*Reverses payment #${payment.id}`)), "+₦2,500.00"],
    ]);
    expect(document!.balance).toBe("10000.00");
  });

  it("refuses a second reversal, a reversal of a reversal, an unknown payment, no reason and a manager; writes nothing", async () => {
    const { invoice, payment } = await paidInvoice();
    const first = await reversePayment(admin, payment.id, { reason: "Duplicate" });
    if (!first.ok) throw new Error(first.message);
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.payments))[0].n;
    const rows = await count();
    const reverseEvents = await auditEvents("payment.reverse");
    const other = await paidInvoice("100.00");
    const otherRows = rows + 1;
    expect(await reversePayment(admin, payment.id, { reason: "Again" })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/^This payment was already reversed on [A-Z][a-z]{2} \d\d, \d{4}$/),
    });
    expect(await reversePayment(admin, first.reversal.id, { reason: "Undo" })).toMatchObject({
      ok: false,
      status: 409,
      message: PAYMENT_REVERSAL_NOT_REVERSIBLE,
    });
    expect(await reversePayment(admin, 99_999_999, { reason: "x" })).toMatchObject({ status: 404 });
    expect(await reversePayment(admin, other.payment.id, { reason: "   " })).toMatchObject({
      status: 400,
      fieldErrors: { reason: ["Reason is required"] },
    });
    expect(await reversePayment(manager, other.payment.id, { reason: "x" })).toMatchObject({ status: 403 });
    expect(await count()).toBe(otherRows);
    expect(await auditEvents("payment.reverse")).toBe(reverseEvents);
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "0.00" });
    expect(await invoiceRow(other.invoice.id)).toMatchObject({ amountPaid: "100.00" });
  });

  it("three reversals of one payment at once: one lands, the others are refused", async () => {
    const { invoice, payment } = await paidInvoice("3000.00");
    const results = await Promise.all(
      ["Race one", "Race two", "Race three"].map((reason) => reversePayment(admin, payment.id, { reason })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.status))).toEqual([409, 409]);
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });
  });

  it("is idempotent under one key, and refused while today's month is closed", async () => {
    const { payment } = await paidInvoice();
    const key = `reverse-payment-${payment.id}`;
    const first = await reversePayment(admin, payment.id, { reason: "Keyed" }, new Date(), { idempotencyKey: key });
    const again = await reversePayment(admin, payment.id, { reason: "Keyed" }, new Date(), { idempotencyKey: key });
    if (!first.ok || !again.ok) throw new Error("not reversed");
    expect(again).toMatchObject({ replayed: true, reversal: { id: first.reversal.id }, amountPaid: "0.00" });

    // With February 2025 closed, a reversal made (by the clock) then is refused.
    const closed = await paidInvoice();
    expect(await closeMonth(admin, { month: "2025-02" })).toMatchObject({ ok: true });
    expect(
      await reversePayment(admin, closed.payment.id, { reason: "Late" }, new Date("2025-02-15T10:00:00Z")),
    ).toMatchObject({ ok: false, status: 409, message: expect.stringContaining("This month is closed") });
    expect(await invoiceRow(closed.invoice.id)).toMatchObject({ amountPaid: "10000.00" });
  });

  it("keeps the payment totals, the status roll-up and what clients owe equal to a recount", async () => {
    const { payment } = await paidInvoice("7000.00");
    expect(await reversePayment(admin, payment.id, { reason: "Recount" })).toMatchObject({ ok: true });
    await expectKeptTotalsToMatchRebuild(["payment_day_totals", "invoice_status_rollup", "client_owed_totals"]);
  });
});

describe("the Reverse Payment form and its JSON twin", () => {
  it("the form redirects to the Payments list as it was filtered, once per key; no reason is a 400", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice, payment } = await paidInvoice();
    const params = { id: String(payment.id) };
    const path = `/payments/${payment.id}/reverse?invoiceNo=${invoice.invoiceNo}`;
    const shown = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect(shown).toMatchObject({
      status: 200,
      body: { payment: { id: payment.id, amount: "10000.00" }, invoiceNo: invoice.invoiceNo, reversedOn: null },
    });

    const empty = await call(
      reverseDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { reason: "" } }),
      params,
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain("Reason is required");
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "10000.00" });

    const form = { reason: "Entered twice", idempotencyKey: `form-${payment.id}` };
    const done = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/payments?invoiceNo=${invoice.invoiceNo}`);
    const twice = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(twice.status).toBe(302);
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });

    const after = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect((after.body as { reversedOn: string | null }).reversedOn).toBe(today());
    const missing = await call(reverseDialog.loader, makeRequest(`/payments/999999/reverse`, { cookie }), {
      id: "999999",
    });
    expect(missing.status).toBe(404);
  });

  it("POST /api/payments/{id}/reversal: 201, 200 on a replay, 409 after, 404 unknown, 405 for GET", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice, payment } = await paidInvoice("1234.56");
    const path = `/api/payments/${payment.id}/reversal`;
    const params = { id: String(payment.id) };
    const headers = { "Idempotency-Key": `api-${payment.id}` };
    const send = (json: unknown, h: Record<string, string> = headers) =>
      call(reversalApi.action, makeRequest(path, { method: "POST", cookie, json, headers: h }), params);
    expect((await send({})).status).toBe(400);
    const first = await send({ reason: "Typed the wrong amount" });
    expect(first).toMatchObject({
      status: 201,
      body: {
        amount: "-1234.56",
        reversesPaymentId: payment.id,
        note: "Typed the wrong amount",
        invoiceNo: invoice.invoiceNo,
        amountPaid: "0.00",
        paymentStatus: "pending",
      },
    });
    const replay = await send({ reason: "Typed the wrong amount" });
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await send({ reason: "Again" }, {})).toMatchObject({ status: 409 });
    const unknown = await call(
      reversalApi.action,
      makeRequest(`/api/payments/999999/reversal`, { method: "POST", cookie, json: { reason: "x" } }),
      { id: "999999" },
    );
    expect(unknown.status).toBe(404);
    expect((await call(reversalApi.loader, makeRequest(path, { cookie }), params)).status).toBe(405);
  });
});

describeAccess("payment reversals", [
  {
    name: "reverse payment dialog",
    handler: reverseDialog.loader,
    method: "GET",
    path: "/payments/1/reverse",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse payment",
    handler: reverseDialog.action,
    method: "POST",
    path: "/payments/1/reverse",
    params: { id: "1" },
    form: { reason: "" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse payment (JSON)",
    handler: reversalApi.action,
    method: "POST",
    path: "/api/payments/1/reversal",
    params: { id: "1" },
    json: { reason: "" },
    allowed: ["admin"],
  },
]);

describe("the payments table keeps its own rules", () => {
  it("refuses a negative amount without a payment to reverse, a positive reversal, and a second reversal", async () => {
    const { invoice, payment } = await paidInvoice();
    const other = await paidInvoice();
    // Behind the app, so the invoice's totals do not move: their own check is off here.
    const insert = (values: Partial<typeof schema.payments.$inferInsert>) =>
      behindTotals((tx) =>
        tx
          .insert(schema.payments)
          .values({ invoiceId: invoice.id, amount: "-10000.00", paymentDate: today(), ...values })
          .returning(),
      );
    await expect(insert({})).rejects.toThrow();
    await expect(insert({ amount: "10000.00", reversesPaymentId: payment.id })).rejects.toThrow();
    await expect(insert({ amount: "0.00" })).rejects.toThrow();
    // Not the whole amount, another invoice's payment: refused by the table itself.
    await expect(insert({ amount: "-1.00", reversesPaymentId: payment.id })).rejects.toThrow();
    await expect(insert({ reversesPaymentId: other.payment.id })).rejects.toThrow();
    const [reversal] = await insert({ reversesPaymentId: payment.id });
    await expect(insert({ reversesPaymentId: payment.id })).rejects.toThrow();
    // A reversal of a reversal.
    await expect(insert({ amount: "10000.00", reversesPaymentId: reversal.id })).rejects.toThrow();
  });

  it("never rewrites or removes a payment", async () => {
    const { payment } = await paidInvoice();
    for (const statement of [
      sql`update payments set amount = 1 where id = ${payment.id}`,
      sql`delete from payments where id = ${payment.id}`,
      sql`truncate payments cascade`,
    ]) {
      expect(await statementOutcome(statement)).toMatch(/payments is append-only/);
    }
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

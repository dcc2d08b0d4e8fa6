// Refunding a client credit (docs/decisions/0920, "Money entries after the fact"), on both
// drivers: a credit note issued after an invoice was paid leaves the client a credit on it; an
// admin pays it back as a negative payment marked `refund`, with a reason, at most the credit
// (also when refunds race), dated as a payment is, audited, idempotent, refused in a closed month
// and for anyone but an admin; a refund recorded in error is reversed like a payment, giving the
// credit back; the Payments list and CSV, the invoice page and document, the client statement and
// the kept totals all agree.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { paymentReversalText } from "../../app/utils/money-line-words";
import { reverseCreditNote } from "../../app/services/invoices/reverse-credit-note.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import { listInvoices } from "../../app/presenters/invoice-list.server";
import * as invoicesPage from "../../app/routes/_app.invoices";
import { listPayments, paymentTotals } from "../../app/presenters/payments.server";
import { NO_CLIENT_CREDIT, refundClientCredit } from "../../app/services/payments/refund-credit.server";
import {
  REFUND_CREDIT_GONE,
  REVERSE_REFUND_FIRST,
  reversePayment,
} from "../../app/services/payments/reverse-payment.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth } from "../../app/models/period.server";
import { addDays } from "../../app/utils/dates";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { paymentsExport } from "../../app/presenters/exports.server";
import { clientStatementExport } from "../../app/presenters/statement-exports.server";
import { loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { receivedAmount, receivedLabel } from "../../app/utils/money-line-words";
import * as refundDialog from "../../app/routes/_app.invoices_.$id.refund";
import * as refundApi from "../../app/routes/api.invoices.$id.refunds";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import {
  auditEvents,
  behindTotals,
  invoiceOfTenThousand,
  invoiceRow,
  paidAndRecount,
  rewriteInvoice,
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

/** An invoice of 10,000.00 for a client of its own, paid in full, then credited `credit`: the client's credit. */
async function creditInvoice(credit = "1500.00") {
  const { clientId, invoice: made } = await invoiceOfTenThousand(manager, agentId);
  const paid = await recordPayment(manager, { invoiceId: made.id, amount: "10000.00", reference: "TRF-9" });
  if (!paid.ok) throw new Error(paid.message);
  const credited = await createCreditNote(manager, made.id, { amount: credit, reason: "Wet shells" });
  if (!credited.ok) throw new Error(credited.message);
  return { clientId, invoice: made, payment: paid.payment, creditNote: credited.creditNote };
}

describe("refunding a client credit", () => {
  it("adds a negative refund row with its reason; the invoice's paid total goes down by it and the credit is gone", async () => {
    const { invoice } = await creditInvoice("1500.25");
    expect(await invoiceRow(invoice.id)).toMatchObject({
      amountPaid: "10000.00",
      amountCredited: "1500.25",
      paymentStatus: "paid",
    });
    const before = await auditEvents("payment.refund");
    const result = await refundClientCredit(admin, invoice.id, {
      amount: "1000.25",
      reference: "RF-1",
      reason: "  Paid back by transfer  ",
    });
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({
      replayed: false,
      invoiceNo: invoice.invoiceNo,
      amountPaid: "8999.75",
      paymentStatus: "paid",
      creditLeft: "500.00",
    });
    expect(result.refund).toMatchObject({
      invoiceId: invoice.id,
      amount: "-1000.25",
      paymentDate: today(),
      reference: "RF-1",
      note: "Paid back by transfer",
      refund: true,
      reversesPaymentId: null,
      createdBy: admin.id,
    });
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "8999.75", recount: "8999.75" });
    expect(await auditEvents("payment.refund")).toBe(before + 1);

    // The rest of the credit, and no more.
    expect(await refundClientCredit(admin, invoice.id, { amount: "500.01", reason: "Too much" })).toMatchObject({
      ok: false,
      status: 409,
      message: "A refund can be at most the client credit of ₦500.00",
      fieldErrors: { amount: ["A refund can be at most the client credit of ₦500.00"] },
    });
    expect(await refundClientCredit(admin, invoice.id, { amount: "500.00", reason: "The rest" })).toMatchObject({
      ok: true,
      amountPaid: "8499.75",
      creditLeft: "0.00",
    });
    expect(await refundClientCredit(admin, invoice.id, { amount: "0.01", reason: "Again" })).toMatchObject({
      ok: false,
      status: 409,
      message: NO_CLIENT_CREDIT,
    });
    // Settled exactly: paid 8,499.75 and credited 1,500.25 of 10,000.00.
    const row = await invoiceRow(invoice.id);
    expect([row.amountPaid, row.amountCredited, row.paymentStatus]).toEqual(["8499.75", "1500.25", "paid"]);

    // The Payments list marks it; its totals are net of it.
    const listed = await listPayments(admin, { invoiceNo: invoice.invoiceNo });
    expect(listed.items.map((p) => [p.amount, p.refund, p.note])).toEqual([
      ["-500.00", true, "The rest"],
      ["-1000.25", true, "Paid back by transfer"],
      ["10000.00", false, null],
    ]);
    // One payment received; the refunds are money out, not payments (decision 0300, "Total Payments").
    expect(await paymentTotals(admin, { invoiceNo: invoice.invoiceNo })).toEqual({ count: 1, total: "8499.75" });
    const detail = await getInvoiceDetail(admin, invoice.id);
    expect(detail!.payments.items.map((p) => p.refund)).toEqual([true, true, false]);
    expect(detail!.balance).toBe("0.00");
  });

  it("refuses without a credit, past it, without a reason, in the future, before the invoice, for a manager; writes nothing", async () => {
    const { invoice } = await creditInvoice("800.00");
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.payments))[0].n;
    const rows = await count();
    const refunds = await auditEvents("payment.refund");
    // Tomorrow in the business's time zone: from 23:00 UTC, UTC's tomorrow is Lagos's today.
    const tomorrow = addDays(today(), 1);
    expect(await refundClientCredit(admin, invoice.id, { amount: "800.01", reason: "x" })).toMatchObject({
      status: 409,
    });
    expect(await refundClientCredit(admin, invoice.id, { amount: "100.00", reason: " " })).toMatchObject({
      status: 400,
      fieldErrors: { reason: ["Reason is required"] },
    });
    expect(await refundClientCredit(admin, invoice.id, { amount: "0", reason: "x" })).toMatchObject({ status: 400 });
    expect(await refundClientCredit(admin, invoice.id, { amount: "1.005", reason: "x" })).toMatchObject({
      status: 400,
    });
    expect(
      await refundClientCredit(admin, invoice.id, { amount: "100.00", reason: "x", paymentDate: tomorrow }),
    ).toMatchObject({ status: 400, fieldErrors: { paymentDate: ["Refund date cannot be in the future"] } });
    expect(
      await refundClientCredit(admin, invoice.id, { amount: "100.00", reason: "x", paymentDate: "2020-01-01" }),
    ).toMatchObject({
      status: 400,
      fieldErrors: { paymentDate: ["Refund date cannot be before the invoice was created"] },
    });
    expect(await refundClientCredit(admin, 99_999_999, { amount: "1.00", reason: "x" })).toMatchObject({ status: 404 });
    expect(await refundClientCredit(manager, invoice.id, { amount: "1.00", reason: "x" })).toMatchObject({
      status: 403,
    });
    // An invoice with nothing paid past its amount has no credit.
    const owing = await creditInvoice("100.00");
    await reversePayment(admin, owing.payment.id, { reason: "Bounced" });
    const rowsAfterReversal = await count();
    expect(await refundClientCredit(admin, owing.invoice.id, { amount: "1.00", reason: "x" })).toMatchObject({
      status: 409,
      message: NO_CLIENT_CREDIT,
    });
    // Its payment and the payment's reversal, nothing more.
    expect(rowsAfterReversal).toBe(rows + 2);
    expect(await count()).toBe(rowsAfterReversal);
    expect(await auditEvents("payment.refund")).toBe(refunds);
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "10000.00" });
  });

  it("two refunds of the whole credit at once: one lands", async () => {
    const { invoice } = await creditInvoice("2000.00");
    const results = await Promise.all(
      ["One", "Two"].map((reason) => refundClientCredit(admin, invoice.id, { amount: "2000.00", reason })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ status: 409, message: NO_CLIENT_CREDIT });
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "8000.00", recount: "8000.00" });
  });

  it("is idempotent under one key, and refused in a closed month", async () => {
    const { invoice } = await creditInvoice();
    const key = `refund-${invoice.id}`;
    const input = { amount: "700.00", reason: "Keyed" };
    const first = await refundClientCredit(admin, invoice.id, input, new Date(), { idempotencyKey: key });
    const again = await refundClientCredit(admin, invoice.id, input, new Date(), { idempotencyKey: key });
    if (!first.ok || !again.ok) throw new Error("not refunded");
    expect(again).toMatchObject({ replayed: true, refund: { id: first.refund.id }, creditLeft: "800.00" });
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "9300.00", recount: "9300.00" });

    const closed = await creditInvoice();
    expect(await closeMonth(admin, { month: "2025-04" })).toMatchObject({ ok: true });
    expect(
      await refundClientCredit(
        admin,
        closed.invoice.id,
        { amount: "1.00", reason: "Late" },
        new Date("2025-04-15T10:00:00Z"),
      ),
    ).toMatchObject({ ok: false, status: 409, message: expect.stringContaining("This month is closed") });
  });

  it("a refund recorded in error is reversed like a payment: the client has the credit again", async () => {
    const { invoice } = await creditInvoice("1200.00");
    const refunded = await refundClientCredit(admin, invoice.id, { amount: "1200.00", reason: "Wrong client" });
    if (!refunded.ok) throw new Error(refunded.message);
    const reversed = await reversePayment(admin, refunded.refund.id, { reason: "Refund never left the bank" });
    expect(reversed).toMatchObject({
      ok: true,
      reversal: { amount: "1200.00", reversesPaymentId: refunded.refund.id, refund: false },
      amountPaid: "10000.00",
      paymentStatus: "paid",
    });
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "10000.00", recount: "10000.00" });
    // Its words and sign: the reversal is of a refund, and takes money off what is due again.
    const listed = await listPayments(admin, { invoiceNo: invoice.invoiceNo });
    const reversal = listed.items.find((p) => p.reversesPaymentId === refunded.refund.id)!;
    expect(paymentReversalText({ ...reversal, reversesPaymentId: refunded.refund.id })).toBe(
      `Reverses refund #${refunded.refund.id}: Refund never left the bank`,
    );
    const document = await loadInvoiceDocument(admin, invoice.id);
    expect(
      document!.received
        .filter((r) => r.kind.startsWith("refund"))
        .map((r) => [receivedLabel(r).split(" ").slice(0, 2).join(" "), receivedAmount(r)]),
    ).toEqual([
      ["Refunded to", "+₦1,200.00"],
      ["Refund reversed", "-₦1,200.00"],
    ]);
    expect(await refundClientCredit(admin, invoice.id, { amount: "1200.00", reason: "The right one" })).toMatchObject({
      ok: true,
      creditLeft: "0.00",
    });
  });

  it("a reversal that would leave the paid total out of bounds is refused: the refund first, or the later payment first", async () => {
    // Refunded, then the original payment reversed: the refund must go first.
    const first = await creditInvoice("1500.00");
    expect(await refundClientCredit(admin, first.invoice.id, { amount: "1500.00", reason: "Paid back" })).toMatchObject(
      {
        ok: true,
      },
    );
    expect(await reversePayment(admin, first.payment.id, { reason: "Bounced" })).toMatchObject({
      ok: false,
      status: 409,
      message: REVERSE_REFUND_FIRST,
    });
    expect(await paidAndRecount(first.invoice.id)).toEqual({ kept: "8500.00", recount: "8500.00" });

    // Refunded, the credit note reversed and the invoice paid again: the refund cannot come back.
    const second = await creditInvoice("1200.00");
    const refunded = await refundClientCredit(admin, second.invoice.id, { amount: "1200.00", reason: "Paid back" });
    if (!refunded.ok) throw new Error(refunded.message);
    expect(await reverseCreditNote(admin, second.creditNote.id, { reason: "Claim withdrawn" })).toMatchObject({
      ok: true,
    });
    expect(await recordPayment(manager, { invoiceId: second.invoice.id, amount: "1200.00" })).toMatchObject({
      ok: true,
    });
    expect(await reversePayment(admin, refunded.refund.id, { reason: "Never sent" })).toMatchObject({
      ok: false,
      status: 409,
      message: REFUND_CREDIT_GONE,
    });
    expect(await paidAndRecount(second.invoice.id)).toEqual({ kept: "10000.00", recount: "10000.00" });
  });

  it("is not dated before the invoice's latest payment or credit note", async () => {
    const { invoice } = await creditInvoice("300.00");
    await rewriteInvoice(invoice.id, { createdAt: new Date("2026-01-01T12:00:00+01:00"), issueDate: "2026-01-01" });
    const early = await refundClientCredit(admin, invoice.id, {
      amount: "300.00",
      reason: "Backdated",
      paymentDate: "2026-02-01",
    });
    expect(early).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: {
        paymentDate: [
          expect.stringMatching(/^Refund date cannot be before the invoice's latest payment or credit note/),
        ],
      },
    });
    expect(
      await refundClientCredit(admin, invoice.id, { amount: "300.00", reason: "Today", paymentDate: today() }),
    ).toMatchObject({
      ok: true,
    });
  });

  it("shows on the client statement as a negative credit, in both CSVs and on the invoice document; db:check and the totals agree", async () => {
    const { clientId, invoice, creditNote } = await creditInvoice("1500.00");
    const refunded = await refundClientCredit(admin, invoice.id, {
      amount: "1500.00",
      reference: "RF-7",
      reason: "Paid back in cash",
    });
    if (!refunded.ok) throw new Error(refunded.message);
    const period = { from: today(), to: today() };
    const made = await clientStatement(admin, clientId, period);
    if (!made.ok) throw new Error(made.message);
    const { statement } = made;
    expect(statement.lines.map((l) => [l.kind, l.debit, l.credit, l.balance])).toEqual([
      ["invoice", "10000.00", "0.00", "10000.00"],
      ["credit_note", "0.00", "1500.00", "8500.00"],
      ["payment", "0.00", "10000.00", "-1500.00"],
      ["refund", "0.00", "-1500.00", "0.00"],
    ]);
    expect(statement).toMatchObject({ totalDebits: "10000.00", totalCredits: "10000.00", closingBalance: "0.00" });

    const csv = await clientStatementExport(admin, clientId, new URLSearchParams(period));
    if (!csv || "invalid" in csv) throw new Error("no export");
    let text = "";
    for await (const batch of csv.batches) for (const row of batch) text += JSON.stringify(row) + "\n";
    expect(text).toContain('"type":"Refund"');
    expect(text).toContain('"reference":"RF-7 · Refund to the client: Paid back in cash"');

    const payments = paymentsExport(admin, new URLSearchParams({ invoiceNo: invoice.invoiceNo }));
    if ("invalid" in payments) throw new Error("no export");
    const note = payments.columns.find((c) => c.header === "Note")!;
    const rows: Parameters<typeof note.value>[0][] = [];
    for await (const batch of payments.batches) rows.push(...batch);
    expect(rows.map((r) => note.value(r))).toEqual(["Refund to the client: Paid back in cash", null]);

    const document = await loadInvoiceDocument(admin, invoice.id);
    expect(document!.received.map((r) => [receivedLabel(r), receivedAmount(r)])).toEqual([
      [expect.stringMatching(/^Payment .* \(TRF-9\)$/), "-₦10,000.00"],
      [
        expect.stringMatching(/^Refunded to the client .* \(RF-7 · Refund to the client: Paid back in cash\)$/),
        "+₦1,500.00",
      ],
      [expect.stringMatching(new RegExp(`^Credit note .*\\(${creditNote.creditNoteNo}: Wet shells\\)$`)), "-₦1,500.00"],
    ]);
    expect(document!.balance).toBe("0.00");

    const db = await getDb();
    const breaches = await findBreaches(db as unknown as Db);
    expect(breaches.filter((b) => /amount paid|over-paid|client owed|roll-up/.test(b.check))).toEqual([]);
  });
});

describe("finding the invoices that carry a client credit", () => {
  it("the Invoices list's Client credit filter lists them until the credit is refunded, each card saying how much", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice } = await creditInvoice("250.50");
    const listed = async () =>
      (await listInvoices(admin, { status: "credit", invoiceNo: invoice.invoiceNo })).items.map((i) => i.id);
    expect(await listed()).toEqual([invoice.id]);
    const page = await call(invoicesPage.loader, makeRequest(`/invoices?status=credit`, { cookie }));
    const cards = (page.body as { invoices: { id: number; clientCredit?: string }[] }).invoices;
    expect(cards.find((c) => c.id === invoice.id)).toMatchObject({ clientCredit: "250.50" });
    // Every card listed carries a credit; none without one is sent the field.
    expect(cards.every((c) => c.clientCredit !== undefined)).toBe(true);
    const all = await call(invoicesPage.loader, makeRequest(`/invoices`, { cookie }));
    const plain = (all.body as { invoices: { clientCredit?: string }[] }).invoices.filter((c) => !c.clientCredit);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((c) => !("clientCredit" in c))).toBe(true);

    expect(await refundClientCredit(admin, invoice.id, { amount: "250.50", reason: "Paid back" })).toMatchObject({
      ok: true,
    });
    expect(await listed()).toEqual([]);
  });
});

describe("the Refund Credit form and its JSON twin", () => {
  it("the form redirects to the invoice, once per key; no reason is a 400; an invoice without credit says so", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice } = await creditInvoice("900.00");
    const params = { id: String(invoice.id) };
    const path = `/invoices/${invoice.id}/refund`;
    const shown = await call(refundDialog.loader, makeRequest(path, { cookie }), params);
    expect(shown).toMatchObject({ status: 200, body: { credit: "900.00", invoice: { invoiceNo: invoice.invoiceNo } } });

    const empty = await call(
      refundDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { amount: "900.00", reason: "" } }),
      params,
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain("Reason is required");

    const form = {
      amount: "900.00",
      paymentDate: today(),
      reason: "Paid back",
      idempotencyKey: `form-refund-${invoice.id}`,
    };
    const done = await call(refundDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/invoices/${invoice.id}`);
    const twice = await call(refundDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(twice.status).toBe(302);
    expect(await paidAndRecount(invoice.id)).toEqual({ kept: "9100.00", recount: "9100.00" });
    const after = await call(refundDialog.loader, makeRequest(path, { cookie }), params);
    expect((after.body as { credit: string }).credit).toBe("0.00");
    const refused = await call(
      refundDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { amount: "1.00", reason: "More" } }),
      params,
    );
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(NO_CLIENT_CREDIT);
  });

  it("POST /api/invoices/{id}/refunds: 201, 200 on a replay, 409 past the credit, 404 unknown, 405 for GET", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice } = await creditInvoice("1234.56");
    const path = `/api/invoices/${invoice.id}/refunds`;
    const params = { id: String(invoice.id) };
    const headers = { "Idempotency-Key": `api-refund-${invoice.id}` };
    const send = (json: unknown, h: Record<string, string> = headers) =>
      call(refundApi.action, makeRequest(path, { method: "POST", cookie, json, headers: h }), params);
    expect((await send({ amount: "1.00" })).status).toBe(400);
    const first = await send({ amount: "1234.56", reason: "Paid back" });
    expect(first).toMatchObject({
      status: 201,
      body: {
        amount: "-1234.56",
        refund: true,
        note: "Paid back",
        invoiceNo: invoice.invoiceNo,
        amountPaid: "8765.44",
        clientCredit: "0.00",
      },
    });
    const replay = await send({ amount: "1234.56", reason: "Paid back" });
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await send({ amount: "1.00", reason: "Again" }, {})).toMatchObject({ status: 409 });
    const unknown = await call(
      refundApi.action,
      makeRequest(`/api/invoices/999999/refunds`, { method: "POST", cookie, json: { amount: "1.00", reason: "x" } }),
      { id: "999999" },
    );
    expect(unknown.status).toBe(404);
    expect((await call(refundApi.loader, makeRequest(path, { cookie }), params)).status).toBe(405);
  });
});

describeAccess("refunds", [
  {
    name: "refund credit dialog",
    handler: refundDialog.loader,
    method: "GET",
    path: "/invoices/1/refund",
    params: { id: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "refund credit",
    handler: refundDialog.action,
    method: "POST",
    path: "/invoices/1/refund",
    params: { id: "1" },
    form: { amount: "", reason: "" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "refund credit (JSON)",
    handler: refundApi.action,
    method: "POST",
    path: "/api/invoices/1/refunds",
    params: { id: "1" },
    json: { amount: "", reason: "" },
    allowed: ["admin"],
  },
]);

describe("the payments table keeps refunds to their own rules", () => {
  it("refuses a refund without a reason, a positive refund, and a refund that names a payment", async () => {
    const { invoice, payment } = await creditInvoice();
    // Behind the app, so the invoice's totals do not move: their own check is off here.
    const insert = (values: Partial<typeof schema.payments.$inferInsert>) =>
      behindTotals((tx) =>
        tx
          .insert(schema.payments)
          .values({
            invoiceId: invoice.id,
            amount: "-10.00",
            paymentDate: today(),
            refund: true,
            note: "ok",
            ...values,
          })
          .returning(),
      );
    await expect(insert({ note: null })).rejects.toThrow();
    await expect(insert({ amount: "10.00" })).rejects.toThrow();
    await expect(insert({ amount: "-10000.00", reversesPaymentId: payment.id })).rejects.toThrow();
    // A negative payment that is not a refund or a reversal.
    await expect(insert({ refund: false })).rejects.toThrow();
    await expect(insert({})).resolves.toHaveLength(1);
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

// Moving a client credit to another invoice of the same client (docs/decisions/0920,
// "Money entries after the fact"), on both drivers: a negative entry on the invoice
// that carried the credit and a positive entry on the one that owed, in one transaction, at most
// the credit and at most what is owed (also when moves race), same client only, audited,
// idempotent, refused in a closed month and for staff; reversed as a whole; the Payments list,
// totals and CSV, the invoice pages and documents, the client statement and the kept totals agree.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { creditMoveText, paymentReversalText } from "../../app/utils/money-line-words";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import {
  getPaymentToReverse,
  listCreditMoveTargets,
  listPayments,
  paymentTotals,
} from "../../app/presenters/payments.server";
import { refundClientCredit } from "../../app/services/payments/refund-credit.server";
import { applyClientCredit, NO_CREDIT_TO_MOVE } from "../../app/services/payments/apply-credit.server";
import { creditMoveSpent, reversePayment } from "../../app/services/payments/reverse-payment.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth } from "../../app/models/period.server";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { paymentsExport } from "../../app/presenters/exports.server";
import { loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { receivedAmount, receivedLabel } from "../../app/utils/money-line-words";
import * as applyDialog from "../../app/routes/_app.invoices_.$id.apply-credit";
import * as movesApi from "../../app/routes/api.invoices.$id.credit-moves";
import * as paymentReversalApi from "../../app/routes/api.payments.$id.reversal";
import { todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createClient, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import {
  auditEvents,
  behindTotals,
  expectKeptTotalsToMatchRebuild,
  invoiceOfTenThousand,
  invoiceRow,
  paidAndRecount,
  rewriteInvoice,
} from "../money-entries";
import { expectEveryEventWorded } from "../audit-words";

const today = () => todayIn("Africa/Lagos");
let admin: User;
let manager: User;
let staff: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  staff = await createUser({ role: "staff" });
  agentId = (await createAgent()).id;
});

/** An invoice of 10,000.00 for `clientId`, due on `due`. */
async function invoiceFor(clientId: number, due = "2026-12-31") {
  const { invoice } = await invoiceOfTenThousand(manager, agentId, clientId);
  await rewriteInvoice(invoice.id, { expectedPaymentDate: due });
  return invoice;
}

/** A client of its own with invoice A paid in full and credited `credit` (the client's credit), and B owing 10,000.00. */
async function creditAndDebt(credit = "1500.00") {
  const clientId = (await createClient()).id;
  const a = await invoiceFor(clientId);
  const paid = await recordPayment(manager, { invoiceId: a.id, amount: "10000.00", reference: "TRF-A" });
  if (!paid.ok) throw new Error(paid.message);
  const credited = await createCreditNote(manager, a.id, { amount: credit, reason: "Wet shells" });
  if (!credited.ok) throw new Error(credited.message);
  const b = await invoiceFor(clientId, "2026-12-01");
  return { clientId, a, b, payment: paid.payment };
}

describe("moving a client credit", () => {
  it("takes it off the invoice that carried it and settles the other with it; no money moves", async () => {
    const { clientId, a, b } = await creditAndDebt("1500.00");
    const totalsBefore = await paymentTotals(manager, { clientId });
    const events = await auditEvents("payment.apply_credit");
    expect(await listCreditMoveTargets(manager, clientId, a.id)).toEqual([
      { id: b.id, invoiceNo: b.invoiceNo, balance: "10000.00", expectedPaymentDate: "2026-12-01" },
    ]);

    const moved = await applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "1000.00" });
    if (!moved.ok) throw new Error(moved.message);
    expect(moved).toMatchObject({
      replayed: false,
      moveOut: { invoiceId: a.id, amount: "-1000.00", creditMovedToInvoiceId: b.id, paymentDate: today() },
      moveIn: { invoiceId: b.id, amount: "1000.00", creditFromPaymentId: moved.moveOut.id, paymentDate: today() },
      from: { invoiceNo: a.invoiceNo, amountPaid: "9000.00", paymentStatus: "paid", creditLeft: "500.00" },
      to: { invoiceNo: b.invoiceNo, amountPaid: "1000.00", paymentStatus: "partial", balance: "9000.00" },
    });
    expect(await paidAndRecount(a.id)).toEqual({ kept: "9000.00", recount: "9000.00" });
    expect(await paidAndRecount(b.id)).toEqual({ kept: "1000.00", recount: "1000.00" });
    expect(await auditEvents("payment.apply_credit")).toBe(events + 1);
    // Two entries more, but no payment more (decision 0300, "Total Payments"): the money received is the same.
    const totalsAfter = await paymentTotals(manager, { clientId });
    expect(totalsAfter).toEqual({ count: totalsBefore.count, total: totalsBefore.total });

    // Each side names the other: Payments list, invoice page, CSV.
    const listed = await listPayments(manager, { clientId });
    expect(listed.items.slice(0, 2).map((p) => [p.invoiceNo, p.amount, creditMoveText(p)])).toEqual([
      [b.invoiceNo, "1000.00", `Credit from invoice #${a.invoiceNo}`],
      [a.invoiceNo, "-1000.00", `Credit moved to invoice #${b.invoiceNo}`],
    ]);
    const detail = await getInvoiceDetail(manager, b.id);
    expect(detail!.payments.items.map(creditMoveText)).toEqual([`Credit from invoice #${a.invoiceNo}`]);
    const csv = paymentsExport(manager, new URLSearchParams({ clientId: String(clientId) }));
    if ("invalid" in csv) throw new Error("no export");
    const note = csv.columns.find((c) => c.header === "Note")!;
    const notes: (string | null)[] = [];
    for await (const batch of csv.batches) notes.push(...batch.map((r) => note.value(r) as string | null));
    expect(notes.slice(0, 2)).toEqual([
      `Credit from invoice #${a.invoiceNo}`,
      `Credit moved to invoice #${b.invoiceNo}`,
    ]);

    // The documents: A adds the credit back, B takes it off.
    const docA = await loadInvoiceDocument(manager, a.id);
    const docB = await loadInvoiceDocument(manager, b.id);
    const moveLine = (doc: typeof docA) =>
      doc!.received.filter((r) => r.kind === "credit_moved").map((r) => [receivedLabel(r), receivedAmount(r)]);
    expect(moveLine(docA)).toEqual([
      [expect.stringMatching(new RegExp(`moved to invoice #${b.invoiceNo}\\)$`)), "+₦1,000.00"],
    ]);
    expect(moveLine(docB)).toEqual([
      [expect.stringMatching(new RegExp(`from invoice #${a.invoiceNo}\\)$`)), "-₦1,000.00"],
    ]);

    // The client statement: both lines, net nothing.
    const made = await clientStatement(manager, clientId, { from: today(), to: today() });
    if (!made.ok) throw new Error(made.message);
    const moves = made.statement.lines.filter((l) => l.kind.startsWith("credit_moved"));
    expect(moves.map((l) => [l.kind, l.invoiceNo, l.credit, l.note])).toEqual([
      ["credit_moved_out", a.invoiceNo, "-1000.00", b.invoiceNo],
      ["credit_moved_in", b.invoiceNo, "1000.00", a.invoiceNo],
    ]);
    await expectKeptTotalsToMatchRebuild(["payment_day_totals", "invoice_status_rollup", "client_owed_totals"]);
  });

  it("refuses another client's invoice, the same invoice, one that owes nothing, past the credit or the debt, and staff; writes nothing", async () => {
    const { a, b } = await creditAndDebt("1500.00");
    const other = await creditAndDebt("100.00");
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.payments))[0].n;
    const rows = await count();
    const move = (toInvoiceId: number, amount: string, actor: User = manager) =>
      applyClientCredit(actor, a.id, { toInvoiceId: String(toInvoiceId), amount });
    expect(await move(other.b.id, "10.00")).toMatchObject({
      status: 409,
      fieldErrors: { toInvoiceId: ["Choose an invoice of the same client that still owes"] },
    });
    expect(await move(a.id, "10.00")).toMatchObject({
      status: 400,
      fieldErrors: { toInvoiceId: [expect.any(String)] },
    });
    expect(await move(b.id, "1500.01")).toMatchObject({
      status: 409,
      message: "At most the client credit of ₦1,500.00 can be moved",
    });
    expect(await move(b.id, "0")).toMatchObject({ status: 400 });
    expect(await move(999_999_999, "1.00")).toMatchObject({ status: 409 });
    expect(await applyClientCredit(manager, 999_999_999, { toInvoiceId: String(b.id), amount: "1.00" })).toMatchObject({
      status: 404,
    });
    expect(await move(b.id, "1.00", staff)).toMatchObject({ status: 403 });
    // B, nearly paid, owes less than the credit.
    expect(await recordPayment(manager, { invoiceId: b.id, amount: "9000.00" })).toMatchObject({ ok: true });
    expect(await move(b.id, "1000.01")).toMatchObject({
      status: 409,
      message: `Invoice #${b.invoiceNo} owes only ₦1,000.00`,
    });
    // From an invoice that carries no credit.
    expect(await applyClientCredit(manager, b.id, { toInvoiceId: String(a.id), amount: "1.00" })).toMatchObject({
      status: 409,
    });
    expect(await count()).toBe(rows + 1);
    expect(await invoiceRow(a.id)).toMatchObject({ amountPaid: "10000.00" });
    const noCredit = await creditAndDebt("1.00");
    await refundClientCredit(admin, noCredit.a.id, { amount: "1.00", reason: "Paid back" });
    expect(
      await applyClientCredit(manager, noCredit.a.id, { toInvoiceId: String(noCredit.b.id), amount: "1.00" }),
    ).toMatchObject({ status: 409, message: NO_CREDIT_TO_MOVE });
  });

  it("two moves of the whole credit at once: one lands", async () => {
    const { clientId, a, b } = await creditAndDebt("2000.00");
    const c = await invoiceFor(clientId);
    const results = await Promise.all(
      [b.id, c.id].map((to) => applyClientCredit(manager, a.id, { toInvoiceId: String(to), amount: "2000.00" })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ status: 409, message: NO_CREDIT_TO_MOVE });
    expect(await paidAndRecount(a.id)).toEqual({ kept: "8000.00", recount: "8000.00" });
  });

  it("moves and full payments racing all land (no deadlock between them)", async () => {
    const clientId = (await createClient()).id;
    const otherClientId = (await createClient()).id;
    const due = "2026-12-15";
    const pairs = [];
    for (let i = 0; i < 6; i++) {
      const a = await invoiceFor(clientId, "2026-12-20");
      expect(await recordPayment(manager, { invoiceId: a.id, amount: "10000.00" })).toMatchObject({ ok: true });
      expect(await createCreditNote(manager, a.id, { amount: "1000.00", reason: "Wet" })).toMatchObject({ ok: true });
      const b = await invoiceFor(clientId, due);
      expect(await recordPayment(manager, { invoiceId: b.id, amount: "9000.00" })).toMatchObject({ ok: true });
      // C is another client's: a payment of the same client would queue behind the move on the
      // client's payment totals for the day, taken first by both.
      pairs.push({ a, b, c: await invoiceFor(otherClientId, due) });
    }
    // Each move changes A (due later) and then pays B in full; each payment pays C, due with B, in
    // full: the same kept-totals rows (paid, due with B; paid overall), taken in the other order.
    const results = await Promise.all(
      pairs.flatMap(({ a, b, c }) => [
        applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "1000.00" }),
        recordPayment(manager, { invoiceId: c.id, amount: "10000.00" }),
      ]),
    );
    expect(results.filter((r) => !r.ok)).toEqual([]);
    for (const { a, b, c } of pairs) {
      expect(await invoiceRow(a.id)).toMatchObject({ amountPaid: "9000.00", paymentStatus: "paid" });
      expect(await invoiceRow(b.id)).toMatchObject({ amountPaid: "10000.00", paymentStatus: "paid" });
      expect(await invoiceRow(c.id)).toMatchObject({ amountPaid: "10000.00", paymentStatus: "paid" });
    }
    // And the moves reversed while more of the other client's invoices due with B are paid.
    const moves = results.filter((r, i) => i % 2 === 0) as { moveIn: { id: number } }[];
    const more = [];
    for (let i = 0; i < pairs.length; i++) more.push(await invoiceFor(otherClientId, due));
    const undone = await Promise.all([
      ...moves.map((m) => reversePayment(admin, m.moveIn.id, { reason: "Race" })),
      ...more.map((d) => recordPayment(manager, { invoiceId: d.id, amount: "10000.00" })),
    ]);
    expect(undone.filter((r) => !r.ok)).toEqual([]);
    for (const { b } of pairs) expect(await invoiceRow(b.id)).toMatchObject({ amountPaid: "9000.00" });
    await expectKeptTotalsToMatchRebuild(["payment_day_totals", "invoice_status_rollup", "client_owed_totals"]);
  });

  it("is idempotent under one key, and refused while today's month is closed", async () => {
    const { a, b } = await creditAndDebt();
    const key = `move-${a.id}`;
    const input = { toInvoiceId: String(b.id), amount: "700.00" };
    const first = await applyClientCredit(manager, a.id, input, new Date(), { idempotencyKey: key });
    const again = await applyClientCredit(manager, a.id, input, new Date(), { idempotencyKey: key });
    if (!first.ok || !again.ok) throw new Error("not moved");
    expect(again).toMatchObject({ replayed: true, moveOut: { id: first.moveOut.id }, from: { creditLeft: "800.00" } });
    expect(await paidAndRecount(b.id)).toEqual({ kept: "700.00", recount: "700.00" });

    const closed = await creditAndDebt();
    expect(await closeMonth(admin, { month: "2025-05" })).toMatchObject({ ok: true });
    expect(
      await applyClientCredit(
        manager,
        closed.a.id,
        { toInvoiceId: String(closed.b.id), amount: "1.00" },
        new Date("2025-05-15T10:00:00Z"),
      ),
    ).toMatchObject({ ok: false, status: 409, message: expect.stringContaining("This month is closed") });
  });

  it("is reversed as a whole from either side, once; not after the credit moved in was refunded", async () => {
    const { a, b } = await creditAndDebt("1500.00");
    const moved = await applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "1500.00" });
    if (!moved.ok) throw new Error(moved.message);
    // The Reverse dialog names the move, from either side.
    expect(await getPaymentToReverse(admin, moved.moveIn.id)).toMatchObject({
      payment: { creditFromInvoiceNo: a.invoiceNo, creditMovedToInvoiceNo: null },
    });
    expect(await getPaymentToReverse(admin, moved.moveOut.id)).toMatchObject({
      payment: { creditMovedToInvoiceNo: b.invoiceNo, creditFromInvoiceNo: null },
    });
    const reversed = await reversePayment(admin, moved.moveIn.id, { reason: "Wrong invoice" });
    expect(reversed).toMatchObject({ ok: true, amountPaid: "0.00", paymentStatus: "pending" });
    expect(await paidAndRecount(a.id)).toEqual({ kept: "10000.00", recount: "10000.00" });
    expect(await paidAndRecount(b.id)).toEqual({ kept: "0.00", recount: "0.00" });
    // Both reversals say what they take back, on the list and on the documents.
    const reversals = (await listPayments(admin, { invoiceNo: b.invoiceNo })).items
      .concat((await listPayments(admin, { invoiceNo: a.invoiceNo })).items)
      .filter((p) => p.reversesPaymentId !== null);
    expect(reversals.map((p) => paymentReversalText({ ...p, reversesPaymentId: p.reversesPaymentId! })).sort()).toEqual(
      [
        `Reverses credit move #${moved.moveIn.id}: Wrong invoice`,
        `Reverses credit move #${moved.moveOut.id}: Wrong invoice`,
      ].sort(),
    );
    const docB = await loadInvoiceDocument(admin, b.id);
    expect(docB!.received.map((r) => [r.kind, receivedAmount(r)])).toEqual([
      ["credit_moved", "-₦1,500.00"],
      ["reversal", "+₦1,500.00"],
    ]);
    expect(await reversePayment(admin, moved.moveOut.id, { reason: "Again" })).toMatchObject({
      status: 409,
      message: expect.stringMatching(/^This payment was already reversed on/),
    });
    await expectKeptTotalsToMatchRebuild(["payment_day_totals", "invoice_status_rollup", "client_owed_totals"]);

    // Moved again, then B credited in full and its credit refunded: the move cannot come back.
    const again = await applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "1500.00" });
    if (!again.ok) throw new Error(again.message);
    expect(await createCreditNote(manager, b.id, { amount: "10000.00", reason: "Rejected load" })).toMatchObject({
      ok: true,
    });
    expect(await refundClientCredit(admin, b.id, { amount: "1500.00", reason: "Paid back" })).toMatchObject({
      ok: true,
    });
    expect(await reversePayment(admin, again.moveOut.id, { reason: "Undo" })).toMatchObject({
      status: 409,
      message: creditMoveSpent(b.invoiceNo),
    });
  });
});

describe("the Apply Credit form and its JSON twin", () => {
  it("the form lists what the client owes, moves once per key and redirects to the invoice; no invoice chosen is a 400", async () => {
    const { cookie } = await loginAs("manager");
    const { a, b } = await creditAndDebt("900.00");
    const params = { id: String(a.id) };
    const path = `/invoices/${a.id}/apply-credit`;
    const shown = await call(applyDialog.loader, makeRequest(path, { cookie }), params);
    expect(shown).toMatchObject({
      status: 200,
      body: { credit: "900.00", targets: [{ id: b.id, invoiceNo: b.invoiceNo }], canRefund: false },
    });
    const empty = await call(
      applyDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { toInvoiceId: "", amount: "900.00" } }),
      params,
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain("Invoice is required");
    const form = { toInvoiceId: String(b.id), amount: "900.00", idempotencyKey: `form-move-${a.id}` };
    const done = await call(applyDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/invoices/${a.id}`);
    const twice = await call(applyDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(twice.status).toBe(302);
    expect(await paidAndRecount(b.id)).toEqual({ kept: "900.00", recount: "900.00" });
    const after = await call(applyDialog.loader, makeRequest(path, { cookie }), params);
    expect(after.body).toMatchObject({ credit: "0.00", targets: [] });
  });

  it("POST /api/invoices/{id}/credit-moves: 201, 200 on a replay, 409 past the credit, 404 unknown, 405 for GET", async () => {
    const { cookie } = await loginAs("manager");
    const { a, b } = await creditAndDebt("1234.56");
    const path = `/api/invoices/${a.id}/credit-moves`;
    const params = { id: String(a.id) };
    const headers = { "Idempotency-Key": `api-move-${a.id}` };
    const send = (json: unknown, h: Record<string, string> = headers) =>
      call(movesApi.action, makeRequest(path, { method: "POST", cookie, json, headers: h }), params);
    expect((await send({ amount: "1.00" })).status).toBe(400);
    const first = await send({ toInvoiceId: b.id, amount: "1234.56" });
    expect(first).toMatchObject({
      status: 201,
      body: {
        moveOut: { amount: "-1234.56", creditMovedToInvoiceId: b.id },
        moveIn: { amount: "1234.56" },
        from: { creditLeft: "0.00" },
        to: { balance: "8765.44", paymentStatus: "partial" },
      },
    });
    const replay = await send({ toInvoiceId: b.id, amount: "1234.56" });
    expect(replay.status).toBe(200);
    expect(await send({ toInvoiceId: b.id, amount: "1.00" }, {})).toMatchObject({ status: 409 });
    const unknown = await call(
      movesApi.action,
      makeRequest(`/api/invoices/999999/credit-moves`, {
        method: "POST",
        cookie,
        json: { toInvoiceId: b.id, amount: "1.00" },
      }),
      { id: "999999" },
    );
    expect(unknown.status).toBe(404);
    expect((await call(movesApi.loader, makeRequest(path, { cookie }), params)).status).toBe(405);
  });
});

describe("reversing a credit move through POST /api/payments/{id}/reversal", () => {
  it("answers both reversals and both invoices, on the first call and on a replay", async () => {
    const { cookie } = await loginAs("admin");
    const { a, b } = await creditAndDebt("800.00");
    const moved = await applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "800.00" });
    if (!moved.ok) throw new Error(moved.message);
    const path = `/api/payments/${moved.moveOut.id}/reversal`;
    const send = () =>
      call(
        paymentReversalApi.action,
        makeRequest(path, {
          method: "POST",
          cookie,
          json: { reason: "Moved to the wrong invoice" },
          headers: { "Idempotency-Key": `api-move-reversal-${a.id}` },
        }),
        { id: String(moved.moveOut.id) },
      );
    const expected = {
      amount: "800.00",
      reversesPaymentId: moved.moveOut.id,
      invoiceNo: a.invoiceNo,
      amountPaid: "10000.00",
      partner: {
        amount: "-800.00",
        reversesPaymentId: moved.moveIn.id,
        invoiceNo: b.invoiceNo,
        amountPaid: "0.00",
        paymentStatus: "pending",
      },
    };
    expect(await send()).toMatchObject({ status: 201, body: expected });
    expect(await send()).toMatchObject({ status: 200, body: expected });
    expect(await paidAndRecount(b.id)).toEqual({ kept: "0.00", recount: "0.00" });
  });
});

describeAccess("credit moves", [
  {
    name: "apply credit dialog",
    handler: applyDialog.loader,
    method: "GET",
    path: "/invoices/1/apply-credit",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "apply credit",
    handler: applyDialog.action,
    method: "POST",
    path: "/invoices/1/apply-credit",
    params: { id: "1" },
    form: { toInvoiceId: "", amount: "" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "apply credit (JSON)",
    handler: movesApi.action,
    method: "POST",
    path: "/api/invoices/1/credit-moves",
    params: { id: "1" },
    json: { toInvoiceId: "", amount: "" },
    allowed: ["manager", "admin"],
  },
]);

describe("the payments table keeps credit moves to their own rules", () => {
  it("refuses a move in that does not match its move out, another client's, a move out alone, to its own invoice, or positive", async () => {
    const { a, b } = await creditAndDebt();
    const other = await creditAndDebt();
    type Entry = Partial<typeof schema.payments.$inferInsert> & { invoiceId: number; amount: string };
    // Each attempt is one transaction: a move's two entries are checked together when it commits.
    // Behind the app (the invoices' totals do not move), so their own check is off here.
    const write = (...entries: ((outId: number) => Entry)[]) =>
      behindTotals(async (tx) => {
        let outId = 0;
        for (const entry of entries) {
          const [row] = await tx
            .insert(schema.payments)
            .values({ paymentDate: today(), ...entry(outId) })
            .returning();
          outId ||= row.id;
        }
      });
    const moveOut =
      (values: Partial<Entry> = {}) =>
      () => ({
        invoiceId: a.id,
        amount: "-10.00",
        creditMovedToInvoiceId: b.id,
        ...values,
      });
    const moveIn =
      (values: Partial<Entry> = {}) =>
      (outId: number) => ({
        invoiceId: b.id,
        amount: "10.00",
        creditFromPaymentId: outId,
        ...values,
      });
    await expect(write(moveOut({ amount: "10.00" }), moveIn())).rejects.toThrow();
    await expect(write(moveOut({ creditMovedToInvoiceId: a.id }), moveIn())).rejects.toThrow();
    await expect(write(moveOut())).rejects.toThrow();
    await expect(write(moveOut(), moveIn({ amount: "9.00" }))).rejects.toThrow();
    await expect(write(moveOut(), moveIn({ invoiceId: other.b.id }))).rejects.toThrow();
    await expect(write(moveOut(), moveIn())).resolves.toBeUndefined();
    expect(await paidAndRecount(b.id)).toMatchObject({ recount: "10.00" });
  });

  it("refuses the reversal of one half of a move without the other", async () => {
    const { a, b } = await creditAndDebt();
    const moved = await applyClientCredit(manager, a.id, { toInvoiceId: String(b.id), amount: "100.00" });
    if (!moved.ok) throw new Error(moved.message);
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(schema.payments).values({
          invoiceId: b.id,
          amount: "-100.00",
          paymentDate: today(),
          reversesPaymentId: moved.moveIn.id,
        });
      }),
    ).rejects.toThrow();
    expect(await paidAndRecount(b.id)).toEqual({ kept: "100.00", recount: "100.00" });
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

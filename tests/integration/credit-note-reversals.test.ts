// Reversing a credit note issued in error (docs/decisions/0920, "Money entries
// after the fact"), on both drivers: the credit note keeps its number and stays, a negative row without a
// number, dated the day of the reversal, names it, and the invoice is owed the amount again
// (credited total and status in the same transaction), once and only once (also when reversals
// race), with a reason, audited, idempotent, refused in a closed month and for anyone but an
// admin; the invoice page and document, the client statement and its CSV, the credit note lists
// and the kept totals all agree.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE } from "../../app/models/credit-note.server";
import { getCreditNoteToReverse, listCreditNotes } from "../../app/presenters/credit-note-list.server";
import { reverseCreditNote } from "../../app/services/invoices/reverse-credit-note.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth } from "../../app/models/period.server";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { clientStatementExport } from "../../app/presenters/statement-exports.server";
import { loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { receivedAmount, receivedLabel } from "../../app/utils/money-line-words";
import * as reverseDialog from "../../app/routes/_app.invoices_.$id.credit-notes.$creditNoteId.reverse";
import * as reversalApi from "../../app/routes/api.credit-notes.$id.reversal";
import { addDays, todayIn } from "../../app/utils/dates";
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
  rewriteInvoice,
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

/** An invoice of 10,000.00 for a client of its own, with one credit note of `amount` issued today. */
async function creditedInvoice(amount = "2000.00") {
  const { clientId, invoice: made } = await invoiceOfTenThousand(manager, agentId);
  const credited = await createCreditNote(manager, made.id, { amount, reason: "Wet shells" });
  if (!credited.ok) throw new Error(credited.message);
  return { clientId, invoice: made, creditNote: credited.creditNote };
}

/** The invoice's credited total against a recount of its credit notes and their reversals. */
async function creditedAndRecount(invoiceId: number) {
  const db = await getDb();
  return rowsOf<{ kept: string; recount: string }>(
    await db.execute(sql`
      select i.amount_credited::text as kept,
        (select coalesce(sum(c.amount), 0) from credit_notes c where c.invoice_id = i.id)::numeric(20,2)::text as recount
      from invoices i where i.id = ${invoiceId}`),
  )[0];
}

describe("reversing a credit note", () => {
  it("adds a negative row without a number, dated today, naming the credit note; the invoice is owed the amount again", async () => {
    const { invoice, creditNote } = await creditedInvoice("2500.25");
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountCredited: "2500.25", paymentStatus: "partial" });
    const before = await auditEvents("credit_note.reverse");

    const result = await reverseCreditNote(admin, creditNote.id, { reason: "  Issued against the wrong invoice  " });
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({
      replayed: false,
      creditNote: { id: creditNote.id, creditNoteNo: creditNote.creditNoteNo },
      invoice: { id: invoice.id, amountCredited: "0.00", paymentStatus: "pending" },
    });
    expect(result.reversal).toMatchObject({
      creditNoteNo: null,
      invoiceId: invoice.id,
      amount: "-2500.25",
      issueDate: today(),
      reason: "Issued against the wrong invoice",
      reversesCreditNoteId: creditNote.id,
      createdBy: admin.id,
    });
    // The credit note itself is unchanged; the invoice's credited total equals its entries' sum.
    const db = await getDb();
    const [kept] = await db.select().from(schema.creditNotes).where(eq(schema.creditNotes.id, creditNote.id));
    expect(kept).toEqual(creditNote);
    expect(await creditedAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });
    expect(await auditEvents("credit_note.reverse")).toBe(before + 1);

    // The credit note lists show both, the reversal first; the dialog knows it was reversed.
    const listed = await listCreditNotes(admin, { invoiceId: invoice.id });
    expect(
      listed.items.map((c) => [c.creditNoteNo, c.amount, c.reversesCreditNoteId, c.reversesCreditNoteNo, c.reversedOn]),
    ).toEqual([
      [null, "-2500.25", creditNote.id, creditNote.creditNoteNo, null],
      [creditNote.creditNoteNo, "2500.25", null, null, today()],
    ]);
    expect(await getCreditNoteToReverse(admin, creditNote.id, invoice.id)).toMatchObject({ reversedOn: today() });
    expect(await getCreditNoteToReverse(admin, result.reversal.id)).toBeNull();
    expect(await getCreditNoteToReverse(admin, creditNote.id, invoice.id + 1)).toBeNull();

    // The invoice page lists both; an invoice that had a credit note still cannot be voided.
    const detail = await getInvoiceDetail(admin, invoice.id);
    expect(
      detail!.creditNotes.items.map((c) => [c.creditNoteNo, c.amount, c.reversesCreditNoteNo, c.reversedOn]),
    ).toEqual([
      [null, "-2500.25", creditNote.creditNoteNo, null],
      [creditNote.creditNoteNo, "2500.25", null, today()],
    ]);
    expect(detail!.creditNotes.count).toBe(2);
    expect(await voidInvoice(manager, invoice.id, { reason: "Wrong" })).toMatchObject({ ok: false, status: 409 });
  });

  it("frees the amount for a corrected credit note, never more than the invoice; a paid invoice goes back to partial", async () => {
    const { invoice, creditNote } = await creditedInvoice("10000.00");
    expect(await invoiceRow(invoice.id)).toMatchObject({ paymentStatus: "paid" });
    expect(await createCreditNote(manager, invoice.id, { amount: "1.00", reason: "More" })).toMatchObject({
      ok: false,
      status: 409,
    });
    const paid = await recordPayment(manager, { invoiceId: invoice.id, amount: "100.00" });
    expect(paid).toMatchObject({ ok: false });
    expect(await reverseCreditNote(admin, creditNote.id, { reason: "Should have been 1,000" })).toMatchObject({
      ok: true,
      invoice: { amountCredited: "0.00", paymentStatus: "pending" },
    });
    const corrected = await createCreditNote(manager, invoice.id, { amount: "1000.00", reason: "Wet shells" });
    expect(corrected).toMatchObject({ ok: true, invoice: { amountCredited: "1000.00", paymentStatus: "partial" } });
    // The series stays gapless: the reversal took no number.
    if (!corrected.ok) throw new Error(corrected.message);
    expect(Number(corrected.creditNote.creditNoteNo.slice(3))).toBe(Number(creditNote.creditNoteNo.slice(3)) + 1);
    expect(await createCreditNote(manager, invoice.id, { amount: "9000.01", reason: "Too much" })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await creditedAndRecount(invoice.id)).toEqual({ kept: "1000.00", recount: "1000.00" });
  });

  it("shows on the client statement as a negative credit on its own day, in the statement's CSV and on the invoice document", async () => {
    const { clientId, invoice, creditNote } = await creditedInvoice("1500.00");
    // Reversed (by the clock) tomorrow: today's statement still shows the credit.
    const tomorrow = addDays(today(), 1);
    const reversed = await reverseCreditNote(
      admin,
      creditNote.id,
      { reason: "Shells were dry after all" },
      new Date(Date.now() + 86_400_000),
    );
    if (!reversed.ok) throw new Error(reversed.message);
    expect(reversed.reversal.issueDate).toBe(tomorrow);
    const statementOf = async (period: { from: string; to: string }) => {
      const made = await clientStatement(admin, clientId, period);
      if (!made.ok) throw new Error(made.message);
      return made.statement;
    };
    const before = await statementOf({ from: today(), to: today() });
    expect(before.lines.map((l) => [l.kind, l.reference, l.credit, l.balance])).toEqual([
      ["invoice", invoice.invoiceNo, "0.00", "10000.00"],
      ["credit_note", creditNote.creditNoteNo, "1500.00", "8500.00"],
    ]);
    expect(before).toMatchObject({ closingBalance: "8500.00", ageing: { total: "8500.00" } });

    const period = { from: today(), to: tomorrow };
    const statement = await statementOf(period);
    expect(statement.lines.map((l) => [l.kind, l.reference, l.debit, l.credit, l.balance, l.note])).toEqual([
      ["invoice", invoice.invoiceNo, "10000.00", "0.00", "10000.00", null],
      ["credit_note", creditNote.creditNoteNo, "0.00", "1500.00", "8500.00", null],
      ["credit_note_reversal", creditNote.creditNoteNo, "0.00", "-1500.00", "10000.00", "Shells were dry after all"],
    ]);
    // Invoiced 10,000; paid and credited net of the reversal: nothing.
    expect(statement).toMatchObject({
      totalDebits: "10000.00",
      totalCredits: "0.00",
      closingBalance: "10000.00",
      ageing: { total: "10000.00" },
    });
    expect((await statementOf({ from: tomorrow, to: tomorrow })).openingBalance).toBe("8500.00");

    const csv = await clientStatementExport(admin, clientId, new URLSearchParams(period));
    if (!csv || "invalid" in csv) throw new Error("no export");
    const text = await csvText(csv.batches);
    expect(text).toContain('"type":"Credit note reversal"');
    expect(text).toContain(`"reference":"Reverses ${creditNote.creditNoteNo}: Shells were dry after all"`);

    const document = await loadInvoiceDocument(admin, invoice.id);
    expect(document!.received.map((r) => [receivedLabel(r), receivedAmount(r)])).toEqual([
      [expect.stringMatching(new RegExp(`^Credit note .*\\(${creditNote.creditNoteNo}: Wet shells\\)$`)), "-₦1,500.00"],
      [
        expect.stringMatching(
          new RegExp(`^Credit note reversed .*\\(Reverses ${creditNote.creditNoteNo}: Shells were dry after all\\)$`),
        ),
        "+₦1,500.00",
      ],
    ]);
    expect(document!.balance).toBe("10000.00");
  });

  it("refuses a second reversal, a reversal of a reversal, an unknown credit note, another invoice's, no reason and a manager; writes nothing", async () => {
    const { invoice, creditNote } = await creditedInvoice();
    const first = await reverseCreditNote(admin, creditNote.id, { reason: "Duplicate" });
    if (!first.ok) throw new Error(first.message);
    const other = await creditedInvoice("100.00");
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.creditNotes))[0].n;
    const rows = await count();
    const reverseEvents = await auditEvents("credit_note.reverse");
    expect(await reverseCreditNote(admin, creditNote.id, { reason: "Again" })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(
        new RegExp(`^Credit note ${creditNote.creditNoteNo} was already reversed on [A-Z][a-z]{2} \\d\\d, \\d{4}$`),
      ),
    });
    expect(await reverseCreditNote(admin, first.reversal.id, { reason: "Undo" })).toMatchObject({
      ok: false,
      status: 409,
      message: CREDIT_NOTE_REVERSAL_NOT_REVERSIBLE,
    });
    expect(await reverseCreditNote(admin, 99_999_999, { reason: "x" })).toMatchObject({ status: 404 });
    expect(
      await reverseCreditNote(admin, other.creditNote.id, { reason: "x" }, new Date(), { invoiceId: invoice.id }),
    ).toMatchObject({ status: 404 });
    expect(await reverseCreditNote(admin, other.creditNote.id, { reason: "   " })).toMatchObject({
      status: 400,
      fieldErrors: { reason: ["Reason is required"] },
    });
    expect(await reverseCreditNote(manager, other.creditNote.id, { reason: "x" })).toMatchObject({ status: 403 });
    expect(await count()).toBe(rows);
    expect(await auditEvents("credit_note.reverse")).toBe(reverseEvents);
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountCredited: "0.00" });
    expect(await invoiceRow(other.invoice.id)).toMatchObject({ amountCredited: "100.00" });
  });

  it("three reversals of one credit note at once: one lands, the others are refused", async () => {
    const { invoice, creditNote } = await creditedInvoice("3000.00");
    const results = await Promise.all(
      ["Race one", "Race two", "Race three"].map((reason) => reverseCreditNote(admin, creditNote.id, { reason })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.status))).toEqual([409, 409]);
    expect(await creditedAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });
  });

  it("is idempotent under one key, and refused while today's month is closed", async () => {
    const { creditNote } = await creditedInvoice();
    const key = `reverse-credit-note-${creditNote.id}`;
    const first = await reverseCreditNote(admin, creditNote.id, { reason: "Keyed" }, new Date(), {
      idempotencyKey: key,
    });
    const again = await reverseCreditNote(admin, creditNote.id, { reason: "Keyed" }, new Date(), {
      idempotencyKey: key,
    });
    if (!first.ok || !again.ok) throw new Error("not reversed");
    expect(again).toMatchObject({
      replayed: true,
      reversal: { id: first.reversal.id },
      invoice: { amountCredited: "0.00" },
    });

    // With March 2025 closed, a reversal made (by the clock) then is refused.
    const closed = await creditedInvoice();
    expect(await closeMonth(admin, { month: "2025-03" })).toMatchObject({ ok: true });
    expect(
      await reverseCreditNote(admin, closed.creditNote.id, { reason: "Late" }, new Date("2025-03-15T10:00:00Z")),
    ).toMatchObject({ ok: false, status: 409, message: expect.stringContaining("This month is closed") });
    expect(await invoiceRow(closed.invoice.id)).toMatchObject({ amountCredited: "2000.00" });
  });

  it("keeps the status roll-up and what clients owe equal to a recount", async () => {
    const { creditNote } = await creditedInvoice("7000.00");
    expect(await reverseCreditNote(admin, creditNote.id, { reason: "Recount" })).toMatchObject({ ok: true });
    await expectKeptTotalsToMatchRebuild(["invoice_status_rollup", "client_owed_totals"]);
  });

  it("db:check recounts the credited total with the reversals, and reports one that drifted", async () => {
    const { invoice, creditNote } = await creditedInvoice("900.00");
    expect(await reverseCreditNote(admin, creditNote.id, { reason: "Drift" })).toMatchObject({ ok: true });
    const db = await getDb();
    const credited = async () =>
      (await findBreaches(db as unknown as Db)).filter((b) => b.check.startsWith("amount credited"));
    expect(await credited()).toEqual([]);
    // A credited total that no longer matches its entries, written behind the table's own
    // check (which refuses it at commit: money-rows-guards.test.ts).
    await rewriteInvoice(invoice.id, { amountCredited: "900.00" });
    expect(await credited()).toEqual([
      {
        check: "amount credited equals the sum of credit notes",
        detail: `invoice ${invoice.invoiceNo}: amountCredited 900.00, credit notes 0.00`,
      },
    ]);
    await rewriteInvoice(invoice.id, { amountCredited: "0.00" });
    expect(await credited()).toEqual([]);
  });
});

describe("the Reverse Credit Note form and its JSON twin", () => {
  it("the form redirects to the invoice, once per key; no reason is a 400; another invoice's credit note is 404", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice, creditNote } = await creditedInvoice();
    const params = { id: String(invoice.id), creditNoteId: String(creditNote.id) };
    const path = `/invoices/${invoice.id}/credit-notes/${creditNote.id}/reverse`;
    const shown = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect(shown).toMatchObject({
      status: 200,
      body: {
        creditNote: { id: creditNote.id, creditNoteNo: creditNote.creditNoteNo, amount: "2000.00" },
        invoiceNo: invoice.invoiceNo,
        reversedOn: null,
      },
    });
    const elsewhere = await call(reverseDialog.loader, makeRequest(path, { cookie }), {
      ...params,
      id: String(invoice.id + 1),
    });
    expect(elsewhere.status).toBe(404);

    const empty = await call(
      reverseDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { reason: "" } }),
      params,
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain("Reason is required");
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountCredited: "2000.00" });

    const form = { reason: "Issued twice", idempotencyKey: `form-cn-${creditNote.id}` };
    const done = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/invoices/${invoice.id}`);
    const twice = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(twice.status).toBe(302);
    expect(await creditedAndRecount(invoice.id)).toEqual({ kept: "0.00", recount: "0.00" });

    const after = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect((after.body as { reversedOn: string | null }).reversedOn).toBe(today());
    const bad = await call(reverseDialog.loader, makeRequest(`/invoices/x/credit-notes/y/reverse`, { cookie }), {
      id: "x",
      creditNoteId: "y",
    });
    expect(bad.status).toBe(404);
  });

  it("POST /api/credit-notes/{id}/reversal: 201, 200 on a replay, 409 after, 404 unknown, 405 for GET", async () => {
    const { cookie } = await loginAs("admin");
    const { invoice, creditNote } = await creditedInvoice("1234.56");
    const path = `/api/credit-notes/${creditNote.id}/reversal`;
    const params = { id: String(creditNote.id) };
    const headers = { "Idempotency-Key": `api-cn-${creditNote.id}` };
    const send = (json: unknown, h: Record<string, string> = headers) =>
      call(reversalApi.action, makeRequest(path, { method: "POST", cookie, json, headers: h }), params);
    expect((await send({})).status).toBe(400);
    const first = await send({ reason: "Typed the wrong amount" });
    expect(first).toMatchObject({
      status: 201,
      body: {
        creditNoteNo: null,
        amount: "-1234.56",
        reversesCreditNoteId: creditNote.id,
        reversesCreditNoteNo: creditNote.creditNoteNo,
        reason: "Typed the wrong amount",
        invoiceNo: invoice.invoiceNo,
        amountCredited: "0.00",
        paymentStatus: "pending",
      },
    });
    const replay = await send({ reason: "Typed the wrong amount" });
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await send({ reason: "Again" }, {})).toMatchObject({ status: 409 });
    const unknown = await call(
      reversalApi.action,
      makeRequest(`/api/credit-notes/999999/reversal`, { method: "POST", cookie, json: { reason: "x" } }),
      { id: "999999" },
    );
    expect(unknown.status).toBe(404);
    expect((await call(reversalApi.loader, makeRequest(path, { cookie }), params)).status).toBe(405);
  });
});

describeAccess("credit note reversals", [
  {
    name: "reverse credit note dialog",
    handler: reverseDialog.loader,
    method: "GET",
    path: "/invoices/1/credit-notes/1/reverse",
    params: { id: "1", creditNoteId: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse credit note",
    handler: reverseDialog.action,
    method: "POST",
    path: "/invoices/1/credit-notes/1/reverse",
    params: { id: "1", creditNoteId: "1" },
    form: { reason: "" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reverse credit note (JSON)",
    handler: reversalApi.action,
    method: "POST",
    path: "/api/credit-notes/1/reversal",
    params: { id: "1" },
    json: { reason: "" },
    allowed: ["admin"],
  },
]);

describe("the credit notes table keeps its own rules", () => {
  it("refuses a negative credit note, a numbered or positive reversal, a partial one, another invoice's, and a second", async () => {
    const { invoice, creditNote } = await creditedInvoice();
    const other = await creditedInvoice();
    // Behind the app, so the invoice's totals do not move: their own check is off here.
    const insert = (values: Partial<typeof schema.creditNotes.$inferInsert>) =>
      behindTotals((tx) =>
        tx
          .insert(schema.creditNotes)
          .values({ invoiceId: invoice.id, amount: "-2000.00", reason: "Direct", issueDate: today(), ...values })
          .returning(),
      );
    await expect(insert({ creditNoteNo: "CN-999999" })).rejects.toThrow();
    await expect(insert({ amount: "2000.00", reversesCreditNoteId: creditNote.id })).rejects.toThrow();
    await expect(insert({ creditNoteNo: "CN-999999", reversesCreditNoteId: creditNote.id })).rejects.toThrow();
    await expect(insert({ amount: "-1.00", reversesCreditNoteId: creditNote.id })).rejects.toThrow();
    await expect(insert({ reversesCreditNoteId: other.creditNote.id })).rejects.toThrow();
    const [reversal] = await insert({ reversesCreditNoteId: creditNote.id });
    await expect(insert({ reversesCreditNoteId: creditNote.id })).rejects.toThrow();
    // A reversal of a reversal.
    await expect(insert({ amount: "2000.00", reversesCreditNoteId: reversal.id })).rejects.toThrow();
  });

  it("never rewrites or removes a credit note", async () => {
    const { creditNote } = await creditedInvoice();
    for (const statement of [
      sql`update credit_notes set amount = 1 where id = ${creditNote.id}`,
      sql`delete from credit_notes where id = ${creditNote.id}`,
      sql`truncate credit_notes cascade`,
    ]) {
      expect(await statementOutcome(statement)).toMatch(/credit_notes is append-only/);
    }
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

// Decision 0920: mistakes corrected without losing history. Void (only an unsettled invoice; number
// kept; deliveries back to confirmed) and credit notes (own gapless series; balance = amount -
// paid - credited), on PGlite and PostgreSQL alike, with racing requests and bad input.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { listCreditNotes } from "../../app/presenters/credit-note-list.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { listEligibleDeliveries } from "../../app/presenters/invoice-picker.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import { invoiceSummary, listInvoices } from "../../app/presenters/invoice-list.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { add, compare, sub, toFixed } from "../../app/utils/money";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { expectEveryEventWorded } from "../audit-words";

let agentId: number;
let clientId: number;
let manager: User;

beforeAll(async () => {
  agentId = (await createAgent()).id;
  clientId = (await createClient({ taxRate: "7.50", paymentTermsDays: 3650 })).id;
  manager = await createUser({ role: "manager" });
});

/** An invoice of exactly `amount` (1 ton at that rate) over a fresh delivery. */
async function invoiceOf(amount = "1000.00", date = "2026-03-10") {
  const d = await createDelivery({ agentId, clientId, createdBy: manager.id, tons: "1.00", sellingRate: amount, date });
  const made = await createInvoiceForDelivery(manager, { deliveryId: d.id });
  if (!made.ok) throw new Error(made.message);
  return { invoice: made.invoice, delivery: d };
}

/** Everything a refused correction could have written. */
async function snapshot(invoiceId: number) {
  const db = await getDb();
  const count = async (
    table: typeof schema.payments | typeof schema.creditNotes | typeof schema.invoices | typeof schema.auditEvents,
  ) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  const [invoice] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
  const deliveries = await db
    .select({ id: schema.deliveries.id, status: schema.deliveries.status, invoiceId: schema.deliveries.invoiceId })
    .from(schema.deliveries)
    .where(eq(schema.deliveries.invoiceId, invoiceId));
  const counters = [await db.select().from(schema.creditNoteCounter), await db.select().from(schema.invoiceCounter)];
  const totals = await db.select().from(schema.invoiceStatusTotals);
  return {
    invoice,
    deliveries,
    payments: await count(schema.payments),
    creditNotes: await count(schema.creditNotes),
    invoices: await count(schema.invoices),
    auditEvents: await count(schema.auditEvents),
    counters: JSON.stringify(counters),
    totals: JSON.stringify(
      totals.sort((a, b) =>
        `${a.paymentStatus}${a.dueDate}${a.owed}`.localeCompare(`${b.paymentStatus}${b.dueDate}${b.owed}`),
      ),
    ),
  };
}

describe("void", () => {
  it("keeps the number, frees the deliveries for a new invoice, keeps what it covered, counts in no total", async () => {
    const before = await invoiceSummary(manager);
    const { invoice, delivery } = await invoiceOf("2150.00");
    const voided = await voidInvoice(manager, invoice.id, { reason: "  Wrong client on the weighbridge ticket " });
    expect(voided).toMatchObject({
      ok: true,
      freedDeliveries: { count: 1, firstId: delivery.id, lastId: delivery.id },
    });
    if (!voided.ok) return;
    expect(voided.invoice).toMatchObject({
      invoiceNo: invoice.invoiceNo,
      paymentStatus: "void",
      voidReason: "Wrong client on the weighbridge ticket",
      voidedBy: manager.id,
    });
    const db = await getDb();
    const [freed] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, delivery.id));
    expect(freed).toMatchObject({ status: "confirmed", invoiceId: null });
    expect((await listEligibleDeliveries(manager, {}, { limit: 500 })).items.map((e) => e.id)).toContain(delivery.id);
    // Counts in no total: the summary is as before the invoice was made.
    expect(await invoiceSummary(manager)).toEqual(before);
    // The page still shows what it covered, its reason, no balance, and its tax.
    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(detail).toMatchObject({
      paymentStatus: "void",
      balance: "0.00",
      voidReason: "Wrong client on the weighbridge ticket",
      taxRate: "7.50",
      taxAmount: "150.00",
      lines: { count: 1, items: [{ deliveryId: delivery.id, tons: "1.000", amount: "2150.00" }] },
    });
    // Re-invoiced under the next number; the void number is never reused.
    const again = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(again.ok && again.invoice.invoiceNo).toBe(String(Number(invoice.invoiceNo) + 1));
    const [reinvoiced] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, delivery.id));
    expect(reinvoiced).toMatchObject({ status: "invoiced", invoiceId: again.ok ? again.invoice.id : -1 });
    // The void one is listed under its own filter, and takes no payment.
    expect((await listInvoices(manager, { status: "void" })).items.map((i) => i.id)).toContain(invoice.id);
    expect((await listInvoices(manager, { status: "pending" })).items.map((i) => i.id)).not.toContain(invoice.id);
    const s = await snapshot(invoice.id);
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "1.00" })).toMatchObject({
      ok: false,
      status: 409,
      message: "This invoice is void and accepts no payment",
    });
    expect(await createCreditNote(manager, invoice.id, { amount: "1.00", reason: "x" })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await voidInvoice(manager, invoice.id, { reason: "again" })).toMatchObject({ ok: false, status: 409 });
    expect(await snapshot(invoice.id)).toEqual(s);
  });

  it("a month invoice frees every delivery it covered", async () => {
    const ds = await Promise.all(
      ["2025-07-01", "2025-07-09", "2025-07-20"].map((date) =>
        createDelivery({ agentId, clientId, createdBy: manager.id, date }),
      ),
    );
    const { createInvoicesForMonth } = await import("../../app/services/invoices/create-month-invoices.server");
    const made = await createInvoicesForMonth(manager, "2025-07");
    if (!made.ok) throw new Error(made.message);
    const [invoice] = made.invoices;
    const detail = await getInvoiceDetail(manager, invoice.id, { linesLimit: 2 });
    expect(detail?.lines.count).toBe(3);
    expect(detail?.lines.items.map((l) => l.date)).toEqual(["2025-07-20", "2025-07-09"]);
    expect(detail?.lines.olderCursor).not.toBeNull();
    const voided = await voidInvoice(manager, invoice.id, { reason: "Billed the wrong month" });
    const ids = ds.map((d) => d.id);
    expect(voided.ok && voided.freedDeliveries).toEqual({
      count: 3,
      firstId: Math.min(...ids),
      lastId: Math.max(...ids),
    });
    expect((await getInvoiceDetail(manager, invoice.id))?.lines.count).toBe(3);
  });

  it("refuses without a reason, or once anything is paid or credited (issue a credit note), writing nothing", async () => {
    const { invoice } = await invoiceOf("500.00");
    for (const input of [{}, { reason: "" }, { reason: "   " }, { reason: 42 }, { reason: "x".repeat(501) }]) {
      const before = await snapshot(invoice.id);
      expect(await voidInvoice(manager, invoice.id, input), JSON.stringify(input)).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { reason: [expect.any(String)] },
      });
      expect(await snapshot(invoice.id)).toEqual(before);
    }
    expect(await voidInvoice(manager, 999999, { reason: "x" })).toMatchObject({ ok: false, status: 404 });

    const paid = await invoiceOf("500.00");
    expect(await recordPayment(manager, { invoiceId: paid.invoice.id, amount: "500.00" })).toMatchObject({ ok: true });
    const partly = await invoiceOf("500.00");
    expect(await recordPayment(manager, { invoiceId: partly.invoice.id, amount: "0.01" })).toMatchObject({ ok: true });
    const credited = await invoiceOf("500.00");
    expect(await createCreditNote(manager, credited.invoice.id, { amount: "5.00", reason: "Moisture" })).toMatchObject({
      ok: true,
    });
    for (const { invoice: target } of [paid, partly, credited]) {
      const before = await snapshot(target.id);
      const result = await voidInvoice(manager, target.id, { reason: "Typo" });
      expect(result).toMatchObject({ ok: false, status: 409 });
      expect(!result.ok && result.message).toMatch(/issue a credit note/);
      expect(await snapshot(target.id)).toEqual(before);
    }
  });
});

describe("credit notes", () => {
  it("number CN-1, CN-2, ...; reduce the balance; paid once paid + credited reaches the amount; then a credit balance", async () => {
    const { invoice } = await invoiceOf("1000.00");
    const first = await createCreditNote(manager, invoice.id, { amount: "150.00", reason: "Short weight at the mill" });
    expect(first).toMatchObject({ ok: true, creditNote: { amount: "150.00", reason: "Short weight at the mill" } });
    if (!first.ok) return;
    expect(first.creditNote.creditNoteNo).toMatch(/^CN-\d+$/);
    const n = Number(first.creditNote.creditNoteNo.slice(3));
    expect(first.invoice).toMatchObject({ amountCredited: "150.00", paymentStatus: "partial" });
    expect(await getInvoiceDetail(manager, invoice.id)).toMatchObject({
      balance: "850.00",
      paymentStatus: "partial",
      creditNotes: { count: 1 },
    });
    // A payment may not pass what the credit left: 850.00.
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "850.01" })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "850.00" })).toMatchObject({
      ok: true,
      paymentStatus: "paid",
    });
    // Paid in full, still creditable up to the amount less earlier credits: a credit balance.
    const second = await createCreditNote(manager, invoice.id, {
      amount: "100.50",
      reason: "Price agreed after delivery",
    });
    expect(second.ok && second.creditNote.creditNoteNo).toBe(`CN-${n + 1}`);
    expect(await getInvoiceDetail(manager, invoice.id)).toMatchObject({
      amountPaid: "850.00",
      amountCredited: "250.50",
      balance: "-100.50",
      paymentStatus: "paid",
    });
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "0.01" })).toMatchObject({
      ok: false,
      status: 409,
      message: "This invoice is already paid in full",
    });
    // The list: newest first, filterable by invoice.
    const listed = await listCreditNotes(manager, { invoiceId: invoice.id });
    expect(listed.items.map((c) => c.creditNoteNo)).toEqual([`CN-${n + 1}`, `CN-${n}`]);
    expect(listed.items[0]).toMatchObject({ invoiceNo: invoice.invoiceNo, amount: "100.50" });
  });

  it("refuses a missing reason, zero, negative, 3 decimals and more than the amount less earlier credits, writing nothing", async () => {
    const { invoice } = await invoiceOf("300.00");
    expect(await createCreditNote(manager, invoice.id, { amount: "100.00", reason: "First" })).toMatchObject({
      ok: true,
    });
    const bad: [Record<string, unknown>, number, string][] = [
      [{ amount: "10.00" }, 400, "reason"],
      [{ amount: "10.00", reason: "  " }, 400, "reason"],
      [{ amount: "0", reason: "x" }, 400, "amount"],
      [{ amount: "0.00", reason: "x" }, 400, "amount"],
      [{ amount: "-5.00", reason: "x" }, 400, "amount"],
      [{ amount: "1.005", reason: "x" }, 400, "amount"],
      [{ amount: 0.1 + 0.2, reason: "x" }, 400, "amount"],
      [{ amount: "abc", reason: "x" }, 400, "amount"],
      [{ reason: "x" }, 400, "amount"],
      [{ amount: "200.01", reason: "Beyond the limit" }, 409, "amount"],
    ];
    for (const [input, status, field] of bad) {
      const before = await snapshot(invoice.id);
      const result = await createCreditNote(manager, invoice.id, input, new Date(), {
        idempotencyKey: crypto.randomUUID(),
      });
      expect(result, JSON.stringify(input)).toMatchObject({
        ok: false,
        status,
        fieldErrors: { [field]: [expect.any(String)] },
      });
      expect(await snapshot(invoice.id), JSON.stringify(input)).toEqual(before);
    }
    expect(await createCreditNote(manager, 999999, { amount: "1.00", reason: "x" })).toMatchObject({ status: 404 });
    // Exactly the rest is fine.
    expect(await createCreditNote(manager, invoice.id, { amount: "200.00", reason: "Rest" })).toMatchObject({
      ok: true,
    });
    expect(await createCreditNote(manager, invoice.id, { amount: "0.01", reason: "More" })).toMatchObject({
      ok: false,
      status: 409,
      message: "This invoice is already fully credited",
    });
  });

  it("repeats of one Idempotency-Key issue one credit note; a different body under it is refused", async () => {
    const { invoice } = await invoiceOf("400.00");
    const key = crypto.randomUUID();
    const input = { amount: "40.00", reason: "Double tap" };
    const results = await Promise.all(
      [1, 2, 3].map(() => createCreditNote(manager, invoice.id, input, new Date(), { idempotencyKey: key })),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(new Set(results.map((r) => r.ok && r.creditNote.id)).size).toBe(1);
    expect(results.filter((r) => r.ok && r.replayed).length).toBe(2);
    expect((await getInvoiceDetail(manager, invoice.id))?.amountCredited).toBe("40.00");
    expect(
      await createCreditNote(manager, invoice.id, { amount: "41.00", reason: "Double tap" }, new Date(), {
        idempotencyKey: key,
      }),
    ).toMatchObject({ ok: false, status: 422 });
  });
});

describe("under racing requests", () => {
  it("50 concurrent credit notes: the ones that fit get consecutive numbers, refused ones take none", async () => {
    const { invoice } = await invoiceOf("300.00");
    const db = await getDb();
    const counter = async () => Number((await db.select().from(schema.creditNoteCounter))[0]?.lastNo ?? 0);
    const before = await counter();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createCreditNote(manager, invoice.id, { amount: "10.00", reason: `Race ${i}` }),
      ),
    );
    const made = results.filter((r) => r.ok);
    expect(made.length).toBe(30);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.status === 409)).toBe(true);
    const numbers = made.map((r) => (r.ok ? Number(r.creditNote.creditNoteNo.slice(3)) : 0)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 30 }, (_, i) => before + 1 + i));
    expect(await counter()).toBe(before + 30);
    expect((await getInvoiceDetail(manager, invoice.id))?.amountCredited).toBe("300.00");
  });

  it("50 concurrent invoices with voids among them: consecutive numbers, none reused", async () => {
    const ds = await Promise.all(
      Array.from({ length: 50 }, () =>
        createDelivery({ agentId, clientId, createdBy: manager.id, date: "2026-04-02" }),
      ),
    );
    const earlier = await invoiceOf("10.00");
    const results = await Promise.all([
      ...ds.map((d) => createInvoiceForDelivery(manager, { deliveryId: d.id })),
      voidInvoice(manager, earlier.invoice.id, { reason: "Raced" }),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    const numbers = results
      .slice(0, 50)
      .map((r) => (r.ok && "invoice" in r ? Number(r.invoice.invoiceNo) : 0))
      .sort((a, b) => a - b);
    const first = Number(earlier.invoice.invoiceNo) + 1;
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => first + i));
    const again = await createInvoiceForDelivery(manager, { deliveryId: earlier.delivery.id });
    expect(again.ok && again.invoice.invoiceNo).toBe(String(first + 50));
  });

  it("racing payments and credit notes: each was allowed by what was settled when it ran, and the totals add up", async () => {
    const AMOUNT = "100.00";
    const { invoice } = await invoiceOf(AMOUNT);
    const requests = Array.from({ length: 40 }, (_, i) =>
      i % 2 === 0
        ? recordPayment(manager, { invoiceId: invoice.id, amount: "10.00" }).then((r) => ({
            kind: "payment" as const,
            r,
          }))
        : createCreditNote(manager, invoice.id, { amount: "15.00", reason: `Race ${i}` }).then((r) => ({
            kind: "credit" as const,
            r,
          })),
    );
    const outcomes = await Promise.all(requests);
    // The invoice row lock puts them in one order; each success reports the invoice after it.
    type Step = { kind: "payment" | "credit"; amount: string; paid: string; credited: string };
    const steps: Step[] = [];
    for (const { kind, r } of outcomes) {
      if (!r.ok) {
        expect(r.status).toBe(409);
        continue;
      }
      if (kind === "payment" && "payment" in r)
        steps.push({ kind, amount: r.payment.amount, paid: r.amountPaid, credited: r.amountCredited });
      if (kind === "credit" && "creditNote" in r)
        steps.push({
          kind,
          amount: r.creditNote.amount,
          paid: r.invoice.amountPaid,
          credited: r.invoice.amountCredited,
        });
    }
    steps.sort((a, b) => compare(add(a.paid, a.credited), add(b.paid, b.credited)));
    let paid = "0.00";
    let credited = "0.00";
    for (const step of steps) {
      if (step.kind === "payment") {
        // A payment never takes paid + credited past the amount.
        expect(compare(add(paid, credited, step.amount), AMOUNT)).toBeLessThanOrEqual(0);
        paid = toFixed(add(paid, step.amount));
      } else {
        // A credit never takes the credits past the amount.
        expect(compare(add(credited, step.amount), AMOUNT)).toBeLessThanOrEqual(0);
        credited = toFixed(add(credited, step.amount));
      }
      expect({ paid: step.paid, credited: step.credited }).toEqual({ paid, credited });
    }
    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(detail).toMatchObject({ amountPaid: paid, amountCredited: credited, paymentStatus: "paid" });
    expect(detail?.balance).toBe(toFixed(sub(AMOUNT, add(paid, credited))));
    // Refused ones wrote nothing: the rows are exactly the successes.
    expect(detail?.payments.count).toBe(steps.filter((s) => s.kind === "payment").length);
    expect(detail?.creditNotes.count).toBe(steps.filter((s) => s.kind === "credit").length);
    expect(steps.length).toBeLessThan(40);
  });
});

describe("the JSON calls", () => {
  it("GET /api/invoices/{id}, POST void and credit-notes, GET /api/credit-notes: statuses and messages", async () => {
    const invoiceRoute = await import("../../app/routes/api.invoices.$id");
    const voidRoute = await import("../../app/routes/api.invoices.$id.void");
    const creditRoute = await import("../../app/routes/api.invoices.$id.credit-notes");
    const listRoute = await import("../../app/routes/api.credit-notes");
    const { loginAs } = await import("../factories");
    const { call, makeRequest } = await import("../http");
    const { cookie } = await loginAs("manager");
    const staff = await loginAs("staff");

    const { invoice } = await invoiceOf("2150.00");
    const id = String(invoice.id);
    const got = await call(invoiceRoute.loader, makeRequest(`/api/invoices/${id}`, { cookie }), { id });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      invoiceNo: invoice.invoiceNo,
      taxRate: "7.50",
      taxAmount: "150.00",
      balance: "2150.00",
      lines: { count: 1 },
      payments: { count: 0, items: [] },
      creditNotes: { count: 0, items: [] },
    });
    expect(
      (await call(invoiceRoute.loader, makeRequest(`/api/invoices/${id}`, { cookie: staff.cookie }), { id })).status,
    ).toBe(403);
    expect(
      (await call(invoiceRoute.loader, makeRequest("/api/invoices/999999", { cookie }), { id: "999999" })).status,
    ).toBe(404);

    // A credit note, idempotent under its header.
    const post = (body: unknown, key?: string) =>
      call(
        creditRoute.action,
        makeRequest(`/api/invoices/${id}/credit-notes`, {
          method: "POST",
          cookie,
          json: body,
          headers: key ? { "Idempotency-Key": key } : {},
        }),
        { id },
      );
    const key = crypto.randomUUID();
    const first = await post({ amount: "150.00", reason: "Moisture above 12%" }, key);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      creditNoteNo: expect.stringMatching(/^CN-\d+$/),
      amount: "150.00",
      invoice: { amountCredited: "150.00", balance: "2000.00", paymentStatus: "partial" },
    });
    const replay = await post({ amount: "150.00", reason: "Moisture above 12%" }, key);
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await post({ amount: "0", reason: "x" })).toMatchObject({ status: 400 });
    expect(await post({ amount: "10.00" })).toMatchObject({ status: 400, body: { message: "Reason is required" } });
    expect(await post({ amount: "2000.01", reason: "Too much" })).toMatchObject({ status: 409 });

    // Void refused once credited: 409 saying to issue a credit note.
    const voided = await call(
      voidRoute.action,
      makeRequest(`/api/invoices/${id}/void`, { method: "POST", cookie, json: { reason: "Typo" } }),
      { id },
    );
    expect(voided.status).toBe(409);
    expect((voided.body as { message: string }).message).toMatch(/issue a credit note/);

    const fresh = await invoiceOf("99.00");
    const freshId = String(fresh.invoice.id);
    const noReason = await call(
      voidRoute.action,
      makeRequest(`/api/invoices/${freshId}/void`, { method: "POST", cookie, json: {} }),
      { id: freshId },
    );
    expect(noReason).toMatchObject({ status: 400, body: { message: "Reason is required" } });
    const ok = await call(
      voidRoute.action,
      makeRequest(`/api/invoices/${freshId}/void`, { method: "POST", cookie, json: { reason: "Duplicate" } }),
      { id: freshId },
    );
    expect(ok).toMatchObject({
      status: 200,
      body: {
        paymentStatus: "void",
        voidReason: "Duplicate",
        freedDeliveries: { count: 1, firstId: fresh.delivery.id, lastId: fresh.delivery.id },
      },
    });

    // The list, keyset-paged with limit and cursor.
    const page = await call(listRoute.loader, makeRequest("/api/credit-notes?limit=1", { cookie }));
    expect(page.status).toBe(200);
    expect((page.body as unknown[]).length).toBe(1);
    const next = page.headers.get("X-Next-Cursor");
    expect(next).toBeTruthy();
    const page2 = await call(listRoute.loader, makeRequest(`/api/credit-notes?limit=1&cursor=${next}`, { cookie }));
    expect((page2.body as { id: number }[])[0].id).toBeLessThan((page.body as { id: number }[])[0].id);
    expect((await call(listRoute.loader, makeRequest("/api/credit-notes?cursor=x", { cookie }))).status).toBe(400);
    expect((await call(listRoute.loader, makeRequest("/api/credit-notes", { cookie: staff.cookie }))).status).toBe(403);
  });
});

describe("the audit trail and month close", () => {
  const eventsOf = async (entityType: string, entityId: number) => {
    const db = await getDb();
    return db
      .select()
      .from(schema.auditEvents)
      .where(
        sql`${schema.auditEvents.entityType} = ${entityType} and ${schema.auditEvents.entityId} = ${String(entityId)}`,
      );
  };

  it("a void writes one invoice.void event in its transaction, naming the freed deliveries; the page shows it", async () => {
    const { invoice, delivery } = await invoiceOf("120.00");
    expect((await eventsOf("invoice", invoice.id)).map((e) => e.action)).toEqual(["invoice.create"]);
    const voided = await voidInvoice(manager, invoice.id, { reason: "Duplicate of another ticket" });
    expect(voided.ok).toBe(true);
    const events = await eventsOf("invoice", invoice.id);
    expect(events.map((e) => e.action).sort()).toEqual(["invoice.create", "invoice.void"]);
    const event = events.find((e) => e.action === "invoice.void")!;
    expect(event).toMatchObject({
      actorId: manager.id,
      before: { paymentStatus: "pending", amount: "120.00", voidReason: null },
      after: {
        paymentStatus: "void",
        voidReason: "Duplicate of another ticket",
        freedDeliveryCount: 1,
        firstFreedDeliveryId: delivery.id,
        lastFreedDeliveryId: delivery.id,
      },
    });
    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(detail?.history.map((e) => e.action)).toEqual(["invoice.void", "invoice.create"]);
  });

  it("a credit note writes one credit_note.create event with the money before and after", async () => {
    const { invoice } = await invoiceOf("80.00");
    const made = await createCreditNote(manager, invoice.id, { amount: "30.00", reason: "Quality" });
    if (!made.ok) throw new Error(made.message);
    const events = await eventsOf("credit_note", made.creditNote.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: "credit_note.create",
      actorId: manager.id,
      before: { invoiceId: invoice.id, amountCredited: "0.00", paymentStatus: "pending" },
      after: {
        creditNoteNo: made.creditNote.creditNoteNo,
        amount: "30.00",
        amountCredited: "30.00",
        reason: "Quality",
      },
    });
  });

  it("refused voids and credit notes write no event (the snapshot counts audit events)", async () => {
    const { invoice } = await invoiceOf("60.00");
    const before = await snapshot(invoice.id);
    expect((await voidInvoice(manager, invoice.id, { reason: "" })).ok).toBe(false);
    expect((await createCreditNote(manager, invoice.id, { amount: "60.01", reason: "x" })).ok).toBe(false);
    expect((await createCreditNote(manager, invoice.id, { amount: "1.00" })).ok).toBe(false);
    expect(await snapshot(invoice.id)).toEqual(before);
  });

  it("a void whose invoice or deliveries are in a closed month is refused (409), writing nothing", async () => {
    const { closeMonth } = await import("../../app/models/period.server");
    const admin = await createUser({ role: "admin" });
    const { invoice } = await invoiceOf("75.00", "2025-01-15");
    expect(await closeMonth(admin, { month: "2025-01" })).toMatchObject({ ok: true });
    const before = await snapshot(invoice.id);
    const result = await voidInvoice(manager, invoice.id, { reason: "Too late" });
    expect(result).toMatchObject({ ok: false, status: 409 });
    expect(!result.ok && result.message).toMatch(/^This month is closed/);
    expect(await snapshot(invoice.id)).toEqual(before);
    // A credit note is dated today, an open month: the correction for a closed month.
    expect(await createCreditNote(manager, invoice.id, { amount: "5.00", reason: "After close" })).toMatchObject({
      ok: true,
    });
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

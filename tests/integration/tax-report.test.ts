// The monthly tax report (docs/decisions/0990), on both drivers: an invoice counts the tax its
// tax-inclusive amount contains in the month it was issued, a credit note takes its tax back in
// the month it is dated (a reversal gives it back), a void invoice leaves every figure; the tax
// is rounded once per document; the kept totals equal a recount (the rebuild and db:check); the
// months page 12 at a time; the month's documents are listed and exported; managers and admins
// only.
import {} from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type User } from "../../app/db.server";
import { findBreaches } from "../../db/ops";
import { reverseCreditNote } from "../../app/services/invoices/reverse-credit-note.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { closeMonth } from "../../app/models/period.server";
import { taxMonthExport, taxMonthsExport } from "../../app/presenters/exports.server";
import { listTaxMonths, taxMonth, taxMonthCreditNotes, taxMonthInvoices } from "../../app/presenters/tax-report.server";
import * as taxPage from "../../app/routes/_app.tax";
import * as taxExport from "../../app/routes/_app.tax.export";
import * as taxApi from "../../app/routes/api.tax-months";
import { todayIn } from "../../app/utils/dates";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { csvText, expectKeptTotalsToMatchRebuild, rewriteInvoice } from "../money-entries";

const thisMonth = () => todayIn("Africa/Lagos").slice(0, 7);
let admin: User;
let manager: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
});

/** An invoice of `tons` x `rate` for the client, issued today. */
async function invoiceFor(clientId: number, tons: string, rate: string) {
  const delivery = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.id,
    date: todayIn("Africa/Lagos"),
    tons,
    sellingRate: rate,
  });
  const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  return made.invoice;
}

/** Moves an invoice's issue date (as a back-dated test fixture; the app never does). */
async function issueOn(invoiceId: number, day: string) {
  await rewriteInvoice(invoiceId, { issueDate: day, createdAt: new Date(`${day}T12:00:00+01:00`) });
}

describe("the tax report", () => {
  it("counts an invoice's tax in its month, a credit note's back, a reversal's again, a void in nothing", async () => {
    const client = await createClient({ taxRate: "7.50" });
    // 10,000.00 at 7.5 % contains 10,000 x 7.5 / 107.5 = 697.674... -> 697.67.
    const invoice = await invoiceFor(client.id, "10.00", "1000.00");
    expect(invoice.issueDate).toBe(todayIn("Africa/Lagos"));
    const before = (await taxMonth(manager, thisMonth()))!;
    expect(before.rates).toEqual([
      expect.objectContaining({ taxRate: "7.50", invoiceCount: 1, invoiced: "10000.00", invoiceTax: "697.67" }),
    ]);
    expect(before.total).toMatchObject({ netSales: "10000.00", netTax: "697.67", creditTax: "0.00" });

    // A credit note of 2,000.00 contains 139.53 (139.534...).
    const credited = await createCreditNote(manager, invoice.id, { amount: "2000.00", reason: "Wet shells" });
    if (!credited.ok) throw new Error(credited.message);
    const afterCredit = (await taxMonth(manager, thisMonth()))!;
    expect(afterCredit.total).toMatchObject({
      creditNoteCount: 1,
      reversalCount: 0,
      credited: "2000.00",
      creditTax: "139.53",
      netSales: "8000.00",
      netTax: "558.14",
    });

    const reversed = await reverseCreditNote(admin, credited.creditNote.id, { reason: "Typed twice" });
    if (!reversed.ok) throw new Error(reversed.message);
    const afterReversal = (await taxMonth(manager, thisMonth()))!;
    expect(afterReversal.total).toMatchObject({
      creditNoteCount: 1,
      reversalCount: 1,
      credited: "0.00",
      creditTax: "0.00",
      netTax: "697.67",
    });

    const other = await invoiceFor(client.id, "1.00", "500.00");
    const voided = await voidInvoice(manager, other.id, { reason: "Wrong client" });
    if (!voided.ok) throw new Error(voided.message);
    const afterVoid = (await taxMonth(manager, thisMonth()))!;
    expect(afterVoid.total).toMatchObject({ invoiceCount: 1, voidCount: 1, invoiced: "10000.00", netTax: "697.67" });

    // The month lists both invoices (the void one marked) and the note with its reversal.
    const invoices = await taxMonthInvoices(manager, thisMonth());
    expect(invoices.items.map((i) => [i.invoiceNo, i.isVoid, i.tax])).toEqual([
      [other.invoiceNo, true, "34.88"],
      [invoice.invoiceNo, false, "697.67"],
    ]);
    const notes = await taxMonthCreditNotes(manager, thisMonth());
    expect(notes.items.map((c) => [c.creditNoteNo, c.reversesCreditNoteNo, c.amount, c.tax])).toEqual([
      [null, credited.creditNote.creditNoteNo, "-2000.00", "-139.53"],
      [credited.creditNote.creditNoteNo, null, "2000.00", "139.53"],
    ]);
    await expectKeptTotalsToMatchRebuild(["tax_month_totals"]);
    expect(await findBreaches(await getDb())).toEqual([]);
  });

  it("rounds each document's tax once, then adds: two half-kobo taxes make 0.06, not 0.05", async () => {
    // 0.05 at 100 % contains 0.025, rounded half away from zero to 0.03.
    const client = await createClient({ taxRate: "100.00" });
    await invoiceFor(client.id, "0.05", "1.00");
    await invoiceFor(client.id, "0.05", "1.00");
    const month = (await taxMonth(manager, thisMonth()))!;
    expect(month.rates.find((r) => r.taxRate === "100.00")).toMatchObject({
      invoiceCount: 2,
      invoiced: "0.10",
      invoiceTax: "0.06",
    });
    await expectKeptTotalsToMatchRebuild(["tax_month_totals"]);
  });

  it("keeps each rate apart and totals them", async () => {
    const five = await createClient({ taxRate: "5.00" });
    await invoiceFor(five.id, "21.00", "1000.00"); // 21,000.00 at 5 % contains 1,000.00
    const month = (await taxMonth(manager, thisMonth()))!;
    const rates = month.rates.map((r) => r.taxRate);
    expect(rates).toEqual([...rates].sort((a, b) => Number(b) - Number(a)));
    expect(month.rates.find((r) => r.taxRate === "5.00")).toMatchObject({
      invoiced: "21000.00",
      invoiceTax: "1000.00",
    });
    const sum = month.rates.reduce((n, r) => n + Math.round(Number(r.netTax) * 100), 0);
    expect(Math.round(Number(month.total.netTax) * 100)).toBe(sum);
  });

  it("drops a month's row once nothing is left in it, as a recount would", async () => {
    const client = await createClient({ taxRate: "9.99" });
    const moved = await invoiceFor(client.id, "1.00", "109.99");
    expect((await taxMonth(manager, thisMonth()))!.rates.map((r) => r.taxRate)).toContain("9.99");
    await issueOn(moved.id, "2023-05-15");
    expect((await taxMonth(manager, thisMonth()))!.rates.map((r) => r.taxRate)).not.toContain("9.99");
    expect((await taxMonth(manager, "2023-05"))!.total).toMatchObject({ invoiceCount: 1, invoiceTax: "9.99" });
    await expectKeptTotalsToMatchRebuild(["tax_month_totals"]);
  });

  it("a month's invoices at two rates, made while credit notes are issued at both: no deadlock", async () => {
    // The batch takes both rates' tax rows before any status row; a credit note takes its rate's
    // tax row, then the status rows (decision 0990, "Lock order"). Without the batch's first
    // step the two orders cross.
    const seven = await createClient({ taxRate: "7.50", name: "Race Client A" });
    const five = await createClient({ taxRate: "5.00", name: "Race Client B" });
    for (let round = 0; round < 4; round++) {
      const pending = [await invoiceFor(seven.id, "1.00", "1000.00"), await invoiceFor(five.id, "1.00", "1000.00")];
      for (const clientId of [seven.id, five.id]) {
        await createDelivery({
          agentId,
          clientId,
          createdBy: manager.id,
          date: "2026-10-10",
          tons: "2.00",
          sellingRate: "1000.00",
        });
      }
      const [batch, ...notes] = await Promise.all([
        createInvoicesForMonth(manager, "2026-10"),
        ...pending.reverse().map((i) => createCreditNote(manager, i.id, { amount: "10.00", reason: `Race ${round}` })),
      ]);
      expect(batch.ok, batch.ok ? "" : batch.message).toBe(true);
      for (const note of notes) expect(note.ok, note.ok ? "" : note.message).toBe(true);
    }
    await expectKeptTotalsToMatchRebuild(["tax_month_totals"]);
  });

  it("pages months 12 at a time, newest first, and marks the closed ones", async () => {
    const client = await createClient({ taxRate: "7.50" });
    await invoiceFor(client.id, "1.00", "107.50"); // stays in this month
    // One invoice in each month of 2024 and in January and February 2025: 14 months.
    const days = [
      ...Array.from({ length: 12 }, (_, m) => `2024-${String(m + 1).padStart(2, "0")}-15`),
      "2025-01-15",
      "2025-02-15",
    ];
    for (const day of days) await issueOn((await invoiceFor(client.id, "1.00", "107.50")).id, day);
    await expectKeptTotalsToMatchRebuild(["tax_month_totals"]);
    const closed = await closeMonth(admin, { month: "2024-12" });
    if (!closed.ok) throw new Error(closed.message);

    const first = await listTaxMonths(manager);
    expect(first.months).toHaveLength(12);
    expect(first.months[0].month).toBe(thisMonth());
    expect(first.months[0].closed).toBe(false);
    expect(first.newerCursor).toBeNull();
    const older = await listTaxMonths(manager, { cursor: first.olderCursor, direction: "older" });
    const seen = [...first.months, ...older.months].map((m) => m.month);
    expect(seen).toEqual(expect.arrayContaining(days.map((d) => d.slice(0, 7))));
    expect(new Set(seen).size).toBe(seen.length);
    const january = [...first.months, ...older.months].find((m) => m.month === "2024-01")!;
    expect(january).toMatchObject({ invoiceCount: 1, invoiced: "107.50", invoiceTax: "7.50", closed: true });
    expect([...first.months, ...older.months].find((m) => m.month === "2025-01")!.closed).toBe(false);
    const back = await listTaxMonths(manager, { cursor: older.newerCursor, direction: "newer" });
    expect(back.months.map((m) => m.month)).toEqual(first.months.map((m) => m.month));
  });

  it("exports the months and one month's documents", async () => {
    const months = await csvText(taxMonthsExport(manager).batches);
    expect(months).toContain('"month":"2024-01"');
    const exported = taxMonthExport(manager, "2024-01");
    if ("invalid" in exported) throw new Error(exported.invalid);
    const text = await csvText(exported.batches);
    expect(text).toContain('"type":"Invoice"');
    expect(text).toContain('"tax":"7.50"');
    expect(taxMonthExport(manager, "2024-13")).toEqual({ invalid: "The month is not valid" });
  });

  it("answers the page, the CSV and the JSON call", async () => {
    const { cookie } = await loginAs("manager");
    const page = await call(taxPage.loader, makeRequest(`/tax?month=${thisMonth()}&invoicesCursor=bad`, { cookie }));
    expect(page.status).toBe(200);
    const data = page.body as Awaited<ReturnType<typeof taxPage.loader>>;
    expect(data.month?.month).toBe(thisMonth());
    expect(data.invoices?.items.length).toBeGreaterThan(0);
    const none = await call(taxPage.loader, makeRequest("/tax?month=1999-01", { cookie }));
    expect((none.body as { month: unknown }).month).toBeNull();

    const csv = await call(taxExport.loader, makeRequest("/tax/export?month=2024-01", { cookie }));
    expect(csv.status).toBe(200);
    const bad = await call(taxExport.loader, makeRequest("/tax/export?month=nope", { cookie }));
    expect(bad.status).toBe(400);

    const api = await call(taxApi.loader, makeRequest("/api/tax-months", { cookie }));
    expect(api.status).toBe(200);
    expect((api.body as unknown[]).length).toBe(12);
    expect(api.headers.get("X-Next-Cursor")).toMatch(/^\d{4}-\d{2}$/);
    const one = await call(taxApi.loader, makeRequest("/api/tax-months?month=2024-01", { cookie }));
    expect(one.body).toMatchObject({ month: "2024-01", closed: true, total: { invoiceTax: "7.50" } });
    expect((await call(taxApi.loader, makeRequest("/api/tax-months?month=1999-01", { cookie }))).status).toBe(404);
    expect((await call(taxApi.loader, makeRequest("/api/tax-months?month=2024-1", { cookie }))).status).toBe(400);
    expect((await call(taxApi.loader, makeRequest("/api/tax-months?cursor=x", { cookie }))).status).toBe(400);
    // A month PostgreSQL has no date for is refused, never a database error.
    for (const query of ["month=0000-01", "cursor=0000-01", "before=0000-12"]) {
      expect((await call(taxApi.loader, makeRequest(`/api/tax-months?${query}`, { cookie }))).status).toBe(400);
    }
    const yearZero = await call(taxPage.loader, makeRequest("/tax?month=0000-01&cursor=0000-01", { cookie }));
    expect(yearZero.status).toBe(200);
    expect((yearZero.body as { month: unknown }).month).toBeNull();
    expect((await call(taxExport.loader, makeRequest("/tax/export?month=0000-01", { cookie }))).status).toBe(400);
  });

  it("refuses a staff member at the presenter, whoever calls it", async () => {
    const staff = await createUser({ role: "staff" });
    await expect(listTaxMonths(staff)).rejects.toMatchObject({ status: 403 });
    await expect(taxMonth(staff, thisMonth())).rejects.toMatchObject({ status: 403 });
  });
});

describeAccess("tax report", [
  {
    name: "tax report page",
    handler: taxPage.loader,
    method: "GET",
    path: "/tax",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "tax report CSV",
    handler: taxExport.loader,
    method: "GET",
    path: "/tax/export",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "tax report JSON",
    handler: taxApi.loader,
    method: "GET",
    path: "/api/tax-months",
    allowed: ["manager", "admin"],
  },
  {
    name: "tax report JSON, POST",
    handler: taxApi.action,
    method: "POST",
    path: "/api/tax-months",
    allowed: ["staff", "manager", "admin"],
  },
]);

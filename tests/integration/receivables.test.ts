// Receivables (docs/decisions/0995), on both drivers: what every client owes as of a day, aged
// in the statement's buckets at each boundary; each client's row equal to its statement's
// ageing; payments, credit notes, a client credit and a void counted as the statement counts
// them; the total equal to the sum of the rows; paging by name; the CSV and JSON call; the kept
// per-client balance equal to its rebuild and to db:check; access for each role.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type User } from "../../app/db.server";
import { createCreditNote } from "../../app/models/credit-note.server";
import { createInvoiceForDelivery, voidInvoice } from "../../app/models/invoice.server";
import { recordPayment } from "../../app/models/payment.server";
import { ageingAsOf } from "../../app/models/statement.server";
import { receivablesExport } from "../../app/presenters/exports.server";
import { listReceivables, receivableBatches, receivablesTotals } from "../../app/presenters/receivables.server";
import * as receivablesPage from "../../app/routes/_app.receivables";
import * as receivablesCsv from "../../app/routes/_app.receivables.export";
import * as receivablesApi from "../../app/routes/api.receivables";
import { findBreaches } from "../../db/ops";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { csvText, expectKeptTotalsToMatchRebuild } from "../money-entries";

// Every figure is as of 15 January 2027, after every payment the tests record (dated today).
const AS_OF = "2027-01-15";
const NOW = new Date(`${AS_OF}T12:00:00Z`);

let admin: User;
let manager: User;
let agentId: number;
let aged: { id: number; name: string };
let inCredit: { id: number; name: string };
let settled: { id: number; name: string };

/** An invoice of `amount` for `clientId` (60-day terms) falling due on `due`. */
async function invoiceDue(clientId: number, due: string, amount = "1000.00") {
  const date = new Date(Date.parse(`${due}T00:00:00Z`) - 60 * 86_400_000).toISOString().slice(0, 10);
  const delivery = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.id,
    date,
    tons: "1.00",
    sellingRate: amount,
  });
  const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  expect(made.invoice.expectedPaymentDate).toBe(due);
  return made.invoice;
}

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
  aged = await createClient({ name: "Aged Foods", paymentTermsDays: 60, taxRate: "0.00" });
  inCredit = await createClient({ name: "Credit Mills", paymentTermsDays: 60, taxRate: "0.00" });
  settled = await createClient({ name: "Settled Oils", paymentTermsDays: 60, taxRate: "0.00" });

  // Aged Foods: one invoice at each side of every boundary.
  await invoiceDue(aged.id, "2027-01-19", "100.00"); // not yet due: Current
  await invoiceDue(aged.id, "2027-01-15", "200.00"); // due that day: Current
  await invoiceDue(aged.id, "2027-01-14", "300.00"); // 1 day: 1-30
  await invoiceDue(aged.id, "2026-12-16", "400.00"); // 30 days: 1-30
  await invoiceDue(aged.id, "2026-12-15", "500.00"); // 31 days: 31-60
  const partPaid = await invoiceDue(aged.id, "2026-11-16", "600.00"); // 60 days: 31-60, 250 paid
  await invoiceDue(aged.id, "2026-10-17", "700.00"); // 90 days: 61-90
  const credited = await invoiceDue(aged.id, "2026-10-16", "800.00"); // 91 days: over 90, 300 credited
  await invoiceDue(aged.id, "2025-02-09", "900.00"); // long over 90
  const voided = await invoiceDue(aged.id, "2025-02-08", "5000.00"); // void: nothing
  expect((await recordPayment(manager, { invoiceId: partPaid.id, amount: "250.00", reference: "R-1" })).ok).toBe(true);
  expect((await createCreditNote(admin, credited.id, { amount: "300.00", reason: "Short weight" })).ok).toBe(true);
  expect((await voidInvoice(admin, voided.id, { reason: "Raised twice" })).ok).toBe(true);

  // Credit Mills: paid in full, then credited: a credit of 150, and 50 owed on another invoice.
  const overpaid = await invoiceDue(inCredit.id, "2026-12-01", "1000.00");
  expect((await recordPayment(manager, { invoiceId: overpaid.id, amount: "1000.00", reference: "R-2" })).ok).toBe(true);
  expect((await createCreditNote(admin, overpaid.id, { amount: "150.00", reason: "Moisture" })).ok).toBe(true);
  await invoiceDue(inCredit.id, "2026-09-01", "50.00");

  // Settled Oils: paid in full, owes nothing: not listed.
  const paid = await invoiceDue(settled.id, "2026-12-20", "400.00");
  expect((await recordPayment(manager, { invoiceId: paid.id, amount: "400.00", reference: "R-3" })).ok).toBe(true);
});

describe("receivables", () => {
  it("ages each client's balance in the statement's buckets, at every boundary", async () => {
    const page = await listReceivables(manager, {}, NOW);
    expect(page.asOf).toBe(AS_OF);
    expect(page.items.map((r) => r.name)).toEqual(["Aged Foods", "Credit Mills"]);
    expect(page.items[0]).toEqual({
      clientId: aged.id,
      name: "Aged Foods",
      current: "300.00",
      d1_30: "700.00",
      d31_60: "850.00",
      d61_90: "700.00",
      over90: "1400.00",
      total: "3950.00",
    });
    // The credit counts in Current as a negative, so the row adds up to the balance.
    expect(page.items[1]).toMatchObject({ current: "-150.00", over90: "50.00", total: "-100.00" });
    expect(page.nextCursor).toBeNull();
  });

  it("equals each client's statement ageing as of the same day", async () => {
    const page = await listReceivables(manager, {}, NOW);
    for (const row of page.items) {
      const { clientId: _id, name: _name, ...ageing } = row;
      expect(ageing, row.name).toEqual(await ageingAsOf(row.clientId, AS_OF));
    }
  });

  it("totals every client: the sum of the rows and the count of clients with a balance", async () => {
    const totals = await receivablesTotals(manager, NOW);
    expect(totals).toEqual({
      asOf: AS_OF,
      clients: 2,
      current: "150.00",
      d1_30: "700.00",
      d31_60: "850.00",
      d61_90: "700.00",
      over90: "1450.00",
      total: "3850.00",
    });
  });

  it("pages by name, and streams every client in batches", async () => {
    const first = await listReceivables(manager, { limit: 1 }, NOW);
    expect(first.items.map((r) => r.name)).toEqual(["Aged Foods"]);
    expect(first.nextCursor).not.toBeNull();
    const { cursor } = Object.fromEntries(new URLSearchParams(`cursor=${first.nextCursor}`));
    const page = await call(
      receivablesPage.loader,
      makeRequest(`/receivables?cursor=${cursor}`, { cookie: (await loginAs("manager")).cookie }),
    );
    expect((page.body as { items: { name: string }[] }).items.map((r) => r.name)).toEqual(["Credit Mills"]);
    const batches: string[][] = [];
    for await (const batch of receivableBatches(manager, NOW, 1)) batches.push(batch.map((r) => r.name));
    expect(batches).toEqual([["Aged Foods"], ["Credit Mills"]]);
  });

  it("exports the rows as CSV", async () => {
    const rows = await csvText(receivablesExport(manager, NOW).batches);
    expect(rows).toContain('"name":"Aged Foods"');
    expect(rows).toContain('"over90":"1400.00"');
    const { cookie } = await loginAs("manager");
    const csv = await call(receivablesCsv.loader, makeRequest("/receivables/export", { cookie }));
    expect(csv.status).toBe(200);
    const [header, first] = String(csv.body).split(/\r?\n/);
    expect(header).toBe("Client ID,Client,Current,1–30 days,31–60 days,61–90 days,Over 90 days,Balance");
    expect(first).toMatch(new RegExp(`^${aged.id},Aged Foods,`));
  });

  it("answers the page, the CSV and the JSON call, and refuses a bad cursor or limit", async () => {
    const { cookie } = await loginAs("manager");
    const page = await call(receivablesPage.loader, makeRequest("/receivables?cursor=%%%", { cookie }));
    expect(page.status).toBe(200);
    expect((page.body as { totals: { clients: number } }).totals.clients).toBe(2);

    const api = await call(receivablesApi.loader, makeRequest("/api/receivables?limit=1", { cookie }));
    expect(api.status).toBe(200);
    expect((api.body as { name: string }[]).map((r) => r.name)).toEqual(["Aged Foods"]);
    expect(api.headers.get("X-Next-Cursor")).toBeTruthy();
    const all = await call(receivablesApi.loader, makeRequest("/api/receivables", { cookie }));
    expect((all.body as unknown[]).length).toBe(2);
    const totals = await call(receivablesApi.loader, makeRequest("/api/receivables?totals=1", { cookie }));
    expect(totals.body).toMatchObject({ clients: 2 });
    for (const query of ["cursor=%%%", "limit=0", "limit=x"]) {
      expect((await call(receivablesApi.loader, makeRequest(`/api/receivables?${query}`, { cookie }))).status).toBe(
        400,
      );
    }
  });

  it("keeps each client's balance equal to its rebuild and to db:check", async () => {
    await expectKeptTotalsToMatchRebuild(["client_balances", "client_owed_totals"]);
    expect(await findBreaches(await getDb())).toEqual([]);
    // A balance altered behind the trigger's back is named.
    const db = await getDb();
    await db.execute(sql`update client_balances set owed = owed + 1 where client_id = ${aged.id}`);
    expect((await findBreaches(db)).map((b) => b.check)).toEqual(["client balances equal their due dates"]);
    await db.execute(sql`update client_balances set owed = owed - 1 where client_id = ${aged.id}`);
  });

  it("refuses a staff member at the presenter, whoever calls it", async () => {
    const staff = await createUser({ role: "staff" });
    await expect(listReceivables(staff)).rejects.toMatchObject({ status: 403 });
    await expect(receivablesTotals(staff)).rejects.toMatchObject({ status: 403 });
  });
});

describeAccess("receivables", [
  {
    name: "receivables page",
    handler: receivablesPage.loader,
    method: "GET",
    path: "/receivables",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "receivables CSV",
    handler: receivablesCsv.loader,
    method: "GET",
    path: "/receivables/export",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "receivables JSON",
    handler: receivablesApi.loader,
    method: "GET",
    path: "/api/receivables",
    allowed: ["manager", "admin"],
  },
  {
    name: "receivables JSON, POST",
    handler: receivablesApi.action,
    method: "POST",
    path: "/api/receivables",
    allowed: ["staff", "manager", "admin"],
  },
]);

// Receivables (docs/decisions/0995), on both drivers: what every client owes as of a day, aged
// in the statement's buckets at each boundary; each client's row equal to its statement's
// ageing; payments, credit notes, a client credit and a void counted as the statement counts
// them; the total equal to the sum of the rows; paging by name; the CSV and JSON call; the kept
// per-client balance equal to its rebuild and to db:check; access for each role.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type User } from "../../app/db.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { ageingAsOf } from "../../app/models/statement.server";
import { receivablesExport } from "../../app/presenters/exports.server";
import { listReceivables, receivableBatches, receivablesTotals } from "../../app/presenters/receivables.server";
import * as receivablesPage from "../../app/routes/_app.receivables";
import * as receivablesCsv from "../../app/routes/_app.receivables.export";
import * as clientsApi from "../../app/routes/api.clients";
import * as receivablesApi from "../../app/routes/api.receivables";
import * as receivablesTotalsApi from "../../app/routes/api.receivables.totals";
import { findBreaches } from "../../db/ops";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { addDays, todayIn } from "../../app/utils/dates";
import { call, makeRequest } from "../http";
import { csvText, expectKeptTotalsToMatchRebuild } from "../money-entries";

// Every figure is as of 50 days from today, after every payment the tests record (dated today);
// each invoice falls due a set number of days before or after that day.
const AS_OF = addDays(todayIn("Africa/Lagos"), 50);
const due = (days: number) => addDays(AS_OF, days);
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
  // Issued the day of its delivery: due 60 days later (decision 0300, "Due date").
  const made = await createInvoiceForDelivery(
    manager,
    { deliveryId: delivery.id },
    { now: new Date(`${date}T12:00:00Z`) },
  );
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
  await invoiceDue(aged.id, due(4), "100.00"); // not yet due: Current
  await invoiceDue(aged.id, due(0), "200.00"); // due that day: Current
  await invoiceDue(aged.id, due(-1), "300.00"); // 1 day: 1-30
  await invoiceDue(aged.id, due(-30), "400.00"); // 30 days: 1-30
  await invoiceDue(aged.id, due(-31), "500.00"); // 31 days: 31-60
  const partPaid = await invoiceDue(aged.id, due(-60), "600.00"); // 60 days: 31-60, 250 paid
  await invoiceDue(aged.id, due(-90), "700.00"); // 90 days: 61-90
  const credited = await invoiceDue(aged.id, due(-91), "800.00"); // 91 days: over 90, 300 credited
  await invoiceDue(aged.id, due(-705), "900.00"); // long over 90
  const voided = await invoiceDue(aged.id, due(-706), "5000.00"); // void: nothing
  expect((await recordPayment(manager, { invoiceId: partPaid.id, amount: "250.00", reference: "R-1" })).ok).toBe(true);
  expect((await createCreditNote(admin, credited.id, { amount: "300.00", reason: "Short weight" })).ok).toBe(true);
  expect((await voidInvoice(admin, voided.id, { reason: "Raised twice" })).ok).toBe(true);

  // Credit Mills: paid in full, then credited: a credit of 150, and 50 owed on another invoice.
  const overpaid = await invoiceDue(inCredit.id, due(-45), "1000.00");
  expect((await recordPayment(manager, { invoiceId: overpaid.id, amount: "1000.00", reference: "R-2" })).ok).toBe(true);
  expect((await createCreditNote(admin, overpaid.id, { amount: "150.00", reason: "Moisture" })).ok).toBe(true);
  await invoiceDue(inCredit.id, due(-136), "50.00");

  // Settled Oils: paid in full, owes nothing: not listed.
  const paid = await invoiceDue(settled.id, due(-26), "400.00");
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
    const totals = await call(receivablesTotalsApi.loader, makeRequest("/api/receivables/totals", { cookie }));
    expect(totals.body).toMatchObject({ clients: 2 });
    // "AA" is valid base64url for U+0000, which PostgreSQL text cannot hold: a 400, not a 500.
    expect((await call(clientsApi.loader, makeRequest("/api/clients?limit=5&cursor=AA", { cookie }))).status).toBe(400);
    const nul = await call(receivablesPage.loader, makeRequest("/receivables?cursor=AA", { cookie }));
    expect(nul.status).toBe(200);
    for (const query of ["cursor=%%%", "cursor=AA", "cursor=CQ", "limit=0", "limit=x"]) {
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

  it("a month's invoices for several clients, made while their older invoices are paid: no deadlock", async () => {
    // The batch writes one invoice per client, each taking its client's balance row and then the
    // status roll-up; a payment takes its client's balance row and then the roll-up too. The
    // batch takes the kept totals whole first (lockKeptTotals), so the two never cross.
    const clients = [];
    for (const name of ["Race Ayo", "Race Bisi", "Race Chidi"]) {
      clients.push(await createClient({ name, paymentTermsDays: 60, taxRate: "0.00" }));
    }
    for (let round = 0; round < 4; round++) {
      const older = [];
      for (const client of clients) older.push(await invoiceDue(client.id, due(-10 - round), "900.00"));
      for (const client of clients) {
        await createDelivery({
          agentId,
          clientId: client.id,
          createdBy: manager.id,
          date: "2026-10-10",
          tons: "1.00",
          sellingRate: "500.00",
        });
      }
      const [batch, ...payments] = await Promise.all([
        createInvoicesForMonth(manager, "2026-10"),
        ...older
          .reverse()
          .map((invoice) =>
            recordPayment(manager, { invoiceId: invoice.id, amount: "100.00", reference: `RACE-${round}` }),
          ),
      ]);
      expect(batch.ok, batch.ok ? "" : batch.message).toBe(true);
      for (const paid of payments) expect(paid.ok, paid.ok ? "" : paid.message).toBe(true);
    }
    await expectKeptTotalsToMatchRebuild(["client_balances", "client_owed_totals", "invoice_status_rollup"]);
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
    name: "receivables total JSON",
    handler: receivablesTotalsApi.loader,
    method: "GET",
    path: "/api/receivables/totals",
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

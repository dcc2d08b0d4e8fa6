// What is invoiced and what is paid (docs/decisions/1220), on PGlite and PostgreSQL: a client that
// invoices only on its own weighbridge ticket (its deliveries wait, then are invoiced on the
// accepted tons); an agent's pay basis through the forms and the JSON calls; and the invoice page,
// the printable invoice and the PDF saying, on the line, what was received and deducted.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, rowsOf, schema } from "../../app/db.server";
import { listAuditEvents } from "../../app/models/audit.server";
import { presentAuditEvents } from "../../app/presenters/audit-events.server";
import { agentStatement } from "../../app/presenters/agent-statement.server";
import { invoiceLineBatches, loadInvoiceDocument } from "../../app/presenters/invoice-document.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import {
  eligibleDeliveriesQuery,
  listEligibleDeliveries,
  previewInvoice,
} from "../../app/presenters/invoice-picker.server";
import { monthInvoicePreview } from "../../app/presenters/reconciliation.server";
import { agentStatementExport } from "../../app/presenters/statement-exports.server";
import { agentStatementPdf } from "../../app/presenters/statement-pdf.server";
import * as agentEdit from "../../app/routes/_app.agents.$id.edit";
import * as agentNew from "../../app/routes/_app.agents.new";
import * as clientEdit from "../../app/routes/_app.clients.$id.edit";
import * as clientNew from "../../app/routes/_app.clients.new";
import * as clientPage from "../../app/routes/_app.clients_.$id";
import * as invoicePage from "../../app/routes/_app.invoices_.$id";
import * as invoicePdf from "../../app/routes/_app.invoices_.$id_.pdf";
import * as invoicePrint from "../../app/routes/_app.invoices_.$id_.print";
import * as apiAgents from "../../app/routes/api.agents";
import * as apiAgent from "../../app/routes/api.agents.$id";
import * as apiClients from "../../app/routes/api.clients";
import * as apiClient from "../../app/routes/api.clients.$id";
import * as apiInvoices from "../../app/routes/api.invoices";
import * as apiInvoice from "../../app/routes/api.invoices.$id";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { FIRST_PAGE } from "../../app/utils/keyset.server";
import { ACCEPTED_TONS_NOTE } from "../../app/utils/weighing-words";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createQualityRule, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { outside, overlaps, pdfWords } from "../pdf-words";

/** 30,120 kg received at 18.5% against 16% and 1% a point: 2.5% deducted, 753 kg; 29,367 kg accepted. */
const RECEIVED = { kind: "received", truckNo: "LAG 123 XY", grossKg: 45120, tareKg: 15000, moisture: "18.5" };
const WEIGHING = "Received 30.12 t · moisture 18.5% · deducted 0.753 t";

function pdfText(bytes: Buffer) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "invoicing-weights-")), "document.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

/** A client that requires its ticket, its rule, an agent, and a delivery of 30 t at ₦60,000 (bought at ₦40,000). */
async function waitingDelivery(date: string) {
  const manager = await createUser({ role: "manager" });
  const client = await createClient({ name: `Weighed Client ${date}`, requiresReceivedTicket: true });
  await createQualityRule({
    clientId: client.id,
    validFrom: "2025-01-01",
    moistureThreshold: "16",
    deductionPerPoint: "1",
  });
  const agent = await createAgent();
  const delivery = await createDelivery({
    clientId: client.id,
    agentId: agent.id,
    createdBy: manager.id,
    date,
    tons: "30.00",
    sellingRate: "60000.00",
    buyingRate: "40000.00",
    offloadingCost: "0",
    truckNo: "LAG 123 XY",
    location: "Ikorodu yard",
  });
  return { manager, client, agent, delivery };
}

describe("a client that invoices only on its own ticket", () => {
  it("waits: not offered, not in the month's invoices, refused alone with 409; then invoiced on the accepted tons", async () => {
    const { manager, client, agent, delivery } = await waitingDelivery("2025-05-10");
    const other = await createClient({ name: "Ticketless Client" });
    const plain = await createDelivery({
      clientId: other.id,
      agentId: agent.id,
      createdBy: manager.id,
      date: "2025-05-11",
      tons: "10.00",
      sellingRate: "1000.00",
    });
    const offered = async () => (await listEligibleDeliveries(manager)).items.map((r) => r.id);
    expect(await offered()).toContain(plain.id);
    expect(await offered()).not.toContain(delivery.id);
    expect(await previewInvoice(manager, delivery.id)).toBeNull();
    expect(await monthInvoicePreview(manager, "2025-05")).toEqual({
      clients: [expect.objectContaining({ clientId: other.id, deliveries: 1, tons: "10.000", amount: "10000.00" })],
      waitingForTicket: 1,
    });
    // The kept totals still count it as eligible (decision 1220): the month still has something to invoice.
    const db = await getDb();
    const [may] = await db
      .select()
      .from(schema.deliveryMonthTotals)
      .where(eq(schema.deliveryMonthTotals.month, "2025-05-01"));
    expect(may.nEligible).toBe(2);

    const refused = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(refused).toMatchObject({
      ok: false,
      status: 409,
      message: `Delivery ${delivery.id} waits for the client's ticket: ${client.name} is invoiced only once its weighbridge ticket is recorded`,
    });
    const { cookie } = await loginAs("manager");
    const api = await call(
      apiInvoices.action,
      makeRequest("/api/invoices", { method: "POST", cookie, json: { deliveryId: delivery.id } }),
    );
    expect(api).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining("waits for the client's ticket") },
    });

    // The month's invoices leave it out and invoice the other client.
    const month = await createInvoicesForMonth(manager, "2025-05");
    if (!month.ok) throw new Error(month.message);
    expect(month.invoices.map((i) => i.clientId)).toEqual([other.id]);
    const [still] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, delivery.id));
    expect(still).toMatchObject({ status: "confirmed", invoiceId: null });
    expect(await createInvoicesForMonth(manager, "2025-05")).toMatchObject({ ok: false, status: 409 });

    // The client's ticket comes back: the delivery is offered, and invoiced on the accepted tons.
    expect(await recordTicket(manager, delivery.id, { ...RECEIVED, ticketNo: "KD-1" }, null)).toMatchObject({
      ok: true,
    });
    expect(await offered()).toContain(delivery.id);
    // 29.367 t x ₦60,000 = ₦1,762,020.00; the agent is paid on loaded tons: 30 t x ₦40,000 = ₦1,200,000.00.
    expect(await previewInvoice(manager, delivery.id)).toMatchObject({ amount: "1762020.00", profit: "562020.00" });
    expect(await monthInvoicePreview(manager, "2025-05")).toMatchObject({
      clients: [{ clientId: client.id, deliveries: 1, tons: "29.367", amount: "1762020.00" }],
      waitingForTicket: 0,
    });
    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    expect(made.invoice).toMatchObject({ amount: "1762020.00", profit: "562020.00" });
    const [line] = await db
      .select()
      .from(schema.invoiceLines)
      .where(eq(schema.invoiceLines.invoiceId, made.invoice.id));
    expect(line).toMatchObject({
      tons: "29.367",
      receivedTons: "30.120",
      moisture: "18.50",
      qualityDeductionTons: "0.753",
      amount: "1762020.00000",
    });
  });

  it("offers a delivery of a client that does not require its ticket with or without one", async () => {
    const manager = await createUser({ role: "manager" });
    const client = await createClient();
    const agent = await createAgent();
    const delivery = await createDelivery({ clientId: client.id, agentId: agent.id, createdBy: manager.id });
    expect((await listEligibleDeliveries(manager)).items.map((r) => r.id)).toContain(delivery.id);
    // Required later: the delivery waits from then on.
    const db = await getDb();
    await db.update(schema.clients).set({ requiresReceivedTicket: true }).where(eq(schema.clients.id, client.id));
    expect((await listEligibleDeliveries(manager)).items.map((r) => r.id)).not.toContain(delivery.id);
  });

  it("keeps the picker on its partial index", async () => {
    const db = await getDb();
    const plans: string[] = [];
    await db
      .transaction(async (tx) => {
        // Few rows here: the planner would read the table whole; with that off, the plan shows
        // whether the picker's conditions can be served by the index at all.
        await tx.execute(sql`set local enable_seqscan = off`);
        for (const filters of [{}, { agent: "Musa" }, { date: "2025-05-10" }]) {
          const query = eligibleDeliveriesQuery(tx, filters, FIRST_PAGE, 10);
          plans.push(
            rowsOf<Record<string, unknown>>(await tx.execute(sql`explain ${query}`))
              .map((r) => String(Object.values(r)[0]))
              .join("\n"),
          );
        }
        throw new Error("rollback");
      })
      .catch((error: Error) => {
        if (error.message !== "rollback") throw error;
      });
    expect(plans).toHaveLength(3);
    for (const plan of plans) expect(plan, plan).toMatch(/deliveries_invoiceable_idx/);
  });
});

describe("the client's setting", () => {
  it("through the Add and Edit Client forms: ticked, unticked, and a value that is neither refused", async () => {
    const { cookie } = await loginAs("manager");
    const db = await getDb();
    const rowOf = async (name: string) =>
      (await db.select().from(schema.clients).where(eq(schema.clients.name, name)))[0];
    const added = await call(
      clientNew.action,
      makeRequest("/clients/new", {
        method: "POST",
        cookie,
        form: { name: "Form Weighed Ltd", taxRate: "7.5", paymentTermsDays: "30", requiresReceivedTicket: "on" },
      }),
    );
    expect(added.status).toBe(302);
    const row = await rowOf("Form Weighed Ltd");
    expect(row.requiresReceivedTicket).toBe(true);
    const id = String(row.id);
    // The page and the Edit dialog show it.
    const page = await call(clientPage.loader, makeRequest(`/clients/${id}`, { cookie }), { id });
    expect(page.body).toMatchObject({ client: { requiresReceivedTicket: true } });
    const edit = await call(clientEdit.loader, makeRequest(`/clients/${id}/edit`, { cookie }), { id });
    expect(edit.body).toMatchObject({ client: { requiresReceivedTicket: true } });
    // Unticked, the box posts nothing: the form means "not required".
    const unticked = await call(
      clientEdit.action,
      makeRequest(`/clients/${id}/edit`, {
        method: "POST",
        cookie,
        form: { name: "Form Weighed Ltd", taxRate: "7.5" },
      }),
      { id },
    );
    expect(unticked.status).toBe(302);
    expect((await rowOf("Form Weighed Ltd")).requiresReceivedTicket).toBe(false);
    const bad = await call(
      clientEdit.action,
      makeRequest(`/clients/${id}/edit`, {
        method: "POST",
        cookie,
        form: { name: "Form Weighed Ltd", requiresReceivedTicket: "sometimes" },
      }),
      { id },
    );
    expect(bad).toMatchObject({
      status: 400,
      body: {
        result: { error: { requiresReceivedTicket: ["Invoice only with the client's ticket must be true or false"] } },
      },
    });
    expect((await rowOf("Form Weighed Ltd")).requiresReceivedTicket).toBe(false);
    // The change is in the client's history, in words.
    const admin = await createUser({ role: "admin" });
    const { events } = await listAuditEvents(admin, { entityType: "client", entityId: id });
    const [update] = await presentAuditEvents(events.filter((e) => e.action === "client.update"));
    expect(update.changes).toContainEqual({
      field: "Invoiced only with the client's ticket",
      before: "Yes",
      after: "No",
    });
  });

  it("through the JSON calls: read and written; left out, an edit keeps it; a bad value is a 400 naming it", async () => {
    const { cookie } = await loginAs("manager");
    const created = await call(
      apiClients.action,
      makeRequest("/api/clients", {
        method: "POST",
        cookie,
        json: { name: "Json Weighed Ltd", requiresReceivedTicket: true },
      }),
    );
    expect(created).toMatchObject({ status: 201, body: { requiresReceivedTicket: true } });
    const id = String((created.body as { id: number }).id);
    const plain = await call(
      apiClients.action,
      makeRequest("/api/clients", { method: "POST", cookie, json: { name: "Json Plain Ltd" } }),
    );
    expect(plain).toMatchObject({ status: 201, body: { requiresReceivedTicket: false } });
    const patch = (json: unknown) =>
      call(apiClient.action, makeRequest(`/api/clients/${id}`, { method: "PATCH", cookie, json }), { id });
    const get = async () =>
      (await call(apiClient.loader, makeRequest(`/api/clients/${id}`, { cookie }), { id })).body as Record<
        string,
        unknown
      >;
    expect(await get()).toMatchObject({ requiresReceivedTicket: true });
    // A call written before the setting existed does not lift it.
    expect(await patch({ name: "Json Weighed Ltd", taxRate: "5" })).toMatchObject({
      status: 200,
      body: { requiresReceivedTicket: true, taxRate: "5.00" },
    });
    expect(await patch({ name: "Json Weighed Ltd", requiresReceivedTicket: false })).toMatchObject({
      status: 200,
      body: { requiresReceivedTicket: false },
    });
    for (const value of ["yes", 1, "1", {}]) {
      const refused = await patch({ name: "Json Weighed Ltd", requiresReceivedTicket: value });
      expect(refused, String(value)).toMatchObject({
        status: 400,
        body: { errors: { requiresReceivedTicket: ["Invoice only with the client's ticket must be true or false"] } },
      });
    }
    expect(await get()).toMatchObject({ requiresReceivedTicket: false });
    // Staff read the spec's fields of a client only (decision 0200), this one among the managers'.
    const staff = await loginAs("staff");
    const staffView = await call(apiClient.loader, makeRequest(`/api/clients/${id}`, { cookie: staff.cookie }), {
      id,
    });
    expect(staffView.status).toBe(200);
    expect(staffView.body).not.toHaveProperty("requiresReceivedTicket");
  });
});

describe("the agent's pay basis", () => {
  it("through the JSON calls: loaded unless said, kept when left out, a bad value a 400 naming it", async () => {
    const { cookie } = await loginAs("manager");
    const post = (json: unknown) =>
      call(apiAgents.action, makeRequest("/api/agents", { method: "POST", cookie, json }));
    expect(await post({ name: "Basis Default Agent" })).toMatchObject({ status: 201, body: { payBasis: "loaded" } });
    const created = await post({ name: "Basis Json Agent", payBasis: "accepted" });
    expect(created).toMatchObject({ status: 201, body: { payBasis: "accepted" } });
    for (const payBasis of ["weight", "Loaded", 1, true]) {
      expect(await post({ name: `Basis Bad Agent`, payBasis }), String(payBasis)).toMatchObject({
        status: 400,
        body: { errors: { payBasis: ["Paid on must be loaded, received or accepted"] } },
      });
    }
    const db = await getDb();
    expect(await db.select().from(schema.agents).where(eq(schema.agents.name, "Basis Bad Agent"))).toHaveLength(0);
    const id = String((created.body as { id: number }).id);
    const patch = (json: unknown) =>
      call(apiAgent.action, makeRequest(`/api/agents/${id}`, { method: "PATCH", cookie, json }), { id });
    expect(await patch({ name: "Basis Json Agent", phone: "0803" })).toMatchObject({
      status: 200,
      body: { payBasis: "accepted" },
    });
    expect(await patch({ name: "Basis Json Agent", payBasis: "received" })).toMatchObject({
      status: 200,
      body: { payBasis: "received" },
    });
    expect(await patch({ name: "Basis Json Agent", payBasis: "gross" })).toMatchObject({ status: 400 });
    const read = await call(apiAgent.loader, makeRequest(`/api/agents/${id}`, { cookie }), { id });
    expect(read.body).toMatchObject({ payBasis: "received" });
    // Staff read the spec's fields of an agent only: what an agent is paid on is not among them.
    const staff = await loginAs("staff");
    const staffView = await call(apiAgent.loader, makeRequest(`/api/agents/${id}`, { cookie: staff.cookie }), { id });
    expect(staffView.body).not.toHaveProperty("payBasis");
  });

  it("through the Add and Edit Agent forms, audited in words; deliveries already recorded keep theirs", async () => {
    const { cookie } = await loginAs("manager");
    const db = await getDb();
    const added = await call(
      agentNew.action,
      makeRequest("/agents/new", { method: "POST", cookie, form: { name: "Basis Form Agent", payBasis: "received" } }),
    );
    expect(added.status).toBe(302);
    const [agent] = await db.select().from(schema.agents).where(eq(schema.agents.name, "Basis Form Agent"));
    expect(agent.payBasis).toBe("received");
    const id = String(agent.id);
    const edit = await call(agentEdit.loader, makeRequest(`/agents/${id}/edit`, { cookie }), { id });
    expect(edit.body).toMatchObject({ agent: { payBasis: "received" } });
    const manager = await createUser({ role: "manager" });
    const recorded = await createDelivery({ agentId: agent.id, createdBy: manager.id, payBasis: "received" });

    const bad = await call(
      agentEdit.action,
      makeRequest(`/agents/${id}/edit`, {
        method: "POST",
        cookie,
        form: { name: "Basis Form Agent", payBasis: "net" },
      }),
      { id },
    );
    expect(bad).toMatchObject({
      status: 400,
      body: { result: { error: { payBasis: ["Paid on must be loaded, received or accepted"] } } },
    });
    const changed = await call(
      agentEdit.action,
      makeRequest(`/agents/${id}/edit`, {
        method: "POST",
        cookie,
        form: { name: "Basis Form Agent", payBasis: "accepted" },
      }),
      { id },
    );
    expect(changed.status).toBe(302);
    const [after] = await db.select().from(schema.agents).where(eq(schema.agents.id, agent.id));
    expect(after.payBasis).toBe("accepted");
    // The delivery recorded before the change keeps the basis it was recorded with.
    const [kept] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, recorded.id));
    expect(kept.payBasis).toBe("received");

    const admin = await createUser({ role: "admin" });
    const { events } = await listAuditEvents(admin, { entityType: "agent", entityId: id });
    const [update] = await presentAuditEvents(events.filter((e) => e.action === "agent.update"));
    expect(update.changes).toContainEqual({ field: "Agent paid on", before: "Received tons", after: "Accepted tons" });
  });

  it("is on the agent statement, its CSV and PDF, beside a Tons column that says it is the tons paid", async () => {
    const admin = await createUser({ role: "admin" });
    const agent = await createAgent({ name: "Statement Basis Agent", payBasis: "accepted" });
    await createDelivery({ agentId: agent.id, createdBy: admin.id, date: "2026-03-05", tons: "12.50" });
    const period = { from: "2026-03-01", to: "2026-03-31" };
    const statement = await agentStatement(admin, agent.id, period);
    if (!statement.ok) throw new Error(statement.message);
    expect(statement.statement.agent.payBasis).toBe("accepted");
    expect(statement.statement.lines[0]).toMatchObject({ kind: "delivery", tons: "12.500" });

    const csv = await agentStatementExport(admin, agent.id, new URLSearchParams("from=2026-03-01&to=2026-03-31"));
    if (!csv || "invalid" in csv) throw new Error("no export");
    expect(csv.columns.map((c) => c.header)).toContain("Tons Paid");
    expect(csv.columns.map((c) => c.header)).not.toContain("Tons");
    const rows = [];
    for await (const batch of csv.batches) rows.push(...batch);
    expect(rows[0]).toMatchObject({ type: "Owed at start", note: "Paid on: Accepted tons (after quality deduction)" });

    const pdf = await agentStatementPdf(admin, agent.id, new URLSearchParams("from=2026-03-01&to=2026-03-31"));
    if (!pdf || "invalid" in pdf) throw new Error("no PDF");
    const bytes = Buffer.from(await new Response(pdf.stream).arrayBuffer());
    const text = pdfText(bytes);
    expect(text).toContain("TONS PAID");
    expect(text).toContain("Paid on: Accepted tons (after quality deduction)");
    expect(text).toContain("12.50");
    const [page] = pdfWords(bytes);
    expect(overlaps(page.words).map(([a, b]) => `${a.text} / ${b.text}`)).toEqual([]);
  });
});

describe("the invoice of a delivery weighed at the client's gate", () => {
  async function weighedInvoice() {
    const { manager, delivery } = await waitingDelivery("2025-06-10");
    const ticket = await recordTicket(manager, delivery.id, { ...RECEIVED, ticketNo: "KD-7" }, null);
    if (!ticket.ok) throw new Error(ticket.message);
    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    return { manager, invoice: made.invoice, delivery };
  }

  it("carries the received tons, moisture and deduction on its line: the page, its JSON, the document and the PDF", async () => {
    const { manager, invoice } = await weighedInvoice();
    const id = String(invoice.id);
    const weighing = { receivedTons: "30.120", moisture: "18.50", qualityDeductionTons: "0.753" };

    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(detail!.lines).toMatchObject({ count: 1, tons: "29.367", items: [{ tons: "29.367", ...weighing }] });
    const { cookie } = await loginAs("manager");
    const page = await call(invoicePage.loader, makeRequest(`/invoices/${id}`, { cookie }), { id });
    expect(page.body).toMatchObject({ invoice: { lines: { items: [{ tons: "29.367", ...weighing }] } } });
    const json = await call(apiInvoice.loader, makeRequest(`/api/invoices/${id}`, { cookie }), { id });
    expect(json.body).toMatchObject({ lines: { tons: "29.367", items: [{ tons: "29.367", ...weighing }] } });

    const doc = await loadInvoiceDocument(manager, invoice.id);
    expect(doc).toMatchObject({ lineCount: 1, weighedLines: 1, totalTons: "29.367", amount: "1762020.00" });
    const lines = [];
    for await (const batch of invoiceLineBatches(manager, invoice.id)) lines.push(...batch);
    expect(lines).toEqual([expect.objectContaining({ tons: "29.367", amount: "1762020.00", ...weighing })]);

    const print = await call(invoicePrint.loader, makeRequest(`/invoices/${id}/print`, { cookie }), { id });
    expect(print.status).toBe(200);
    const html = String(print.body)
      .replace(/<[^>]+>/g, " ")
      .replace(/&#x27;/g, "'");
    expect(html).toContain(WEIGHING);
    expect(html).toContain("29.367");
    expect(html).toContain(ACCEPTED_TONS_NOTE);

    const response = await invoicePdf.loader({
      request: makeRequest(`/invoices/${id}/pdf`, { cookie }),
      params: { id },
      context: {},
    });
    const bytes = Buffer.from(await response.arrayBuffer());
    const text = pdfText(bytes);
    expect(text).toContain(WEIGHING);
    expect(text).toMatch(/LAG 123 XY\s+Ikorodu yard\s+29\.367\s+60,000\.00\s+1,762,020\.00/);
    expect(text.replace(/\s+/g, " ")).toContain(ACCEPTED_TONS_NOTE);
    const [first] = pdfWords(bytes);
    expect(overlaps(first.words).map(([a, b]) => `${a.text} / ${b.text}`)).toEqual([]);
    expect(outside(first, 40).map((w) => w.text)).toEqual([]);
  });

  it("says nothing of weights on a line invoiced on its loaded tons", async () => {
    const manager = await createUser({ role: "manager" });
    const agent = await createAgent();
    const client = await createClient();
    const delivery = await createDelivery({ agentId: agent.id, clientId: client.id, createdBy: manager.id });
    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    const doc = await loadInvoiceDocument(manager, made.invoice.id);
    expect(doc).toMatchObject({ weighedLines: 0, totalTons: "30.550" });
    const { cookie } = await loginAs("manager");
    const id = String(made.invoice.id);
    const print = await call(invoicePrint.loader, makeRequest(`/invoices/${id}/print`, { cookie }), { id });
    expect(String(print.body)).not.toContain("Received");
    expect(String(print.body)).not.toContain(ACCEPTED_TONS_NOTE);
    const db = await getDb();
    const [line] = await db
      .select()
      .from(schema.invoiceLines)
      .where(and(eq(schema.invoiceLines.invoiceId, made.invoice.id)));
    expect(line).toMatchObject({ receivedTons: null, moisture: null, qualityDeductionTons: null });
  });
});

describeAccess("what is invoiced and what is paid", [
  {
    name: "a client's setting by JSON",
    handler: apiClient.action,
    method: "PATCH",
    path: "/api/clients/999999",
    params: { id: "999999" },
    json: { name: "Nobody Ltd", requiresReceivedTicket: true },
    allowed: ["manager", "admin"],
  },
  {
    name: "a client's setting on its form",
    handler: clientEdit.action,
    method: "POST",
    path: "/clients/999999/edit",
    params: { id: "999999" },
    form: { name: "Nobody Ltd", requiresReceivedTicket: "on" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "an agent's pay basis by JSON",
    handler: apiAgent.action,
    method: "PATCH",
    path: "/api/agents/999999",
    params: { id: "999999" },
    json: { name: "Nobody", payBasis: "received" },
    allowed: ["manager", "admin"],
  },
  {
    name: "an agent's pay basis on its form",
    handler: agentEdit.action,
    method: "POST",
    path: "/agents/999999/edit",
    params: { id: "999999" },
    form: { name: "Nobody", payBasis: "received" },
    allowed: ["manager", "admin"],
    page: true,
  },
]);

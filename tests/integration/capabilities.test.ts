// Permissions are checked in the models, not only in the routes (decision 0801):
// every model entry point that writes refuses a caller without the capability with a 403 and
// writes nothing, whoever calls it (a staff user calling recordPayment directly, a script, a
// future route that forgets its guard). The allowed roles are the ones of spec section 6.
import * as shareLinks from "../../app/models/share-link.server";
import * as reminders from "../../app/models/reminders.server";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type Role, type User } from "../../app/db.server";
import * as adminUsers from "../../app/models/admin-users.server";
import { importStatement, markNotReceipt } from "../../app/models/bank-statement.server";
import { matchBankLine } from "../../app/services/bank/match-bank-line.server";
import * as agents from "../../app/models/agent.server";
import * as settlements from "../../app/models/agent-settlement.server";
import * as audit from "../../app/models/audit.server";
import * as periods from "../../app/models/period.server";
import * as business from "../../app/models/business.server";
import * as clients from "../../app/models/client.server";
import * as qualityRules from "../../app/models/quality-rule.server";
import * as rateCards from "../../app/models/rate-card.server";
import * as clientPage from "../../app/presenters/client-page.server";
import * as deliveries from "../../app/models/delivery.server";
import * as deliveryChanges from "../../app/models/delivery-changes.server";
import * as invoices from "../../app/models/invoice.server";
import * as payments from "../../app/presenters/payments.server";
import * as createInvoice from "../../app/services/invoices/create-invoice.server";
import * as creditNoteList from "../../app/presenters/credit-note-list.server";
import * as creditNoteReversal from "../../app/services/invoices/reverse-credit-note.server";
import * as invoiceList from "../../app/presenters/invoice-list.server";
import * as invoicePage from "../../app/presenters/invoice-page.server";
import * as invoicePicker from "../../app/presenters/invoice-picker.server";
import * as issueCreditNote from "../../app/services/invoices/issue-credit-note.server";
import * as monthInvoices from "../../app/services/invoices/create-month-invoices.server";
import * as voiding from "../../app/services/invoices/void-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { reversePayment } from "../../app/services/payments/reverse-payment.server";
import { applyClientCredit } from "../../app/services/payments/apply-credit.server";
import { refundClientCredit } from "../../app/services/payments/refund-credit.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { reverseAgentPayout } from "../../app/services/agents/reverse-payout.server";
import * as settings from "../../app/models/settings.server";
import { loadManagerDashboard } from "../../app/presenters/manager-dashboard.server";
import * as exports from "../../app/presenters/exports.server";
import * as statementExports from "../../app/presenters/statement-exports.server";
import * as invoiceDocument from "../../app/presenters/invoice-document.server";
import * as reconciliation from "../../app/presenters/reconciliation.server";
import * as profitReport from "../../app/presenters/reports/profit-report.server";
import * as receivables from "../../app/presenters/receivables.server";
import * as agentStatements from "../../app/presenters/agent-statement.server";
import * as agentsOwed from "../../app/presenters/agents-owed.server";
import * as statement from "../../app/presenters/client-statement.server";
import * as taxReport from "../../app/presenters/tax-report.server";
import * as trucks from "../../app/models/truck.server";
import { can, ALL_CAPABILITIES, type Capability } from "../../app/rules/capabilities.server";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

const ROLES: Role[] = ["staff", "manager", "admin"];
const users = {} as Record<Role, User>;
let target: User;
let agentId: number;
let clientId: number;
let deliveryId: number;
let invoiceId: number;

beforeAll(async () => {
  for (const role of ROLES) users[role] = await createUser({ role });
  target = await createUser({ role: "staff" });
  agentId = (await createAgent()).id;
  clientId = (await createClient()).id;
  deliveryId = (await createDelivery({ agentId, clientId, createdBy: users.staff.id })).id;
  const eligible = await createDelivery({ agentId, clientId, createdBy: users.manager.id });
  const made = await createInvoice.createInvoiceForDelivery(users.manager, { deliveryId: eligible.id });
  if (!made.ok) throw new Error(made.message);
  invoiceId = made.invoice.id;
  await createDelivery({ agentId, clientId, createdBy: users.manager.id, date: "2026-02-10" });
});

/** Everything a refused call could have written. */
async function snapshot() {
  const db = await getDb();
  const count = async (
    table:
      | typeof schema.agents
      | typeof schema.clients
      | typeof schema.invoices
      | typeof schema.payments
      | typeof schema.creditNotes
      | typeof schema.deliveries
      | typeof schema.agentPayouts
      | typeof schema.trucks
      | typeof schema.auditEvents,
  ) => (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  const [userRow] = await db.select().from(schema.users).where(eq(schema.users.id, target.id));
  const [delivery] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, deliveryId));
  const [invoice] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
  const [agent] = await db.select().from(schema.agents).where(eq(schema.agents.id, agentId));
  const [client] = await db.select().from(schema.clients).where(eq(schema.clients.id, clientId));
  const [setting] = await db.select().from(schema.settings);
  const [business] = await db.select().from(schema.businessDetails);
  return {
    business: business ?? null,
    agents: await count(schema.agents),
    trucks: await count(schema.trucks),
    clients: await count(schema.clients),
    invoices: await count(schema.invoices),
    payments: await count(schema.payments),
    creditNotes: await count(schema.creditNotes),
    deliveries: await count(schema.deliveries),
    agentPayouts: await count(schema.agentPayouts),
    auditEvents: await count(schema.auditEvents),
    period: (await db.select().from(schema.periodClose))[0].closedThrough,
    users: (await db.select({ n: sql<number>`count(*)::int` }).from(schema.users))[0].n,
    target: { status: userRow.status, role: userRow.role, password: userRow.password },
    delivery: { tons: delivery.tons, sellingRate: delivery.sellingRate, location: delivery.location },
    invoice: {
      amountPaid: invoice.amountPaid,
      amountCredited: invoice.amountCredited,
      status: invoice.paymentStatus,
      voidReason: invoice.voidReason,
    },
    agent: agent.name,
    client: client.name,
    settings: setting
      ? { buyingRate: setting.buyingRate, sellingRate: setting.sellingRate, updatedBy: setting.updatedBy }
      : null,
  };
}

type EntryPoint = {
  name: string;
  capability: Capability;
  call: (actor: User) => Promise<{ ok: boolean; status?: number }>;
};

const ENTRY_POINTS: EntryPoint[] = [
  {
    name: "bank.importStatement",
    capability: "bank.import",
    call: (u) => importStatement(u, {}, { name: "s.csv", text: "a,b" }),
  },
  { name: "bank.matchBankLine", capability: "bank.import", call: (u) => matchBankLine(u, 1, { clientId: 1 }) },
  { name: "bank.markNotReceipt", capability: "bank.import", call: (u) => markNotReceipt(u, 1) },
  {
    name: "payment.recordPayment",
    capability: "payment.record",
    call: (u) => recordPayment(u, { invoiceId, amount: "1.00" }),
  },
  {
    name: "invoice.createInvoiceForDelivery",
    capability: "invoice.manage",
    call: (u) => createInvoice.createInvoiceForDelivery(u, { deliveryId }),
  },
  {
    name: "invoice.voidInvoice",
    capability: "invoice.void",
    call: (u) => voiding.voidInvoice(u, invoiceId, { reason: "Refused?" }),
  },
  {
    name: "creditNote.createCreditNote",
    capability: "credit_note.create",
    call: (u) => issueCreditNote.createCreditNote(u, invoiceId, { amount: "1.00", reason: "Refused?" }),
  },
  {
    name: "invoice.createInvoicesForMonth",
    capability: "invoice.manage",
    call: (u) => monthInvoices.createInvoicesForMonth(u, "2026-02"),
  },
  {
    name: "agent.createAgent",
    capability: "agent.manage",
    call: (u) => agents.createAgent(u, { name: `Refused ${u.role}` }),
  },
  {
    name: "agent.updateAgent",
    capability: "agent.manage",
    call: (u) => agents.updateAgent(u, agentId, { name: `Renamed ${u.role}` }),
  },
  { name: "agent.deleteAgent", capability: "agent.manage", call: (u) => agents.deleteAgent(u, agentId) },
  {
    name: "client.createClient",
    capability: "client.manage",
    call: (u) => clients.createClient(u, { name: `Refused ${u.role}` }),
  },
  {
    name: "client.updateClient",
    capability: "client.manage",
    call: (u) => clients.updateClient(u, clientId, { name: `Renamed ${u.role}` }),
  },
  { name: "client.deleteClient", capability: "client.manage", call: (u) => clients.deleteClient(u, clientId) },
  {
    name: "truck.createTruck",
    capability: "truck.manage",
    call: (u) => trucks.createTruck(u, { plate: `REF ${u.role.slice(0, 3)}` }),
  },
  {
    name: "truck.updateTruck",
    capability: "truck.manage",
    call: (u) => trucks.updateTruck(u, 1, { plate: `REN ${u.role.slice(0, 3)}` }),
  },
  // Share links and reminders (docs/decisions/1260): who may see the document may share it.
  {
    name: "shareLink.createShareLink (invoice)",
    capability: "invoice.view",
    call: (u) => shareLinks.createShareLink(u, { scope: "invoice", subjectId: invoiceId }, "http://localhost"),
  },
  {
    name: "shareLink.createShareLink (agent statement)",
    capability: "agent.settle",
    call: (u) => shareLinks.createShareLink(u, { scope: "agent-statement", subjectId: agentId }, "http://localhost"),
  },
  {
    name: "reminders.recordReminderSent",
    capability: "client.statement",
    call: (u) =>
      reminders.recordReminderSent(
        u,
        { clientId, channel: "whatsapp", invoiceIds: [invoiceId] },
        { origin: "http://localhost", now: new Date() },
      ),
  },
  {
    name: "reminders.emailReminder",
    capability: "client.statement",
    call: (u) => reminders.emailReminder(u, { clientId }, { origin: "http://localhost", now: new Date() }),
  },
  {
    name: "rateCard.createRateCard",
    capability: "rate.manage",
    call: (u) => rateCards.createRateCard(u, { kind: "selling", rate: "1", validFrom: "2026-01-01", clientId }),
  },
  { name: "rateCard.deleteRateCard", capability: "rate.manage", call: (u) => rateCards.deleteRateCard(u, 999999) },
  {
    name: "settings.updateSettings",
    capability: "settings.manage",
    call: (u) => settings.updateSettings(u, { buyingRate: "1.00", sellingRate: "2.00" }),
  },
  {
    name: "delivery.updateDelivery (rates)",
    capability: "delivery.financials",
    call: (u) => deliveryChanges.updateDelivery(u, deliveryId, { sellingRate: "1.00" }),
  },
  {
    name: "delivery.updateDelivery (tons)",
    capability: "delivery.admin",
    call: (u) => deliveryChanges.updateDelivery(u, deliveryId, { tons: "1.00" }),
  },
  {
    name: "delivery.deleteDelivery",
    capability: "delivery.admin",
    call: (u) => deliveryChanges.deleteDelivery(u, deliveryId),
  },
  {
    name: "admin.createUserByAdmin",
    capability: "user.manage",
    call: (u) => adminUsers.createUserByAdmin(u, { email: `new-${u.role}@example.test`, role: "staff" }),
  },
  { name: "admin.unlockUser", capability: "user.manage", call: (u) => adminUsers.unlockUser(u, target.id) },
  {
    name: "admin.setUserStatus",
    capability: "user.manage",
    call: (u) => adminUsers.setUserStatus(u, target.id, "frozen"),
  },
  {
    name: "admin.resetUserPassword",
    capability: "user.manage",
    call: (u) => adminUsers.resetUserPassword(u, target.id),
  },
  {
    name: "admin.deleteUserByAdmin",
    capability: "user.manage",
    call: (u) => adminUsers.deleteUserByAdmin(u, target.id),
  },
  {
    name: "admin.bulkSetStatus",
    capability: "user.manage",
    call: (u) => adminUsers.bulkSetStatus(u, [target.id], "frozen"),
  },
  { name: "admin.bulkDeleteUsers", capability: "user.manage", call: (u) => adminUsers.bulkDeleteUsers(u, [target.id]) },
  {
    name: "admin.changeUserRole",
    capability: "user.role",
    call: (u) => adminUsers.changeUserRole(u, target.id, "manager"),
  },
  {
    name: "business.updateBusinessDetails",
    capability: "settings.manage",
    call: (u) => business.updateBusinessDetails(u, { companyName: `Refused ${u.role}` }, { kind: "remove" }),
  },
  { name: "admin.switchOwnRole", capability: "role.switch", call: (u) => adminUsers.switchOwnRole(u, u.id, "admin") },
  {
    name: "settlements.recordAgentPayout",
    capability: "agent.settle",
    call: (u) => recordAgentPayout(u, agentId, { amount: "1.00", method: "cash" }),
  },
  {
    name: "payment.reversePayment",
    capability: "payment.reverse",
    call: (u) => reversePayment(u, 1, { reason: "Entered twice" }),
  },
  {
    name: "payment.applyClientCredit",
    capability: "payment.record",
    call: (u) => applyClientCredit(u, invoiceId, { toInvoiceId: String(invoiceId + 1), amount: "1.00" }),
  },
  {
    name: "payment.refundClientCredit",
    capability: "payment.refund",
    call: (u) => refundClientCredit(u, invoiceId, { amount: "1.00", reason: "Paid back" }),
  },
  {
    name: "creditNote.reverseCreditNote",
    capability: "credit_note.reverse",
    call: (u) => creditNoteReversal.reverseCreditNote(u, 1, { reason: "Issued twice" }),
  },
  {
    name: "settlements.reverseAgentPayout",
    capability: "agent.settle",
    call: (u) => reverseAgentPayout(u, agentId, 1, { reason: "Entered twice" }),
  },
  {
    name: "qualityRule.addQualityRule",
    capability: "client.manage",
    call: (u) =>
      qualityRules.addQualityRule(u, clientId, {
        validFrom: "2026-03-01",
        moistureThreshold: "16",
        deductionPerPoint: "1",
      }),
  },
  { name: "period.closeMonth", capability: "period.close", call: (u) => periods.closeMonth(u, { month: "2020-01" }) },
  {
    name: "period.reopenMonth",
    capability: "period.close",
    call: (u) => periods.reopenMonth(u, { month: "2020-01", reason: "Refused" }),
  },
];

describe("model entry points refuse a caller without the capability", () => {
  for (const entry of ENTRY_POINTS) {
    const refused = ROLES.filter((role) => !can({ role, email: `${role}@nowhere.test` }, entry.capability));
    it(`${entry.name} (${entry.capability}) refuses ${refused.join(", ")} with 403 and writes nothing`, async () => {
      expect(refused.length, "someone must lack the capability").toBeGreaterThan(0);
      for (const role of refused) {
        const before = await snapshot();
        const result = await entry.call(users[role]);
        expect(result, `${role} calling ${entry.name}`).toMatchObject({ ok: false, status: 403 });
        expect(await snapshot(), `${role} calling ${entry.name} changed nothing`).toEqual(before);
      }
    });
  }

  it("a staff user calling recordPayment directly is refused; a manager is not", async () => {
    expect(await recordPayment(users.staff, { invoiceId, amount: "1.00" })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(await recordPayment(users.manager, { invoiceId, amount: "1.00" })).toMatchObject({ ok: true });
  });

  it("managers and admins void and credit invoices (they manage invoices, spec section 6); staff cannot", async () => {
    const fresh = async () => {
      const d = await createDelivery({ agentId, clientId, createdBy: users.manager.id });
      const made = await createInvoice.createInvoiceForDelivery(users.manager, { deliveryId: d.id });
      if (!made.ok) throw new Error(made.message);
      return made.invoice.id;
    };
    for (const role of ["manager", "admin"] as const) {
      expect(await voiding.voidInvoice(users[role], await fresh(), { reason: `Void by ${role}` })).toMatchObject({
        ok: true,
      });
      expect(
        await issueCreditNote.createCreditNote(users[role], await fresh(), { amount: "1.00", reason: `By ${role}` }),
      ).toMatchObject({ ok: true });
    }
    expect(await voiding.voidInvoice(users.staff, await fresh(), { reason: "No" })).toMatchObject({ status: 403 });
  });

  it("createDelivery is open to every role (spec section 6)", () => {
    for (const role of ROLES) expect(can({ role }, "delivery.create")).toBe(true);
  });
});

type ReadEntryPoint = { name: string; capability: Capability; call: (actor: User) => Promise<unknown> };

/** Reads only managers and admins (or only admins) may make: lists, totals, presenters, pickers. */
const READ_ENTRY_POINTS: ReadEntryPoint[] = [
  {
    name: "qualityRule.listQualityRules",
    capability: "client.manage",
    call: (u) => qualityRules.listQualityRules(u, clientId),
  },
  { name: "clientPage.clientPage", capability: "client.manage", call: (u) => clientPage.clientPage(u, clientId) },
  { name: "rateCard.listRateCards", capability: "rate.view", call: (u) => rateCards.listRateCards(u) },
  {
    name: "rateCard.cardsNaming",
    capability: "rate.view",
    call: (u) => rateCards.cardsNaming(u, { clientId }),
  },
  { name: "invoice.listInvoices", capability: "invoice.manage", call: (u) => invoiceList.listInvoices(u) },
  {
    name: "invoice.invoiceBatches",
    capability: "invoice.manage",
    call: async (u) => {
      for await (const batch of invoiceList.invoiceBatches(u)) void batch;
    },
  },
  { name: "invoice.getInvoice", capability: "invoice.manage", call: (u) => invoiceList.getInvoice(u, invoiceId) },
  { name: "invoice.invoiceSummary", capability: "invoice.manage", call: (u) => invoiceList.invoiceSummary(u) },
  {
    name: "invoice.getInvoiceDetail",
    capability: "invoice.view",
    call: (u) => invoicePage.getInvoiceDetail(u, invoiceId),
  },
  {
    name: "creditNote.listCreditNotes",
    capability: "credit_note.create",
    call: (u) => creditNoteList.listCreditNotes(u),
  },
  {
    name: "creditNote.creditNoteBatches",
    capability: "credit_note.create",
    call: async (u) => {
      for await (const batch of creditNoteList.creditNoteBatches(u)) void batch;
    },
  },
  { name: "invoice.urgentInvoices", capability: "invoice.manage", call: (u) => invoiceList.urgentInvoices(u, 6) },
  {
    name: "invoice.listEligibleDeliveries",
    capability: "invoice.manage",
    call: (u) => invoicePicker.listEligibleDeliveries(u),
  },
  {
    name: "invoice.previewInvoice",
    capability: "invoice.manage",
    call: (u) => invoicePicker.previewInvoice(u, deliveryId),
  },
  { name: "payment.listPayments", capability: "payment.record", call: (u) => payments.listPayments(u) },
  {
    name: "invoice.isVoidable",
    capability: "invoice.void",
    call: (u) => invoices.isVoidable(u, { id: invoiceId, storedStatus: "pending" }),
  },
  {
    name: "payment.getPaymentToReverse",
    capability: "payment.reverse",
    call: (u) => payments.getPaymentToReverse(u, 1),
  },
  {
    name: "creditNote.getCreditNoteToReverse",
    capability: "credit_note.reverse",
    call: (u) => creditNoteList.getCreditNoteToReverse(u, 1),
  },
  {
    name: "payment.listCreditMoveTargets",
    capability: "payment.record",
    call: (u) => payments.listCreditMoveTargets(u, 1, invoiceId),
  },
  {
    name: "payment.paymentBatches",
    capability: "payment.record",
    call: async (u) => {
      for await (const batch of payments.paymentBatches(u)) void batch;
    },
  },
  { name: "payment.paymentTotals", capability: "payment.record", call: (u) => payments.paymentTotals(u) },
  { name: "reconciliation.listMonths", capability: "reconciliation.view", call: (u) => reconciliation.listMonths(u) },
  {
    name: "profitReport.loadProfitReport",
    capability: "report.profit",
    call: (u) => profitReport.loadProfitReport(u, { from: "2026-01", to: "2026-02", by: "month", then: null }),
  },
  {
    name: "reconciliation.monthDetails",
    capability: "reconciliation.view",
    call: (u) => reconciliation.monthDetails(u, "2026-02"),
  },
  {
    name: "reconciliation.monthInvoicePreview",
    capability: "reconciliation.view",
    call: (u) => reconciliation.monthInvoicePreview(u, "2026-02"),
  },
  { name: "taxReport.listTaxMonths", capability: "tax.view", call: (u) => taxReport.listTaxMonths(u) },
  { name: "taxReport.taxMonth", capability: "tax.view", call: (u) => taxReport.taxMonth(u, "2026-02") },
  {
    name: "taxReport.taxMonthInvoices",
    capability: "tax.view",
    call: (u) => taxReport.taxMonthInvoices(u, "2026-02"),
  },
  {
    name: "taxReport.taxMonthCreditNotes",
    capability: "tax.view",
    call: (u) => taxReport.taxMonthCreditNotes(u, "2026-02"),
  },
  { name: "exports.taxMonthsExport", capability: "tax.view", call: async (u) => exports.taxMonthsExport(u) },
  {
    name: "exports.taxMonthExport",
    capability: "tax.view",
    call: async (u) => exports.taxMonthExport(u, "2026-02"),
  },
  { name: "receivables.listReceivables", capability: "client.statement", call: (u) => receivables.listReceivables(u) },
  {
    name: "receivables.receivablesTotals",
    capability: "client.statement",
    call: (u) => receivables.receivablesTotals(u),
  },
  {
    name: "exports.receivablesExport",
    capability: "client.statement",
    call: async (u) => exports.receivablesExport(u),
  },
  {
    name: "invoiceDocument.loadInvoiceDocument",
    capability: "invoice.manage",
    call: (u) => invoiceDocument.loadInvoiceDocument(u, invoiceId),
  },
  {
    name: "exports.auditExport",
    capability: "audit.view",
    call: async (u) => exports.auditExport(u, new URLSearchParams()),
  },
  { name: "exports.agentsExport", capability: "agent.manage", call: async (u) => exports.agentsExport(u) },
  {
    name: "statement.clientStatement",
    capability: "client.statement",
    call: (u) => statement.clientStatement(u, clientId, { from: "2026-01-01", to: "2026-01-31" }),
  },
  {
    name: "statementExports.clientStatementExport",
    capability: "client.statement",
    call: (u) => statementExports.clientStatementExport(u, clientId, new URLSearchParams()),
  },
  { name: "exports.clientsExport", capability: "client.manage", call: async (u) => exports.clientsExport(u) },
  {
    name: "exports.invoicesExport",
    capability: "invoice.manage",
    call: async (u) => exports.invoicesExport(u, new URLSearchParams()),
  },
  {
    name: "exports.paymentsExport",
    capability: "payment.record",
    call: async (u) => exports.paymentsExport(u, new URLSearchParams()),
  },
  {
    name: "exports.reconciliationExport",
    capability: "reconciliation.view",
    call: async (u) => exports.reconciliationExport(u),
  },
  {
    name: "exports.reconciliationMonthExport",
    capability: "reconciliation.view",
    call: async (u) => exports.reconciliationMonthExport(u, "2026-02"),
  },
  {
    name: "settlements.agentStatement",
    capability: "agent.settle",
    call: (u) => agentStatements.agentStatement(u, agentId, { from: "2026-01-01", to: "2026-01-31" }),
  },
  {
    name: "settlements.getStatementAgent",
    capability: "agent.settle",
    call: (u) => agentStatements.getStatementAgent(u, agentId),
  },
  {
    name: "settlements.getPayoutToReverse",
    capability: "agent.settle",
    call: (u) => settlements.getPayoutToReverse(u, agentId, 1),
  },
  {
    name: "statement.getStatementClient",
    capability: "client.statement",
    call: (u) => statement.getStatementClient(u, clientId),
  },
  {
    name: "settlements.listAgentPayouts",
    capability: "agent.settle",
    call: (u) => settlements.listAgentPayouts(u, agentId, { page: { cursor: null, direction: "older" } }),
  },
  {
    name: "settlements.listAgentBalances",
    capability: "agent.settle",
    call: (u) => agentsOwed.listAgentBalances(u, { page: { cursor: null, direction: "older" } }),
  },
  {
    name: "settlements.agentBalanceTotals",
    capability: "agent.settle",
    call: (u) => agentsOwed.agentBalanceTotals(u),
  },
  { name: "loadManagerDashboard", capability: "delivery.financials", call: (u) => loadManagerDashboard(u) },
  { name: "business.loadBusinessDetails", capability: "settings.manage", call: (u) => business.loadBusinessDetails(u) },
  { name: "settings.loadSystemSettings", capability: "settings.manage", call: (u) => settings.loadSystemSettings(u) },
  { name: "admin.listUsers", capability: "user.manage", call: (u) => adminUsers.listUsers(u) },
  { name: "admin.getUserRow", capability: "user.manage", call: (u) => adminUsers.getUserRow(u, target.id) },
  { name: "admin.getUserRows", capability: "user.manage", call: (u) => adminUsers.getUserRows(u, [target.id]) },
  { name: "audit.listAuditEvents", capability: "audit.view", call: (u) => audit.listAuditEvents(u, {}) },
  {
    name: "audit.listAuditEvents (a user's history)",
    capability: "audit.view",
    call: (u) => audit.listAuditEvents(u, { entityType: "user", entityId: target.id }),
  },
  { name: "period.getPeriodState", capability: "period.close", call: (u) => periods.getPeriodState(u) },
];

/** The 403 a refused read throws (a Response, like a route guard's), or null when it did not throw one. */
async function refusalOf(call: () => Promise<unknown>): Promise<number | null> {
  try {
    await call();
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("model reads refuse a caller without the capability", () => {
  for (const entry of READ_ENTRY_POINTS) {
    const refused = ROLES.filter((role) => !can({ role }, entry.capability));
    const allowed = ROLES.filter((role) => can({ role }, entry.capability));
    it(`${entry.name} (${entry.capability}) refuses ${refused.join(", ")} with 403; ${allowed.join(", ")} read`, async () => {
      expect(refused.length, "someone must lack the capability").toBeGreaterThan(0);
      for (const role of refused) {
        expect(await refusalOf(() => entry.call(users[role])), `${role} calling ${entry.name}`).toBe(403);
      }
      for (const role of allowed) {
        expect(await refusalOf(() => entry.call(users[role])), `${role} calling ${entry.name}`).toBeNull();
      }
    });
  }

  it("delivery.viewAll: staff list and open only their own deliveries; managers and admins every one", async () => {
    const filters = deliveries.parseFilters({});
    const listed = async (u: User) => (await deliveries.listDeliveries(u, filters, { limit: 500 })).deliveries;
    const others = await createDelivery({ agentId, clientId, createdBy: users.manager.id });
    const staffSees = await listed(users.staff);
    expect(staffSees.map((x) => x.id)).toContain(deliveryId);
    expect(staffSees.map((x) => x.id)).not.toContain(others.id);
    expect(await deliveries.getDelivery(users.staff, others.id)).toBeNull();
    for (const role of ["manager", "admin"] as const) {
      expect((await listed(users[role])).map((x) => x.id)).toEqual(expect.arrayContaining([deliveryId, others.id]));
      expect(await deliveries.getDelivery(users[role], others.id)).not.toBeNull();
    }
  });
});

describe("one entity's own history follows that entity's page", () => {
  it("managers read a delivery's or an invoice's history, never the whole trail; staff neither", async () => {
    for (const role of ["manager", "admin"] as const) {
      const read = () => audit.listAuditEvents(users[role], { entityType: "delivery", entityId: String(deliveryId) });
      expect(await refusalOf(read)).toBeNull();
      const inv = () => audit.listAuditEvents(users[role], { entityType: "invoice", entityId: String(invoiceId) });
      expect(await refusalOf(inv)).toBeNull();
    }
    expect(await refusalOf(() => audit.listAuditEvents(users.manager, { entityType: "delivery" }))).toBe(403);
    const staffRead = () =>
      audit.listAuditEvents(users.staff, { entityType: "delivery", entityId: String(deliveryId) });
    expect(await refusalOf(staffRead)).toBe(403);
  });
});

describe("the capability table is spec section 6", () => {
  it("names who holds what", () => {
    const table = Object.fromEntries(ALL_CAPABILITIES.map((c) => [c, ROLES.filter((role) => can({ role }, c))]));
    expect(table).toEqual({
      "delivery.create": ["staff", "manager", "admin"],
      "delivery.viewAll": ["manager", "admin"],
      "delivery.financials": ["manager", "admin"],
      "delivery.netPayment": ["admin"],
      "delivery.admin": ["admin"],
      "delivery.tickets": ["manager", "admin"],
      "agent.manage": ["manager", "admin"],
      "client.manage": ["manager", "admin"],
      "truck.manage": ["manager", "admin"],
      "client.statement": ["manager", "admin"],
      "agent.settle": ["admin"],
      "invoice.manage": ["manager", "admin"],
      "invoice.view": ["manager", "admin"],
      "invoice.void": ["manager", "admin"],
      "credit_note.create": ["manager", "admin"],
      "payment.record": ["manager", "admin"],
      "payment.reverse": ["admin"],
      "credit_note.reverse": ["admin"],
      "payment.refund": ["admin"],
      "bank.import": ["manager", "admin"],
      "reconciliation.view": ["manager", "admin"],
      "tax.view": ["manager", "admin"],
      "report.profit": ["manager", "admin"],
      "settings.manage": ["admin"],
      "user.manage": ["admin"],
      "user.role": ["admin"],
      "audit.view": ["admin"],
      "period.close": ["admin"],
      "rate.view": ["manager", "admin"],
      "rate.manage": ["admin"],
      "role.switch": ["admin"],
    });
  });
});

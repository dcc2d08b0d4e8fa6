// Every audited action writes exactly one event in its own transaction, and a failed one
// (validation, refused role, closed month) writes none (decisions 0900 and 0901).
// Month close refuses each kind of back-dated write and allows the month after.
import { desc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type AuditEventRow, type User } from "../../app/db.server";
import * as adminUsers from "../../app/models/admin-users.server";
import * as agents from "../../app/models/agent.server";
import type { AuditAction } from "../../app/models/audit.server";
import * as clients from "../../app/models/client.server";
import * as deliveries from "../../app/services/deliveries/create-delivery.server";
import * as deliveryChanges from "../../app/models/delivery-changes.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { changeOwnPassword } from "../../app/models/password.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { closeMonth, reopenMonth } from "../../app/models/period.server";
import * as settings from "../../app/models/settings.server";
import { attemptPasswordLogin } from "../../app/models/sign-in.server";
import { THROTTLE_MAX_FAILURES } from "../../app/utils/throttle.server";
import { createAgent, createClient, createDelivery, createUser, TEST_PASSWORD } from "../factories";
import { expectEveryEventWorded } from "../audit-words";

let admin: User;
let manager: User;
let staff: User;
let agentId: number;
let clientId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  staff = await createUser({ role: "staff" });
  agentId = (await createAgent()).id;
  clientId = (await createClient()).id;
});

async function eventCount() {
  const db = await getDb();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.auditEvents))[0].n;
}

async function lastEvent(): Promise<AuditEventRow> {
  const db = await getDb();
  const [row] = await db.select().from(schema.auditEvents).orderBy(desc(schema.auditEvents.id)).limit(1);
  return row;
}

/** Runs `call`, checks it wrote exactly one event with `action`, and returns the call's result and the event. */
async function oneEvent<T>(action: AuditAction, call: () => Promise<T>): Promise<{ result: T; event: AuditEventRow }> {
  const before = await eventCount();
  const result = await call();
  expect(await eventCount(), `${action}: exactly one event`).toBe(before + 1);
  const event = await lastEvent();
  expect(event.action).toBe(action);
  return { result, event };
}

/** Runs `call`, checks it failed and wrote no event. */
async function noEvent(label: string, call: () => Promise<{ ok: boolean; status?: number }>, status?: number) {
  const before = await eventCount();
  const result = await call();
  expect(result, label).toMatchObject({ ok: false, ...(status ? { status } : {}) });
  expect(await eventCount(), `${label}: no event`).toBe(before);
  return result;
}

const messageOf = (result: unknown) => (result as { message?: string }).message;

describe("deliveries", () => {
  it("create, change and delete each write one event; delete keeps the last state", async () => {
    const { result, event } = await oneEvent("delivery.create", () =>
      deliveries.createDelivery(admin, { date: "2026-03-02", agentId, clientId, tons: "12.34", location: "Yard A" }),
    );
    if (!result.ok) throw new Error(result.message);
    const id = result.delivery.id;
    expect(event).toMatchObject({ actorId: admin.id, actorEmail: admin.email, entityType: "delivery" });
    expect(event.entityId).toBe(String(id));
    expect(event.before).toBeNull();
    // Money fields always, as exact decimal strings.
    expect(event.after).toMatchObject({ tons: "12.340", location: "Yard A" });
    expect(typeof event.after!.sellingRate).toBe("string");

    const changed = await oneEvent("delivery.update", () =>
      deliveryChanges.updateDelivery(admin, id, { tons: "13.00", sellingRate: "70000.25" }),
    );
    expect(changed.event.before).toMatchObject({ tons: "12.340" });
    expect(changed.event.after).toMatchObject({ tons: "13.000", sellingRate: "70000.25" });

    const removed = await oneEvent("delivery.delete", () => deliveryChanges.deleteDelivery(admin, id));
    expect(removed.result).toEqual({ ok: true });
    expect(removed.event.before).toMatchObject({ id, tons: "13.000", sellingRate: "70000.25", location: "Yard A" });
    expect(removed.event.after).toBeNull();
  });

  it("a refused or invalid delivery write leaves no event", async () => {
    const d = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2026-03-03" });
    await noEvent("missing tons", () => deliveries.createDelivery(staff, { agentId, location: "X" }), 400);
    await noEvent("staff edit", () => deliveryChanges.updateDelivery(staff, d.id, { sellingRate: "1" }), 403);
    await noEvent("manager delete", () => deliveryChanges.deleteDelivery(manager, d.id), 403);
    await noEvent("bad tons", () => deliveryChanges.updateDelivery(admin, d.id, { tons: "-1" }), 400);
    const invoiced = await createDelivery({ agentId, clientId, createdBy: staff.id, status: "invoiced" });
    await noEvent("invoiced delete", () => deliveryChanges.deleteDelivery(admin, invoiced.id), 409);
  });
});

describe("invoices and payments", () => {
  it("an invoice and a payment each write one event with their money", async () => {
    const d = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2026-03-04", tons: "10.00" });
    const made = await oneEvent("invoice.create", () => createInvoiceForDelivery(manager, { deliveryId: d.id }));
    if (!made.result.ok) throw new Error(made.result.message);
    const invoice = made.result.invoice;
    expect(made.event).toMatchObject({ entityType: "invoice", entityId: String(invoice.id), actorId: manager.id });
    expect(made.event.after).toMatchObject({
      amount: invoice.amount,
      invoiceNo: invoice.invoiceNo,
      deliveryCount: 1,
      firstDeliveryId: d.id,
      lastDeliveryId: d.id,
    });

    const paid = await oneEvent("payment.create", () =>
      recordPayment(manager, { invoiceId: invoice.id, amount: "100.50", reference: "TRF-1" }),
    );
    if (!paid.result.ok) throw new Error(paid.result.message);
    expect(paid.event).toMatchObject({ entityType: "payment", entityId: String(paid.result.payment.id) });
    expect(paid.event.before).toMatchObject({ amountPaid: "0.00", invoiceId: invoice.id });
    expect(paid.event.after).toMatchObject({ amount: "100.50", amountPaid: "100.50", paymentStatus: "partial" });

    await noEvent("over-payment", () => recordPayment(manager, { invoiceId: invoice.id, amount: "99999999" }));
    await noEvent("staff payment", () => recordPayment(staff, { invoiceId: invoice.id, amount: "1" }), 403);
    await noEvent("invoice again", () => createInvoiceForDelivery(manager, { deliveryId: d.id }), 409);
  });

  it("a month's invoices write one event per invoice", async () => {
    const other = await createClient();
    await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2026-04-03" });
    await createDelivery({ agentId, clientId: other.id, createdBy: staff.id, date: "2026-04-04" });
    const before = await eventCount();
    const result = await createInvoicesForMonth(manager, "2026-04");
    if (!result.ok) throw new Error(result.message);
    expect(result.invoices).toHaveLength(2);
    expect(await eventCount()).toBe(before + 2);
  });
});

describe("agents, clients and default rates", () => {
  it("each change writes one event; a duplicate name or a refused role none", async () => {
    const created = await oneEvent("agent.create", () => agents.createAgent(manager, { name: "Audit Agent One" }));
    if (!created.result.ok) throw new Error(created.result.message);
    const id = created.result.agent.id;
    const renamed = await oneEvent("agent.update", () => agents.updateAgent(manager, id, { name: "Audit Agent Two" }));
    expect(renamed.event.before).toMatchObject({ name: "Audit Agent One" });
    expect(renamed.event.after).toMatchObject({ name: "Audit Agent Two" });
    await noEvent("duplicate agent", () => agents.createAgent(manager, { name: "audit agent two" }), 409);
    await noEvent("staff agent", () => agents.createAgent(staff, { name: "Nope" }), 403);
    await oneEvent("agent.delete", () => agents.deleteAgent(manager, id));

    const client = await oneEvent("client.create", () =>
      clients.createClient(manager, { name: "Audit Client", taxRate: "7.5", paymentTermsDays: 30 }),
    );
    if (!client.result.ok) throw new Error(client.result.message);
    const cid = client.result.client.id;
    const updated = await oneEvent("client.update", () =>
      clients.updateClient(manager, cid, { name: "Audit Client", taxRate: "5", paymentTermsDays: 45 }),
    );
    expect(updated.event.before).toMatchObject({ taxRate: "7.50" });
    expect(updated.event.after).toMatchObject({ taxRate: "5.00", paymentTermsDays: 45 });
    await oneEvent("client.delete", () => clients.deleteClient(manager, cid));
  });

  it("default rates: before and after as exact decimal strings, with who changed them", async () => {
    await settings.updateSettings(admin, { sellingRate: "65000.00" });
    const { event } = await oneEvent("settings.update", () =>
      settings.updateSettings(admin, { sellingRate: "65000.10", buyingRate: "52000" }),
    );
    expect(event).toMatchObject({ actorId: admin.id, actorEmail: admin.email, entityType: "settings", entityId: "1" });
    expect(event.before).toMatchObject({ sellingRate: "65000.00" });
    expect(event.after).toMatchObject({ sellingRate: "65000.10", buyingRate: "52000.00" });
    await noEvent("manager settings", () => settings.updateSettings(manager, { sellingRate: "1" }), 403);
    await noEvent("bad rate", () => settings.updateSettings(admin, { sellingRate: "1.234" }), 400);
  });
});

describe("users and sign-ins", () => {
  it("create, reset, freeze, unfreeze, delete and role change write one event each, never a secret", async () => {
    const created = await oneEvent("user.create", () =>
      adminUsers.createUserByAdmin(admin, { email: "audited@example.test", role: "staff" }),
    );
    if (!created.result.ok) throw new Error(created.result.message);
    const id = created.result.user.id;
    expect(created.event.after).not.toHaveProperty("password");
    expect(JSON.stringify(created.event.after)).not.toContain(created.result.temporaryPassword);
    await noEvent("duplicate user", () =>
      adminUsers.createUserByAdmin(admin, { email: "audited@example.test", role: "staff" }),
    );
    const reset = await oneEvent("user.reset_password", () => adminUsers.resetUserPassword(admin, id));
    expect(reset.event.after).not.toHaveProperty("password");
    const frozen = await oneEvent("user.freeze", () => adminUsers.setUserStatus(admin, id, "frozen"));
    expect(frozen.event.before).toMatchObject({ status: "active" });
    expect(frozen.event.after).toMatchObject({ status: "frozen" });
    await oneEvent("user.unfreeze", () => adminUsers.setUserStatus(admin, id, "active"));
    await noEvent("own account", () => adminUsers.setUserStatus(admin, admin.id, "frozen"), 400);
    await noEvent("manager freeze", () => adminUsers.setUserStatus(manager, id, "frozen"), 403);
    await oneEvent("user.delete", () => adminUsers.deleteUserByAdmin(admin, id));

    const switcher = await createUser({ role: "admin" });
    await createUser({ role: "admin" });
    const switched = await oneEvent("user.role_change", () =>
      adminUsers.switchOwnRole(switcher, switcher.id, "manager"),
    );
    expect(switched.event.before).toMatchObject({ role: "admin" });
    expect(switched.event.after).toMatchObject({ role: "manager" });
  });

  it("bulk freeze writes one event per user changed", async () => {
    const a = await createUser();
    const b = await createUser();
    const before = await eventCount();
    await adminUsers.bulkSetStatus(admin, [a.id, b.id, admin.id], "frozen");
    expect(await eventCount()).toBe(before + 2);
  });

  it("sign-in success, failure and lock are recorded; an unknown e-mail is not kept", async () => {
    const user = await createUser({ role: "staff" });
    const ok = await oneEvent("auth.sign_in", () => attemptPasswordLogin(user.email, TEST_PASSWORD, "198.51.100.7"));
    expect(ok.result.kind).toBe("signed-in");
    expect(ok.event).toMatchObject({ actorId: user.id, entityId: user.id, clientAddress: "198.51.100.7" });
    const bad = await oneEvent("auth.sign_in_failed", () => attemptPasswordLogin(user.email, "wrong", "198.51.100.7"));
    expect(bad.event).toMatchObject({ actorId: null, entityType: "user", entityId: user.id });
    // From another address: an address's failures on e-mails that are no account reach the trail
    // once per throttle window (decision 0600).
    const stranger = await oneEvent("auth.sign_in_failed", () =>
      attemptPasswordLogin("nobody@example.test", "wrong", "198.51.100.8"),
    );
    expect(stranger.event.entityId).toBeNull();
    expect(JSON.stringify(stranger.event)).not.toContain("nobody@example.test");
    for (let i = 1; i < THROTTLE_MAX_FAILURES; i++) await attemptPasswordLogin(user.email, "wrong", "198.51.100.7");
    const locked = await oneEvent("auth.locked", () => attemptPasswordLogin(user.email, TEST_PASSWORD, "198.51.100.7"));
    expect(locked.event.entityId).toBe(user.id);
  });

  it("a password change is recorded without the password; a wrong current password is not", async () => {
    const user = await createUser({ role: "staff" });
    await noEvent("wrong current", () =>
      changeOwnPassword(user, { currentPassword: "nope", newPassword: "a-brand-new-pass-77" }, null),
    );
    const { event } = await oneEvent("user.password_change", () =>
      changeOwnPassword(user, { currentPassword: TEST_PASSWORD, newPassword: "a-brand-new-pass-77" }, null),
    );
    expect(JSON.stringify(event)).not.toContain("a-brand-new-pass-77");
  });
});

describe("month close refuses back-dated writes (closed through June 2025)", () => {
  let june: { id: number };
  let july: { id: number };
  let invoiceId: number;

  beforeAll(async () => {
    june = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2025-06-10" });
    july = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2025-07-10" });
    const eligible = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2025-08-10" });
    const made = await createInvoiceForDelivery(manager, { deliveryId: eligible.id });
    if (!made.ok) throw new Error(made.message);
    invoiceId = made.invoice.id;
    const closed = await oneEvent("period.close", () => closeMonth(admin, { month: "2025-06" }));
    expect(closed.result).toMatchObject({ ok: true, state: { closedThrough: "2025-06-30" } });
  });

  const closedMessage = /^This month is closed/;

  async function deliveryCount() {
    const db = await getDb();
    return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.deliveries))[0].n;
  }

  it("delivery create: refused in June, nothing written, the key stays free; allowed in July", async () => {
    const before = await deliveryCount();
    const input = {
      date: "2025-06-15",
      agentId,
      clientId,
      tons: "5",
      location: "Back-dated",
      idempotencyKey: "k-june",
    };
    const refused = await noEvent("create in June", () => deliveries.createDelivery(staff, input), 409);
    expect(messageOf(refused)).toMatch(closedMessage);
    expect(await deliveryCount()).toBe(before);
    const ok = await oneEvent("delivery.create", () =>
      deliveries.createDelivery(staff, { ...input, date: "2025-07-01", idempotencyKey: "k-june" }),
    );
    expect(ok.result).toMatchObject({ ok: true, replayed: false, delivery: { date: "2025-07-01" } });
  });

  it("delivery edit: refused for a June delivery and for moving a July one into June; allowed within July", async () => {
    const db = await getDb();
    const refused = await noEvent(
      "edit June",
      () => deliveryChanges.updateDelivery(admin, june.id, { tons: "1.00" }),
      409,
    );
    expect(messageOf(refused)).toMatch(closedMessage);
    await noEvent(
      "manager rate on June",
      () => deliveryChanges.updateDelivery(manager, june.id, { sellingRate: "1" }),
      409,
    );
    await noEvent("move into June", () => deliveryChanges.updateDelivery(admin, july.id, { date: "2025-06-30" }), 409);
    const [row] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, july.id));
    expect(row.date).toBe("2025-07-10");
    await oneEvent("delivery.update", () => deliveryChanges.updateDelivery(admin, july.id, { date: "2025-07-01" }));
  });

  it("delivery delete: refused in June; allowed in July", async () => {
    await noEvent("delete June", () => deliveryChanges.deleteDelivery(admin, june.id), 409);
    const db = await getDb();
    expect(await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, june.id))).toHaveLength(1);
    const other = await createDelivery({ agentId, clientId, createdBy: staff.id, date: "2025-07-20" });
    await oneEvent("delivery.delete", () => deliveryChanges.deleteDelivery(admin, other.id));
  });

  it("invoice create: refused for a June delivery (single and by month); allowed for July", async () => {
    const refused = await noEvent(
      "invoice June",
      () => createInvoiceForDelivery(manager, { deliveryId: june.id }),
      409,
    );
    expect(messageOf(refused)).toMatch(closedMessage);
    await noEvent("month June", () => createInvoicesForMonth(manager, "2025-06"), 409);
    const db = await getDb();
    const [row] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, june.id));
    expect(row).toMatchObject({ status: "confirmed", invoiceId: null });
    await oneEvent("invoice.create", () => createInvoiceForDelivery(manager, { deliveryId: july.id }));
  });

  it("payment: refused when dated in June; allowed when dated after", async () => {
    const db = await getDb();
    const [before] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
    const refused = await noEvent(
      "payment June",
      () => recordPayment(manager, { invoiceId, amount: "10", paymentDate: "2025-06-20" }),
      409,
    );
    expect(messageOf(refused)).toMatch(closedMessage);
    const [after] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
    expect(after.amountPaid).toBe(before.amountPaid);
    await oneEvent("payment.create", () => recordPayment(manager, { invoiceId, amount: "10" }));
  });

  it("reopening June (with a reason) lets the June delivery change again", async () => {
    await noEvent("no reason", () => reopenMonth(admin, { month: "2025-06" }), 400);
    await oneEvent("period.reopen", () => reopenMonth(admin, { month: "2025-06", reason: "Ticket 118 was wrong" }));
    await oneEvent("delivery.update", () => deliveryChanges.updateDelivery(admin, june.id, { tons: "2.00" }));
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

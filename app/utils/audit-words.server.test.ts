import { getTableColumns, type Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from "./audit-actions";
import {
  ACTION_WORDS,
  describeAuditEvent,
  displayAddress,
  ENTITY_WORDS,
  FIELD_WORDS,
  formatAuditTime,
  idsToName,
  NO_NAMES,
  unwordedFields,
  type AuditEventInput,
  type AuditNames,
} from "./audit-words.server";

const LAGOS = "Africa/Lagos";

// The rows the trail keeps whole (decision 0900), and the columns it never keeps (secrets, the
// logo's bytes).
const AUDITED_TABLES: Table[] = [
  schema.users,
  schema.agents,
  schema.clients,
  schema.clientQualityRules,
  schema.rateCards,
  schema.trucks,
  schema.invoices,
  schema.deliveries,
  schema.creditNotes,
  schema.payments,
  schema.agentPayouts,
  schema.settings,
  schema.businessDetails,
  schema.passkeys,
];
const NEVER_KEPT = new Set(["password", "totpSecret", "totpLastStep", "credentialPublicKey", "counter", "logo"]);
// Fields events add beside a row (invoice spans, the invoice an entry changed, sign-in details,
// month close); each is written by one recordAudit call in app/models.
const EVENT_FIELDS = [
  "deliveryCount",
  "firstDeliveryId",
  "lastDeliveryId",
  "freedDeliveryCount",
  "firstFreedDeliveryId",
  "lastFreedDeliveryId",
  "invoiceNo",
  "amountPaid",
  "amountCredited",
  "paymentStatus",
  "clientCredit",
  "agentName",
  "owed",
  "method",
  "email",
  "reason",
  "closedThrough",
  "totpEnabled",
  "mustChangePassword",
];

const event = (over: Partial<AuditEventInput>): AuditEventInput => ({
  id: 1,
  time: "2026-03-05T23:30:09.000Z",
  actorId: null,
  actorEmail: null,
  action: "delivery.update",
  entityType: "delivery",
  entityId: "12",
  before: null,
  after: null,
  changes: [],
  requestId: "req-1",
  clientAddress: null,
  ...over,
});

const names: AuditNames = {
  users: new Map([["0b6f8a9e-4c0e-4a43-9a43-6d2f1c1e2a10", "Ngozi Okafor"]]),
  agents: new Map([["1", "Aisha Bello"]]),
  clients: new Map([["4", "Dangote Cement"]]),
  invoices: new Map([["9", "000123"]]),
};

describe("every action and field has words", () => {
  it("each recorded action has a plain title, not its code", () => {
    for (const action of AUDIT_ACTIONS) {
      const words = ACTION_WORDS[action];
      expect(words, action).toBeTruthy();
      expect(words, action).not.toMatch(/[._]/);
    }
    expect(new Set(Object.values(ACTION_WORDS)).size).toBe(AUDIT_ACTIONS.length);
    for (const entity of AUDIT_ENTITIES) expect(ENTITY_WORDS[entity], entity).toBeTruthy();
  });

  it("each column of an audited row, and each field events add, has a label", () => {
    const fields = new Set(EVENT_FIELDS);
    for (const table of AUDITED_TABLES) for (const column of Object.keys(getTableColumns(table))) fields.add(column);
    const missing = [...fields].filter((field) => !NEVER_KEPT.has(field) && !FIELD_WORDS[field]);
    expect(missing).toEqual([]);
    // A label is words, not a field name; the one brand spelt in camel case is allowed.
    for (const [field, words] of Object.entries(FIELD_WORDS))
      expect(words.label.replace("WhatsApp", "Whatsapp"), field).not.toMatch(/[a-z][A-Z]/);
  });

  it("unwordedFields names a field nobody worded, in a nested object too", () => {
    expect(
      unwordedFields({ action: "delivery.update", entityType: "delivery", before: null, after: { tons: "1" } }),
    ).toEqual([]);
    expect(
      unwordedFields({
        action: "payment.apply_credit",
        entityType: "payment",
        before: { from: { invoiceNo: "1", newThing: 2 } },
        after: { brandNew: 1 },
      }),
    ).toEqual(["newThing", "brandNew"]);
  });
});

describe("an event in plain words", () => {
  it("a delivery update: title, money in naira, an agent by name, Lagos time, the actor's name", () => {
    const line = describeAuditEvent(
      event({
        actorId: "0b6f8a9e-4c0e-4a43-9a43-6d2f1c1e2a10",
        actorEmail: "ngozi@example.com",
        clientAddress: "::ffff:127.0.0.1",
        changes: [
          { field: "otherCosts", before: "0.00", after: "5000.00" },
          { field: "agentId", before: 2, after: 1 },
          { field: "tons", before: "12.5", after: "13.25" },
          { field: "date", before: "2026-03-04", after: "2026-03-05" },
        ],
      }),
      { ...names, agents: new Map([...names.agents, ["2", "Musa Ibrahim"]]) },
      LAGOS,
    );
    expect(line).toMatchObject({
      title: "Delivery updated",
      subject: "Delivery #12",
      actor: "Ngozi Okafor",
      when: "Mar 06, 2026 00:30 WAT",
      from: "127.0.0.1",
    });
    expect(line.changes).toEqual([
      { field: "Other costs", before: "₦0.00", after: "₦5,000.00" },
      { field: "Agent", before: "Musa Ibrahim", after: "Aisha Bello" },
      { field: "Tons", before: "12.50 t", after: "13.25 t" },
      { field: "Date", before: "Mar 04, 2026", after: "Mar 05, 2026" },
    ]);
  });

  it("a quality rule added: its client by name, its day, its percents", () => {
    const after = {
      id: 3,
      clientId: 4,
      validFrom: "2026-03-01",
      moistureThreshold: "16.00",
      deductionPerPoint: "1.00",
    };
    const line = describeAuditEvent(
      event({
        action: "client_quality_rule.create",
        entityType: "client_quality_rule",
        entityId: "3",
        after,
        changes: Object.entries(after).map(([field, value]) => ({ field, before: null, after: value })),
      }),
      names,
      LAGOS,
    );
    expect(line.title).toBe("Quality rule added");
    expect(line.subject).toBe("Quality rule of Dangote Cement from Mar 01, 2026");
    expect(line.changes).toEqual([
      { field: "Client", before: null, after: "Dangote Cement" },
      { field: "Valid from", before: null, after: "Mar 01, 2026" },
      { field: "Moisture threshold", before: null, after: "16.00%" },
      { field: "Deduction per point", before: null, after: "1.00%" },
    ]);
  });

  it("a create shows its fields without ids or bookkeeping; users and clients by name", () => {
    const line = describeAuditEvent(
      event({
        action: "delivery.create",
        actorEmail: "staff@example.com",
        changes: [
          { field: "id", before: null, after: 12 },
          { field: "clientId", before: null, after: 4 },
          { field: "createdBy", before: null, after: "0b6f8a9e-4c0e-4a43-9a43-6d2f1c1e2a10" },
          { field: "status", before: null, after: "confirmed" },
          { field: "moisture", before: null, after: "7.50" },
          { field: "createdAt", before: null, after: "2026-03-05T23:30:09.000Z" },
        ],
      }),
      names,
      LAGOS,
    );
    expect(line.title).toBe("Delivery recorded");
    expect(line.actor).toBe("staff@example.com");
    expect(line.changes).toEqual([
      { field: "Client", before: null, after: "Dangote Cement" },
      { field: "Entered by", before: null, after: "Ngozi Okafor" },
      { field: "Status", before: null, after: "Confirmed" },
      { field: "Moisture", before: null, after: "7.50%" },
    ]);
  });

  it("a deleted agent keeps the name its event carried; an unknown reference says so without an id soup", () => {
    const deleted = describeAuditEvent(
      event({
        action: "agent.delete",
        entityType: "agent",
        entityId: "7",
        before: { id: 7, name: "Old Agent" },
        changes: [{ field: "name", before: "Old Agent", after: null }],
      }),
      NO_NAMES,
      LAGOS,
    );
    expect(deleted).toMatchObject({ title: "Agent deleted", subject: "Agent Old Agent", actor: "The system" });
    const unknown = describeAuditEvent(
      event({ changes: [{ field: "agentId", before: 3, after: 4 }] }),
      NO_NAMES,
      LAGOS,
    );
    expect(unknown.changes).toEqual([{ field: "Agent", before: "Agent #3", after: "Agent #4" }]);
  });

  it("sign-ins: method and reason in words, nobody signed in, the account by name", () => {
    const line = describeAuditEvent(
      event({
        action: "auth.sign_in_failed",
        entityType: "user",
        entityId: "0b6f8a9e-4c0e-4a43-9a43-6d2f1c1e2a10",
        after: { method: "password+totp", reason: "code" },
        changes: [
          { field: "method", before: null, after: "password+totp" },
          { field: "reason", before: null, after: "code" },
        ],
        clientAddress: "203.0.113.9",
      }),
      names,
      LAGOS,
    );
    expect(line).toMatchObject({ title: "Sign-in failed", subject: "Ngozi Okafor", actor: "Not signed in" });
    expect(line.from).toBe("203.0.113.9");
    expect(line.changes).toEqual([
      { field: "Method", before: null, after: "Password and code" },
      { field: "Reason", before: null, after: "Wrong code" },
    ]);
  });

  it("a credit move's nested invoices and entries read as labelled fields", () => {
    const line = describeAuditEvent(
      event({
        action: "payment.apply_credit",
        entityType: "payment",
        entityId: "30",
        before: { from: { invoiceNo: "000120", amountPaid: "900.00", paymentStatus: "paid" } },
        after: { from: { invoiceNo: "000120", amountPaid: "400.00", paymentStatus: "paid" } },
        changes: [
          {
            field: "from",
            before: { invoiceNo: "000120", amountPaid: "900.00", paymentStatus: "paid" },
            after: { invoiceNo: "000120", amountPaid: "400.00", paymentStatus: "paid" },
          },
          { field: "moveOut", before: null, after: { id: 30, amount: "-500.00", creditMovedToInvoiceId: 9 } },
        ],
      }),
      names,
      LAGOS,
    );
    expect(line.subject).toBe("Payment #30 on invoice #000120");
    expect(line.changes).toEqual([
      { field: "From invoice: Amount paid", before: "₦900.00", after: "₦400.00" },
      { field: "Credit out: Entry", before: null, after: "Payment #30" },
      { field: "Credit out: Amount", before: null, after: "-₦500.00" },
      { field: "Credit out: Credit moved to invoice", before: null, after: "#000123" },
    ]);
  });

  it("settings, periods, users' roles and statuses", () => {
    const rates = describeAuditEvent(
      event({
        action: "settings.update",
        entityType: "settings",
        entityId: "1",
        before: { sellingRate: "100.00" },
        after: { sellingRate: "120.00" },
        changes: [{ field: "sellingRate", before: "100.00", after: "120.00" }],
      }),
      names,
      LAGOS,
    );
    expect(rates).toMatchObject({ title: "Settings changed", subject: "Rates and settings" });
    expect(rates.changes).toEqual([{ field: "Selling rate", before: "₦100.00", after: "₦120.00" }]);
    const month = describeAuditEvent(
      event({
        action: "period.close",
        entityType: "period",
        entityId: "2026-02",
        changes: [{ field: "closedThrough", before: "2026-01", after: "2026-02" }],
      }),
      names,
      LAGOS,
    );
    expect(month).toMatchObject({ title: "Month closed", subject: "February 2026" });
    expect(month.changes).toEqual([{ field: "Closed through", before: "January 2026", after: "February 2026" }]);
    const frozen = describeAuditEvent(
      event({
        action: "user.freeze",
        entityType: "user",
        entityId: "0b6f8a9e-4c0e-4a43-9a43-6d2f1c1e2a10",
        changes: [
          { field: "status", before: "active", after: "frozen" },
          { field: "role", before: "staff", after: "manager" },
          { field: "totpEnabled", before: true, after: false },
        ],
      }),
      names,
      LAGOS,
    );
    expect(frozen.changes).toEqual([
      { field: "Status", before: "Active", after: "Frozen" },
      { field: "Role", before: "Staff", after: "Manager" },
      { field: "Two-factor sign-in", before: "Yes", after: "No" },
    ]);
  });
});

describe("a truck's events (docs/decisions/1200)", () => {
  it("name the truck by its plate, the tare in kilograms, and keep the plate key out of sight", () => {
    const line = describeAuditEvent(
      event({
        action: "truck.update",
        entityType: "truck",
        entityId: "7",
        before: { plate: "LAG 123 XY", plateKey: "LAG123XY", usualTareKg: 9000 },
        after: { plate: "LAG-123-XY", plateKey: "LAG123XY", usualTareKg: 12500 },
        changes: [
          { field: "plate", before: "LAG 123 XY", after: "LAG-123-XY" },
          { field: "plateKey", before: "LAG123XY", after: "LAG123XY" },
          { field: "usualTareKg", before: 9000, after: 12500 },
          { field: "transporter", before: null, after: "Musa Haulage" },
        ],
      }),
      names,
      LAGOS,
    );
    expect(line).toMatchObject({ title: "Truck updated", subject: "Truck LAG-123-XY" });
    expect(line.changes).toEqual([
      { field: "Plate", before: "LAG 123 XY", after: "LAG-123-XY" },
      { field: "Usual tare", before: "9,000 kg", after: "12,500 kg" },
      { field: "Transporter", before: null, after: "Musa Haulage" },
    ]);
  });
});

describe("times, addresses and the ids a page names", () => {
  it("times are in the business time zone, named", () => {
    expect(formatAuditTime("2026-03-05T14:02:09.000Z", LAGOS)).toBe("Mar 05, 2026 15:02 WAT");
    expect(formatAuditTime("2026-12-31T23:59:59.000Z", LAGOS)).toBe("Jan 01, 2027 00:59 WAT");
  });

  it("an IPv4-mapped address reads as IPv4", () => {
    expect(displayAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(displayAddress("::FFFF:10.1.2.3")).toBe("10.1.2.3");
    expect(displayAddress("2001:db8::1")).toBe("2001:db8::1");
    expect(displayAddress(null)).toBeNull();
  });

  it("collects every id of a page once, by kind", () => {
    const ids = idsToName([
      event({ actorId: "u1", after: { agentId: 1, clientId: 4, createdBy: "u2" } }),
      event({ actorId: "u1", before: { agentId: 1 }, after: { agentId: 2, invoiceId: 9 } }),
      event({
        action: "payment.apply_credit",
        entityType: "payment",
        after: { moveIn: { createdBy: "u3", invoiceId: 10 } },
      }),
      event({ entityType: "agent", entityId: "5" }),
    ]);
    expect(ids).toEqual({
      users: ["u1", "u2", "u3"],
      agents: ["1", "2", "5"],
      clients: ["4"],
      invoices: ["9", "10"],
    });
  });
});

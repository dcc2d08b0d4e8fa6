// Every keyed money write, on both drivers (decision 0805): called twice under one request key it
// has one effect and one audit event, and the second call answers `replayed: true` with what the
// first made; called in a closed month it is refused with 409 and writes nothing (no row, no
// audit event, its key not taken), so a retry under the same key after the month is reopened
// goes through (decision 0901).
//
// A new money write is one more entry in WRITES: how to set it up at a given clock, how to call
// it under a key, what it made (for the replay), how many rows of its own effect there are, and
// the audit action it records.
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { createDelivery as recordDelivery } from "../../app/services/deliveries/create-delivery.server";
import { refundClientCredit } from "../../app/services/payments/refund-credit.server";
import { applyClientCredit } from "../../app/services/payments/apply-credit.server";
import { reversePayment } from "../../app/services/payments/reverse-payment.server";
import { closeMonth, PERIOD_CLOSED_MESSAGE, reopenMonth } from "../../app/models/period.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { recordCertificate } from "../../app/services/receipts/record-certificate.server";
import { recordReceipt } from "../../app/services/receipts/record-receipt.server";
import { reverseReceipt } from "../../app/services/receipts/reverse-receipt.server";
import type { Failure } from "../../app/utils/result";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { auditEvents } from "../money-entries";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { reverseCreditNote } from "../../app/services/invoices/reverse-credit-note.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { reverseAgentPayout } from "../../app/services/agents/reverse-payout.server";

let admin: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  agentId = (await createAgent()).id;
});

/** The moment a write runs at: its instant, its business day (Africa/Lagos) and month. */
type Clock = { now: Date; day: string; month: string };
const clockAt = (day: string): Clock => ({ now: new Date(`${day}T10:00:00Z`), day, month: day.slice(0, 7) });

/** Where the writes run while their month is open (no test closes a month after March 2025). */
const OPEN = clockAt("2025-06-18");
/** The month each closed-month case closes (and reopens again once it has been refused). */
const CLOSED = clockAt("2025-03-20");

type Answer = { ok: true; replayed?: boolean } | Failure;
type Made<R> = Extract<R, { ok: true }>;

/** One keyed write: everything the cases below need to know about it. */
type KeyedWriteCase<Ctx, R extends Answer> = {
  /** The write, as the tests name it. */
  write: string;
  /** The audit action it records, once per effect. */
  action: string;
  /** False for a write that takes no request key: called twice, the second is refused instead. */
  keyed?: false;
  /** The records the write acts on, made at `clock` (the write's own day). */
  setup: (clock: Clock) => Promise<Ctx>;
  /** The write itself, at `clock`, under `key`. */
  call: (ctx: Ctx, clock: Clock, key?: string) => Promise<R>;
  /** What the write made, the same on a replay. */
  resource: (made: Made<R>) => unknown;
  /** How many rows of the write's own effect exist for `ctx`: one more after it. */
  effect: (ctx: Ctx) => Promise<number>;
  /** The kept totals the write moves, as text: changed once, never again by a replay. */
  totals?: (ctx: Ctx) => Promise<string>;
};

/** A case with its records made: what the tests call, typed once here. */
type Prepared = {
  call: (key?: string) => Promise<Answer>;
  resource: (made: Answer) => unknown;
  effect: () => Promise<number>;
  totals: () => Promise<string>;
};

type WriteCase = Pick<KeyedWriteCase<unknown, Answer>, "write" | "action" | "keyed"> & {
  prepare: (clock: Clock) => Promise<Prepared>;
};

function writeCase<Ctx, R extends Answer>(c: KeyedWriteCase<Ctx, R>): WriteCase {
  return {
    write: c.write,
    action: c.action,
    keyed: c.keyed,
    async prepare(clock) {
      const ctx = await c.setup(clock);
      return {
        call: (key) => c.call(ctx, clock, key),
        resource: (made) => c.resource(made as Made<R>),
        effect: () => c.effect(ctx),
        totals: () => c.totals?.(ctx) ?? Promise.resolve(""),
      };
    },
  };
}

/** The write's answer, or the test fails with its message. */
function must<R extends Answer>(result: R): Made<R> {
  if (!result.ok) throw new Error(`${result.status} ${result.message}`);
  return result as Made<R>;
}

let keys = 0;
const newKey = (write: string) => `${write.replace(/\W+/g, "-")}-${Date.now().toString(36)}-${keys++}`;

// ---- records the writes act on

/** An invoice issued on the clock's day for one delivery of 10 tons at 1,000.00, to `clientId` or a new client. */
async function issuedInvoice(clock: Clock, clientId?: number) {
  clientId ??= (await createClient()).id;
  const delivery = await createDelivery({
    agentId,
    clientId,
    createdBy: admin.id,
    date: clock.day,
    tons: "10.00",
    sellingRate: "1000.00",
  });
  return must(await createInvoiceForDelivery(admin, { deliveryId: delivery.id }, { now: clock.now })).invoice;
}

type Invoice = Awaited<ReturnType<typeof issuedInvoice>>;

async function paid(clock: Clock, invoice: Invoice, amount = invoice.amount) {
  const input = { invoiceId: invoice.id, amount, paymentDate: clock.day };
  return must(await recordPayment(admin, input, clock.now)).payment;
}

/** An invoice paid in full, then credited 1,000.00: it carries a client credit of 1,000.00. */
async function invoiceWithCredit(clock: Clock, clientId?: number) {
  const invoice = await issuedInvoice(clock, clientId);
  await paid(clock, invoice);
  must(await createCreditNote(admin, invoice.id, { amount: "1000.00", reason: "Short delivery" }, clock.now));
  return invoice;
}

/** An agent owed 500,000.00 for one delivery on the clock's day. */
async function owedAgent(clock: Clock) {
  const agent = await createAgent();
  await createDelivery({
    agentId: agent.id,
    createdBy: admin.id,
    date: clock.day,
    tons: "10.00",
    buyingRate: "50000.00",
    offloadingCost: "0",
  });
  return agent.id;
}

// ---- what the writes change

async function count(table: string, where: ReturnType<typeof sql>) {
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql.raw(table))
    .where(where);
  return row.n;
}

async function invoiceTotals(...ids: number[]) {
  const db = await getDb();
  const i = schema.invoices;
  const rows = await db
    .select({ id: i.id, paid: i.amountPaid, credited: i.amountCredited, status: i.paymentStatus })
    .from(i)
    .where(inArray(i.id, ids))
    .orderBy(i.id);
  return JSON.stringify(rows);
}

async function agentTotals(id: number) {
  const db = await getDb();
  const b = schema.agentBalances;
  return JSON.stringify(await db.select({ paid: b.paid, n: b.nPayouts }).from(b).where(eq(b.agentId, id)));
}

const p = schema.payments;
const c = schema.creditNotes;
const payouts = schema.agentPayouts;

const WRITES: WriteCase[] = [
  writeCase({
    write: "record payment",
    action: "payment.create",
    setup: (clock) => issuedInvoice(clock),
    call: (invoice, clock, key) =>
      recordPayment(admin, { invoiceId: invoice.id, amount: "2500.00", paymentDate: clock.day }, clock.now, {
        idempotencyKey: key,
      }),
    resource: (made) => made.payment.id,
    effect: (invoice) => count("payments", eq(p.invoiceId, invoice.id)),
    totals: (invoice) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "reverse payment",
    action: "payment.reverse",
    setup: async (clock) => {
      const invoice = await issuedInvoice(clock);
      return { invoice, payment: await paid(clock, invoice, "2500.00") };
    },
    call: ({ payment }, clock, key) =>
      reversePayment(admin, payment.id, { reason: "Entered twice" }, clock.now, { idempotencyKey: key }),
    resource: (made) => made.reversal.id,
    effect: ({ payment }) => count("payments", eq(p.reversesPaymentId, payment.id)),
    totals: ({ invoice }) => invoiceTotals(invoice.id),
  }),
  // Receipts, their reversal and a withholding's certificate (docs/decisions/1240).
  writeCase({
    write: "record receipt",
    action: "receipt.create",
    setup: async (clock) => {
      const clientId = (await createClient({ whtRate: "5.00" })).id;
      return { clientId, invoice: await issuedInvoice(clock, clientId) };
    },
    call: ({ clientId }, clock, key) =>
      recordReceipt(admin, { clientId, amount: "2500.00", date: clock.day }, clock.now, { idempotencyKey: key }),
    resource: (made) => made.receipt.id,
    effect: ({ clientId }) => count("receipts", eq(schema.receipts.clientId, clientId)),
    totals: ({ invoice }) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "reverse receipt",
    action: "receipt.reverse",
    setup: async (clock) => {
      const clientId = (await createClient({ whtRate: "5.00" })).id;
      const invoice = await issuedInvoice(clock, clientId);
      const made = must(await recordReceipt(admin, { clientId, amount: "2500.00", date: clock.day }, clock.now));
      return { invoice, receiptId: made.receipt.id };
    },
    call: ({ receiptId }, clock, key) =>
      reverseReceipt(admin, receiptId, { reason: "Entered twice" }, clock.now, { idempotencyKey: key }),
    resource: (made) => made.receipt.id,
    effect: ({ receiptId }) =>
      count(
        "withholdings",
        sql`${schema.withholdings.receiptId} = ${receiptId} and ${schema.withholdings.reversesWithholdingId} is not null`,
      ),
    totals: ({ invoice }) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "record withholding certificate",
    action: "withholding.certificate",
    setup: async (clock) => {
      const clientId = (await createClient({ whtRate: "5.00" })).id;
      await issuedInvoice(clock, clientId);
      const made = must(await recordReceipt(admin, { clientId, amount: "2500.00", date: clock.day }, clock.now));
      return { withholdingId: made.receipt.allocations[0].withholdingId! };
    },
    call: ({ withholdingId }, clock, key) =>
      recordCertificate(admin, withholdingId, { certificateNo: "C-1", receivedOn: clock.day }, clock.now, {
        idempotencyKey: key,
      }),
    resource: (made) => made.certificate.id,
    effect: ({ withholdingId }) =>
      count("withholding_certificates", eq(schema.withholdingCertificates.withholdingId, withholdingId)),
  }),
  writeCase({
    write: "apply client credit",
    action: "payment.apply_credit",
    setup: async (clock) => {
      const from = await invoiceWithCredit(clock);
      return { from, to: await issuedInvoice(clock, from.clientId) };
    },
    call: ({ from, to }, clock, key) =>
      applyClientCredit(admin, from.id, { toInvoiceId: to.id, amount: "400.00" }, clock.now, { idempotencyKey: key }),
    resource: (made) => [made.moveOut.id, made.moveIn.id],
    effect: ({ to }) => count("payments", eq(p.creditMovedToInvoiceId, to.id)),
    totals: ({ from, to }) => invoiceTotals(from.id, to.id),
  }),
  writeCase({
    write: "refund client credit",
    action: "payment.refund",
    setup: (clock) => invoiceWithCredit(clock),
    call: (invoice, clock, key) =>
      refundClientCredit(admin, invoice.id, { amount: "300.00", reason: "Paid back by transfer" }, clock.now, {
        idempotencyKey: key,
      }),
    resource: (made) => made.refund.id,
    effect: (invoice) => count("payments", and(eq(p.invoiceId, invoice.id), eq(p.refund, true))!),
    totals: (invoice) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "issue credit note",
    action: "credit_note.create",
    setup: (clock) => issuedInvoice(clock),
    call: (invoice, clock, key) =>
      createCreditNote(admin, invoice.id, { amount: "1500.00", reason: "Short delivery" }, clock.now, {
        idempotencyKey: key,
      }),
    resource: (made) => made.creditNote.id,
    effect: (invoice) => count("credit_notes", eq(c.invoiceId, invoice.id)),
    totals: (invoice) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "reverse credit note",
    action: "credit_note.reverse",
    setup: async (clock) => {
      const invoice = await issuedInvoice(clock);
      const input = { amount: "1500.00", reason: "Short delivery" };
      return { invoice, creditNote: must(await createCreditNote(admin, invoice.id, input, clock.now)).creditNote };
    },
    call: ({ creditNote }, clock, key) =>
      reverseCreditNote(admin, creditNote.id, { reason: "Wrong invoice" }, clock.now, { idempotencyKey: key }),
    resource: (made) => made.reversal.id,
    effect: ({ creditNote }) => count("credit_notes", eq(c.reversesCreditNoteId, creditNote.id)),
    totals: ({ invoice }) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "void invoice",
    action: "invoice.void",
    // Void takes no request key: a second void is refused (the invoice is void already).
    keyed: false,
    setup: (clock) => issuedInvoice(clock),
    call: (invoice, clock) => voidInvoice(admin, invoice.id, { reason: "Issued to the wrong client" }, clock.now),
    resource: (made) => made.invoice.id,
    effect: (invoice) =>
      count("invoices", and(eq(schema.invoices.id, invoice.id), eq(schema.invoices.paymentStatus, "void"))!),
    totals: (invoice) => invoiceTotals(invoice.id),
  }),
  writeCase({
    write: "create invoice for a delivery",
    action: "invoice.create",
    setup: async (clock) => {
      const clientId = (await createClient()).id;
      return createDelivery({ agentId, clientId, createdBy: admin.id, date: clock.day });
    },
    call: (delivery, clock, key) =>
      createInvoiceForDelivery(admin, { deliveryId: delivery.id }, { idempotencyKey: key, now: clock.now }),
    resource: (made) => made.invoice.id,
    effect: (delivery) => count("invoices", eq(schema.invoices.deliveryId, delivery.id)),
  }),
  writeCase({
    write: "create month invoices",
    action: "invoice.create",
    // One client's two deliveries: one invoice. What the other cases left uninvoiced in the month
    // is invoiced first, so the month holds only these.
    setup: async (clock) => {
      await createInvoicesForMonth(admin, clock.month, { now: clock.now });
      const clientId = (await createClient()).id;
      const one = await createDelivery({ agentId, clientId, createdBy: admin.id, date: clock.day });
      const two = await createDelivery({ agentId, clientId, createdBy: admin.id, date: `${clock.month}-02` });
      return [one.id, two.id];
    },
    call: (_deliveries, clock, key) =>
      createInvoicesForMonth(admin, clock.month, { idempotencyKey: key, now: clock.now }),
    resource: (made) => made.invoices.map((i) => i.id),
    effect: async (deliveries) => {
      const db = await getDb();
      const d = schema.deliveries;
      const [row] = await db
        .select({ n: sql<number>`count(distinct ${d.invoiceId})::int` })
        .from(d)
        .where(and(inArray(d.id, deliveries), isNotNull(d.invoiceId)));
      return row.n;
    },
  }),
  writeCase({
    write: "record agent payout",
    action: "agent_payout.create",
    setup: (clock) => owedAgent(clock),
    call: (agent, clock, key) =>
      recordAgentPayout(admin, agent, { amount: "120000.50", method: "cash", reference: "CASH-1" }, clock.now, {
        idempotencyKey: key,
      }),
    resource: (made) => made.payout.id,
    effect: (agent) => count("agent_payouts", and(eq(payouts.agentId, agent), isNull(payouts.reversesPayoutId))!),
    totals: (agent) => agentTotals(agent),
  }),
  writeCase({
    write: "reverse agent payout",
    action: "agent_payout.reverse",
    setup: async (clock) => {
      const agent = await owedAgent(clock);
      const input = { amount: "120000.50", method: "cash", payoutDate: clock.day };
      return { agent, payout: must(await recordAgentPayout(admin, agent, input, clock.now)).payout };
    },
    call: ({ agent, payout }, clock, key) =>
      reverseAgentPayout(admin, agent, payout.id, { reason: "Entered twice" }, clock.now, { idempotencyKey: key }),
    resource: (made) => made.reversal.id,
    effect: ({ payout }) => count("agent_payouts", eq(payouts.reversesPayoutId, payout.id)),
    totals: ({ agent }) => agentTotals(agent),
  }),
  writeCase({
    write: "create delivery",
    action: "delivery.create",
    setup: async () => ({ clientId: (await createClient()).id, location: `Keyed yard ${newKey("delivery")}` }),
    call: ({ clientId, location }, clock, key) =>
      recordDelivery(admin, { agentId, clientId, tons: "12.50", location }, { idempotencyKey: key, now: clock.now }),
    resource: (made) => made.delivery.id,
    effect: ({ location }) => count("deliveries", eq(schema.deliveries.location, location)),
  }),
];

/** Whether the key has a row (a refused write must leave none: the retry is free to land). */
async function keyTaken(key: string) {
  const db = await getDb();
  const k = schema.idempotencyKeys;
  return (await db.select({ key: k.key }).from(k).where(eq(k.key, key))).length > 0;
}

for (const { write, action, keyed, prepare } of WRITES) {
  describe(write, () => {
    it(
      keyed === false
        ? "takes no request key: a second call is refused, one effect, one audit event"
        : "twice under one key: one effect, one audit event, the second replays what the first made",
      async () => {
        const prepared = await prepare(OPEN);
        const key = keyed === false ? undefined : newKey(write);
        const [rows, events, totals] = [await prepared.effect(), await auditEvents(action), await prepared.totals()];

        const first = await prepared.call(key);
        expect(first).toMatchObject({ ok: true });
        if (keyed !== false) expect(first).toMatchObject({ replayed: false });
        const [rowsAfter, eventsAfter, totalsAfter] = [
          await prepared.effect(),
          await auditEvents(action),
          await prepared.totals(),
        ];
        expect(rowsAfter).toBe(rows + 1);
        expect(eventsAfter).toBe(events + 1);
        if (totals) expect(totalsAfter).not.toBe(totals);

        const second = await prepared.call(key);
        if (keyed === false) expect(second).toMatchObject({ ok: false, status: 409 });
        else {
          expect(second).toMatchObject({ ok: true, replayed: true });
          expect(prepared.resource(second)).toEqual(prepared.resource(first));
        }
        expect(await prepared.effect()).toBe(rowsAfter);
        expect(await auditEvents(action)).toBe(eventsAfter);
        expect(await prepared.totals()).toBe(totalsAfter);
      },
    );

    it("in a closed month: 409, nothing written, the key free for a retry once the month is reopened", async () => {
      const prepared = await prepare(CLOSED);
      const key = keyed === false ? undefined : newKey(write);
      const [rows, events, totals] = [await prepared.effect(), await auditEvents(action), await prepared.totals()];
      expect(await closeMonth(admin, { month: CLOSED.month })).toMatchObject({ ok: true });

      const refused = await prepared.call(key);
      expect(refused).toMatchObject({ ok: false, status: 409 });
      expect(refused.ok ? "" : refused.message).toMatch(new RegExp(`^${PERIOD_CLOSED_MESSAGE}`));
      expect(await prepared.effect()).toBe(rows);
      expect(await auditEvents(action)).toBe(events);
      expect(await prepared.totals()).toBe(totals);
      if (key) expect(await keyTaken(key)).toBe(false);

      const reason = "Late entry for the month";
      expect(await reopenMonth(admin, { month: CLOSED.month, reason })).toMatchObject({ ok: true });
      const retried = await prepared.call(key);
      expect(retried).toMatchObject({ ok: true });
      if (key) expect(retried).toMatchObject({ replayed: false });
      expect(await prepared.effect()).toBe(rows + 1);
      expect(await auditEvents(action)).toBe(events + 1);
    });
  });
}

// A month with more deliveries for one client than bind parameters allow: the
// batch invoices them in one transaction, its lines read from the deliveries themselves, and the
// audit events name a bounded summary of the deliveries, never every id.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema } from "../../app/db.server";
import { listAuditEvents, recordAudit } from "../../app/models/audit.server";
import { getInvoiceDetail } from "../../app/presenters/invoice-page.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { add, toFixed } from "../../app/utils/money";
import { testDriver } from "../db/template";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

// postgres.js refuses 65,534 or more parameters in one statement; at nine a line the old insert
// failed from 7,282 lines on.
const MANY = 8_000;
const MONTH = "2025-09";
// An invoice row's snapshot is about 1 KB; the ids of MANY deliveries would be about 50 KB.
const EVENT_BYTES = 4_000;

type Row = Record<string, unknown>;
let manager: Awaited<ReturnType<typeof createUser>>;
let kodan: number;
let other: number;
let agentId: number;

beforeAll(async () => {
  const db = await getDb();
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
  kodan = (await createClient({ name: "Kodan Scale", taxRate: "7.50" })).id;
  other = (await createClient({ name: "Another Scale", taxRate: "0" })).id;
  // Bulk, through the triggers (the kept totals stay right for the batch's own updates).
  await db.execute(sql`
    insert into deliveries (date, agent_id, client_id, tons, location, truck_no, status, created_by, buying_rate, selling_rate)
    select date '2025-09-01' + (g % 30), ${agentId}, ${kodan}, (1 + g % 3)::numeric + 0.25, 'Yard ' || (g % 40),
           'T-' || g, 'confirmed', ${manager.id}::uuid, 4000, 5000.5
    from generate_series(1, ${MANY}) g`);
  for (const date of ["2025-09-02", "2025-09-20", "2025-09-30"])
    await createDelivery({ agentId, clientId: other, createdBy: manager.id, date });
}, 600_000);

const eventBytes = (value: unknown) => JSON.stringify(value).length;

/** The kept delivery totals, zero rows left out (a recount has none), numerics normalised. */
async function deliveryTotals() {
  const db = await getDb();
  const out: string[] = [];
  for (const table of ["delivery_day_totals", "delivery_month_totals"]) {
    for (const row of rowsOf<Row>(await db.execute(sql.raw(`select * from ${table}`)))) {
      if (row.n_all === 0 && !row.invoice_count) continue;
      out.push(
        `${table} ${JSON.stringify(Object.values(row).map((v) => (typeof v === "string" && /^-?\d+\.\d+$/.test(v) ? String(Number(v)) : String(v))))}`,
      );
    }
  }
  return out.sort();
}

describe("the kept delivery totals", () => {
  it("are written once per month by a statement over thousands of deliveries, not once per delivery", async () => {
    const db = await getDb();
    let written: Row | undefined;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`update deliveries set selling_rate = selling_rate + 1 where client_id = ${kodan}`);
        [written] = rowsOf<Row>(
          await tx.execute(sql`select (n_tup_ins + n_tup_upd)::int as writes from pg_stat_xact_user_tables
            where relname = 'delivery_month_totals'`),
        );
        throw new Error("rollback");
      })
      .catch((error: Error) => {
        if (error.message !== "rollback") throw error;
      });
    // One write of the month's row (a row trigger wrote it twice per delivery: 16,000 versions of
    // one row in one transaction, each write walking the ones before it). The count may include
    // this connection's earlier writes not yet reported (the few factory inserts above).
    expect(written?.writes).toBeLessThan(100);
  }, 600_000);
});

describe("a month with more deliveries than bind parameters allow", () => {
  it("invoices in one batch: one line per delivery, the amount their sum, a bounded event", async () => {
    const made = await createInvoicesForMonth(manager, MONTH);
    if (!made.ok) throw new Error(made.message);
    expect(made.invoices.map((i) => i.clientId)).toEqual([other, kodan]);
    const db = await getDb();
    for (const invoice of made.invoices) {
      const [counted] = rowsOf<Row>(
        await db.execute(sql`
          select (select count(*)::int from deliveries where invoice_id = ${invoice.id}) as deliveries,
                 (select count(*)::int from invoice_lines where invoice_id = ${invoice.id}) as lines,
                 (select count(*)::int from invoice_lines l join deliveries d on d.id = l.delivery_id
                   where l.invoice_id = ${invoice.id} and d.invoice_id = ${invoice.id} and l.date = d.date
                     and l.tons = d.tons and l.selling_rate is not distinct from d.selling_rate
                     and l.location = d.location and l.truck_no is not distinct from d.truck_no
                     and l.amount = d.tons * d.selling_rate) as matching,
                 (select min(id)::int from deliveries where invoice_id = ${invoice.id}) as first,
                 (select max(id)::int from deliveries where invoice_id = ${invoice.id}) as last,
                 (select sum(amount)::text from invoice_lines where invoice_id = ${invoice.id}) as total`),
      );
      const expected = invoice.clientId === kodan ? MANY : 3;
      expect(counted).toMatchObject({ deliveries: expected, lines: expected, matching: expected });
      expect(invoice.amount).toBe(toFixed(add(String(counted.total))));
      const [event] = await db
        .select()
        .from(schema.auditEvents)
        .where(
          sql`${schema.auditEvents.entityType} = 'invoice' and ${schema.auditEvents.entityId} = ${String(invoice.id)}`,
        );
      expect(event.action).toBe("invoice.create");
      expect(event.after).toMatchObject({
        invoiceNo: invoice.invoiceNo,
        deliveryCount: expected,
        firstDeliveryId: counted.first,
        lastDeliveryId: counted.last,
      });
      expect(event.after).not.toHaveProperty("deliveryIds");
      expect(eventBytes(event.after)).toBeLessThan(EVENT_BYTES);
    }
    const [agentName] = rowsOf<Row>(
      await db.execute(sql`select count(*)::int as n from invoice_lines l join agents a on a.name = l.agent_name
        where a.id = ${agentId}`),
    );
    expect(agentName.n).toBe(MANY + 3);
    const kept = await deliveryTotals();
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(kept).toEqual(await deliveryTotals());
  }, 600_000);

  it("a void of it records a bounded summary, and the page's history stays small", async () => {
    const db = await getDb();
    const [invoice] = await db
      .select()
      .from(schema.invoices)
      .where(sql`${schema.invoices.clientId} = ${kodan}`);
    const voided = await voidInvoice(manager, invoice.id, { reason: "Billed twice" });
    if (!voided.ok) throw new Error(voided.message);
    expect(voided.freedDeliveries).toMatchObject({ count: MANY });
    const [event] = await db
      .select()
      .from(schema.auditEvents)
      .where(
        sql`${schema.auditEvents.action} = 'invoice.void' and ${schema.auditEvents.entityId} = ${String(invoice.id)}`,
      );
    expect(event.after).toMatchObject({ freedDeliveryCount: MANY, paymentStatus: "void" });
    expect(event.after).not.toHaveProperty("freedDeliveryIds");
    expect(eventBytes(event.after)).toBeLessThan(EVENT_BYTES);
    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(detail?.history.map((e) => e.action)).toEqual(["invoice.void", "invoice.create"]);
    expect(eventBytes(detail?.history)).toBeLessThan(4 * EVENT_BYTES);
    const kept = await deliveryTotals();
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(kept).toEqual(await deliveryTotals());
  }, 600_000);
});

describe("events written before the summary", () => {
  it("show a count and the first and last ids, not every id, on the page and in the trail", async () => {
    const db = await getDb();
    const ids = Array.from({ length: MANY }, (_, i) => 5_000_000 - i);
    const [invoice] = await db
      .select()
      .from(schema.invoices)
      .where(sql`${schema.invoices.clientId} = ${other}`);
    // As invoice.create and invoice.void events were once written (every delivery id).
    await db.transaction(async (tx) => {
      await recordAudit(tx, {
        actor: manager,
        action: "invoice.create",
        entityType: "invoice",
        entityId: invoice.id,
        after: { invoiceNo: invoice.invoiceNo, amount: invoice.amount, deliveryIds: ids },
      });
      await recordAudit(tx, {
        actor: manager,
        action: "invoice.void",
        entityType: "invoice",
        entityId: invoice.id,
        before: { paymentStatus: "pending" },
        after: { paymentStatus: "void", freedDeliveryIds: ids },
      });
    });
    const { events } = await listAuditEvents(manager, { entityType: "invoice", entityId: String(invoice.id) });
    const [voidEvent, createEvent] = events;
    expect(voidEvent.after).toMatchObject({
      freedDeliveryCount: MANY,
      firstFreedDeliveryId: 5_000_000 - MANY + 1,
      lastFreedDeliveryId: 5_000_000,
    });
    expect(createEvent.after).toMatchObject({
      deliveryCount: MANY,
      firstDeliveryId: 5_000_000 - MANY + 1,
      lastDeliveryId: 5_000_000,
    });
    for (const event of [voidEvent, createEvent]) {
      expect(eventBytes(event)).toBeLessThan(EVENT_BYTES);
      expect(event.after).not.toHaveProperty("deliveryIds");
      expect(event.after).not.toHaveProperty("freedDeliveryIds");
    }
    const detail = await getInvoiceDetail(manager, invoice.id);
    expect(eventBytes(detail?.history)).toBeLessThan(4 * EVENT_BYTES);
  });
});

describe.runIf(testDriver() === "postgres")("the totals' lock order (review of migration 0029)", () => {
  it("a delivery moved within its month locks the month's row before its days, like every writer", async () => {
    const db = await getDb();
    const draft = await createDelivery({ agentId, createdBy: manager.id, date: "2024-03-03", status: "draft" });
    let monthLocked = "not tried";
    await db.transaction(async (tx) => {
      await tx.execute(sql`update deliveries set date = '2024-03-05' where id = ${draft.id}`);
      // Another connection asks for the month row without waiting: taken means locked here.
      monthLocked = await db
        .execute(sql`select 1 from delivery_month_totals where month = '2024-03-01' for update nowait`)
        .then(
          () => "free",
          () => "locked",
        );
    });
    expect(monthLocked).toBe("locked");
  });
});

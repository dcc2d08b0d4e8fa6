// Filters that read (decisions 0500, 0502) more than their own rows. Each case counts, with
// EXPLAIN ANALYZE, the rows a page or a total reads from its table (rows returned plus rows a
// filter threw away), on data where nearly everything belongs to one client (Kodan), ids grow
// with dates, and the audit trail is 20,000 events long. Counts, not times.
import { sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "../../app/db.server";
import { auditPageQuery } from "../../app/models/audit.server";
import { deleteAgent } from "../../app/models/agent.server";
import { deleteClient } from "../../app/models/client.server";
import {
  listPayments,
  paymentPageQuery,
  paymentTotals,
  paymentTotalsQuery,
} from "../../app/presenters/payments.server";
import { invoicePageQuery } from "../../app/presenters/invoice-list.server";
import { deliveryRowsQuery } from "../../app/models/delivery.server";
import { dayIn } from "../../app/utils/dates";
import type { PageRequest } from "../../app/utils/params";
import { createAgent, createClient, createUser } from "../factories";

const ROWS = 20_000;
const EVENTS = 20_000;
const FIRST: PageRequest = { cursor: null, direction: "older" };
const today = "2026-06-01";
const READER = { id: "00000000-0000-4000-8000-000000000000", role: "admin" } as const;
let kodan: number;
let small: number;
let agentId: number;

type Row = Record<string, unknown>;
type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

/** Rows the query reads from `table` (returned by its scans plus thrown away by their filters), and the indexes it uses. */
async function reads(query: SQLWrapper, table: string) {
  const db = await getDb();
  const [row] = rowsOf<Row>(await db.execute(sql`explain (analyze, format json) ${query}`));
  const value = Object.values(row)[0];
  const [{ Plan }] = (typeof value === "string" ? JSON.parse(value) : value) as { Plan: PlanNode }[];
  let rows = 0;
  const indexes: string[] = [];
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === table) {
      const seen =
        Number(node["Actual Rows"] ?? 0) +
        Number(node["Rows Removed by Filter"] ?? 0) +
        Number(node["Rows Removed by Index Recheck"] ?? 0);
      rows += seen * Number(node["Actual Loops"] ?? 1);
    }
    if (typeof node["Index Name"] === "string") indexes.push(node["Index Name"]);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(Plan);
  return { rows, indexes, plan: JSON.stringify(Plan, null, 1) };
}

beforeAll(async () => {
  const db = await getDb();
  const user = await createUser({ role: "manager" });
  agentId = (await createAgent({ name: "Scale Agent Kodan" })).id;
  kodan = (await createClient({ name: "Kodan" })).id;
  small = (await createClient({ name: "Small Client" })).id;
  // Bulk load with the totals triggers off (as the bench does), then one recount. Dates grow
  // with ids, 14 deliveries a day from 2020; 95% for Kodan; 90% invoiced, due 30 days on; the
  // paid ones paid with reference TRF-<invoice id>.
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
      select date '2020-01-01' + g / 14, ${agentId}, case when g % 20 = 0 then ${small}::int else ${kodan}::int end,
             (10 + g % 30)::numeric, 'Yard ' || (g % 40), 'confirmed', ${user.id}::uuid, 52000, 65000
      from generate_series(1, ${ROWS}) g`);
    await tx.execute(sql`
      insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit, expected_payment_date, payment_status, amount_paid, created_at, issue_date)
      select (200000 + d.id)::text, d.id, d.client_id, d.tons * 65000, 0, d.tons * 13000, d.date + 30,
             case when d.id % 10 < 7 then 'paid' else 'pending' end,
             case when d.id % 10 < 7 then d.tons * 65000 else 0 end,
             d.date::timestamptz, d.date
      from deliveries d where d.id % 10 <> 0 order by d.id`);
    await tx.execute(
      sql`update deliveries set status = 'invoiced', invoice_id = i.id from invoices i where i.delivery_id = deliveries.id`,
    );
    await tx.execute(sql`
      insert into payments (invoice_id, amount, payment_date, reference)
      select id, amount_paid, expected_payment_date - 5, 'TRF-' || id from invoices where amount_paid > 0 order by id`);
    // The trail: an event every 30 minutes from 2024 (ids and times grow together); an entity id
    // shared by events of several types; a few events by a rarely seen e-mail.
    await tx.execute(sql`
      insert into audit_events (time, actor_email, action, entity_type, entity_id, after)
      select timestamptz '2024-01-01 00:00:00Z' + g * interval '30 minutes',
             case when g % 1000 = 0 then 'rare@example.test' else 'busy' || (g % 5) || '@example.test' end,
             case when g % 2 = 0 then 'delivery.update' else 'invoice.create' end,
             case when g % 2 = 0 then 'delivery' else 'invoice' end,
             (g % 4000)::text, '{}'::jsonb
      from generate_series(1, ${EVENTS}) g`);
    await tx.execute(sql`select pks_rebuild_totals()`);
  });
  await db.execute(sql`analyze`);
}, 300_000);

describe("the audit trail's filters read their own events", () => {
  const db = getDb;
  it("an actor's e-mail and an entity id without its type, through their (x, id) indexes", async () => {
    const byEmail = await reads(auditPageQuery(await db(), { actor: "RARE@example.test" }, FIRST, 50), "audit_events");
    expect(byEmail.indexes, byEmail.plan).toContain("audit_events_actor_email_idx");
    expect(byEmail.rows, byEmail.plan).toBeLessThanOrEqual(EVENTS / 1000 + 1);
    const byId = await reads(auditPageQuery(await db(), { entityId: "1234" }, FIRST, 50), "audit_events");
    expect(byId.indexes, byId.plan).toContain("audit_events_entity_id_idx");
    expect(byId.rows, byId.plan).toBeLessThanOrEqual(EVENTS / 4000 + 1);
  });

  it("a date range far from the newest events reads about one page, first and deep, and exactly its events", async () => {
    // 2024-01-02 to 2024-10-31: about 14,500 events, and 5,500 newer ones after them.
    const range = { from: "2024-01-02", to: "2024-10-31" };
    const first = await reads(auditPageQuery(await db(), range, FIRST, 50), "audit_events");
    // A page of 51, the events of the hour either side of the range, and the two probes.
    expect(first.rows, first.plan).toBeLessThan(100);
    const deep: PageRequest = { cursor: { key: null, id: 1000 }, direction: "older" };
    const last = await reads(auditPageQuery(await db(), range, deep, 50), "audit_events");
    expect(last.rows, last.plan).toBeLessThan(100);
    // With a filter of its own, too.
    const withAction = await reads(
      auditPageQuery(await db(), { ...range, action: "invoice.create" }, FIRST, 50),
      "audit_events",
    );
    expect(withAction.rows, withAction.plan).toBeLessThan(200);
    // Exactly the range's events, newest first, at its edges.
    const rows = await auditPageQuery(await db(), { from: "2024-01-02", to: "2024-01-02" }, FIRST, 100);
    // 48 events a day, every 30 minutes; the day is Lagos's (decision 0900), 23:00 UTC to 23:00 UTC.
    expect(rows.map((r) => dayIn("Africa/Lagos", r.time))).toEqual(Array(48).fill("2024-01-02"));
    expect(rows[0].id).toBeGreaterThan(rows[47].id);
    const [{ before, within, after }] = rowsOf<Row>(
      await (
        await db()
      ).execute(sql`select
        count(*) filter (where time < '2024-01-01T23:00Z')::int as before,
        count(*) filter (where time >= '2024-01-01T23:00Z' and time < '2024-01-02T23:00Z')::int as within,
        count(*) filter (where time >= '2024-01-02T23:00Z')::int as after from audit_events`),
    );
    expect(within).toBe(48);
    expect(Number(before) + Number(within) + Number(after)).toBe(EVENTS);
  });
});

describe("the invoices' due-date range", () => {
  it("reads the range's invoices, not every newer one", async () => {
    const db = await getDb();
    const [{ n }] = rowsOf<{ n: number }>(
      await db.execute(
        sql`select count(*)::int as n from invoices where expected_payment_date between '2021-01-01' and '2021-01-31'`,
      ),
    );
    for (const filters of [
      { from: "2021-01-01", to: "2021-01-31" },
      { from: "2021-01-01", to: "2021-01-31", clientId: kodan },
    ]) {
      const page = await reads(invoicePageQuery(db, filters, FIRST, 50, today), "invoices");
      expect(page.indexes, page.plan).toContain("invoices_due_id_idx");
      expect(page.rows, page.plan).toBeLessThanOrEqual(n + 1);
    }
  });
});

describe("the profit report's drill-down on the deliveries list (decision 1270)", () => {
  it("reads a page of a small client's or one site's deliveries in a period through their indexes", async () => {
    const db = await getDb();
    const cases = [
      [{ from: "2021-01-01", to: "2022-12-31", clientId: small }, "deliveries_client_date_idx"],
      [{ from: "2021-01-01", to: "2022-12-31", site: "Yard 7" }, "deliveries_location_date_idx"],
    ] as const;
    for (const [filters, index] of cases) {
      const page = await reads(deliveryRowsQuery(db, READER, { ...filters, agentId: undefined }, FIRST), "deliveries");
      expect(page.indexes, page.plan).toContain(index);
      expect(page.rows, page.plan).toBeLessThanOrEqual(51);
    }
  });
});

describe("the payments' reference search", () => {
  it("is a case-insensitive prefix, answered by its index for the page and the totals", async () => {
    const db = await getDb();
    const [{ id }] = rowsOf<{ id: number }>(
      await db.execute(sql`select max(invoice_id)::int as id from payments where invoice_id < 2000`),
    );
    const reference = `trf-${id}`;
    const page = await listPayments(READER, { reference });
    const expected = rowsOf<{ id: number }>(
      await db.execute(
        sql`select id from payments where reference like ${`TRF-${id}%`} order by payment_date desc, id desc`,
      ),
    ).map((r) => r.id);
    expect(page.items.map((p) => p.id)).toEqual(expected);
    expect((await paymentTotals(READER, { reference })).count).toBe(expected.length);
    // The start of the reference only: a piece from its middle matches nothing.
    expect((await listPayments(READER, { reference: String(id) })).items).toEqual([]);
    for (const [label, query] of [
      ["page", paymentPageQuery(db, { reference }, FIRST, 50)],
      ["totals", paymentTotalsQuery(db, { reference })],
      ["totals of a month", paymentTotalsQuery(db, { reference, from: "2021-01-01", to: "2021-01-31" })],
    ] as const) {
      const read = await reads(query, "payments");
      expect(read.indexes, `${label}\n${read.plan}`).toContain("payments_reference_prefix_idx");
      expect(read.rows, `${label}\n${read.plan}`).toBeLessThanOrEqual(expected.length + 1);
    }
  });
});

describe("deleting a client or an agent with a million deliveries", () => {
  it("is refused after counting at most a hundred and one of each", async () => {
    const admin = await createUser({ role: "admin" });
    expect(await deleteClient(admin, kodan)).toMatchObject({
      ok: false,
      status: 409,
      message: 'Cannot delete "Kodan": more than 100 deliveries and more than 100 invoices refer to this client.',
    });
    expect(await deleteAgent(admin, agentId)).toMatchObject({
      ok: false,
      status: 409,
      message: 'Cannot delete "Scale Agent Kodan": more than 100 deliveries refer to this agent.',
    });
  });
});

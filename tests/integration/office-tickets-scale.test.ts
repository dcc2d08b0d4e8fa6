// The Deliveries page with weights and tickets at 100,000 deliveries (docs/decisions/1220): its
// rows still read the list's indexes and the delivery row (their weights are the delivery's own
// columns), and which tickets a row has is a lookup in the tickets' (delivery, kind) index, never
// a scan of the tickets. On PGlite and PostgreSQL.
import { sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "../../app/db.server";
import { deliveryRowsQuery, listDeliveryRows } from "../../app/models/delivery.server";
import type { PageRequest } from "../../app/utils/params";
import { createAgent, createClient, createUser } from "../factories";

const ROWS = 100_000;
let staff: { id: string; role: "staff" };
let agentId: number;

async function plan(query: SQLWrapper) {
  const db = await getDb();
  return rowsOf<Record<string, unknown>>(await db.execute(sql`explain ${query}`))
    .map((r) => String(Object.values(r)[0]))
    .join("\n");
}

beforeAll(async () => {
  const db = await getDb();
  const manager = await createUser({ role: "manager" });
  staff = { id: (await createUser({ role: "staff" })).id, role: "staff" };
  agentId = (await createAgent()).id;
  const client = await createClient({ name: "Scale Weighbridge Client" });
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into deliveries (date, agent_id, client_id, tons, received_tons, quality_deduction_tons, location, status,
                              created_by, buying_rate, selling_rate)
      select date '2020-01-01' + (g % 1500), ${agentId}, ${client.id}, (10 + g % 30)::numeric,
             case when g % 7 = 0 then (10 + g % 30)::numeric - 0.125 end,
             case when g % 7 = 0 then 0.05 end,
             'Yard ' || (g % 40), case when g % 10 = 0 then 'draft' else 'confirmed' end,
             case when g % 10 = 0 then ${staff.id}::uuid else ${manager.id}::uuid end, 52000, 65000
      from generate_series(1, ${ROWS}) g`);
    await tx.execute(
      sql`insert into trucks (plate, plate_key, created_by) values ('SCL 1', 'SCL1', ${manager.id}::uuid)`,
    );
    // A received ticket on every seventh delivery, as its received tons say.
    await tx.execute(sql`
      insert into delivery_tickets (delivery_id, kind, ticket_no, weighbridge, truck_id, gross_kg, tare_kg, created_by)
      select d.id, 'received', 'S-' || d.id, 'client:' || d.client_id, (select id from trucks limit 1),
             (d.received_tons * 1000)::int + 12000, 12000, ${manager.id}::uuid
      from deliveries d where d.received_tons is not null`);
    await tx.execute(sql`select pks_rebuild_totals()`);
  });
  await db.execute(sql`analyze`);
}, 600_000);

describe("the Deliveries page's rows at 100,000 deliveries", () => {
  it("read the list's index and the delivery row, and the tickets only by their index, for every role and filter", async () => {
    const db = await getDb();
    const admin = { id: "00000000-0000-4000-8000-000000000000", role: "admin" as const };
    const none = { from: undefined, to: undefined, agentId: undefined };
    const first: PageRequest = { cursor: null, direction: "older" };
    const deep: PageRequest = { cursor: { key: "2021-06-01", id: 40_000 }, direction: "older" };
    const newer: PageRequest = { cursor: { key: "2021-06-01", id: 40_000 }, direction: "newer" };
    const cases = [
      ["admin, first page", admin, none, first],
      ["admin, deep", admin, none, deep],
      ["admin, newer", admin, none, newer],
      ["admin, a month", admin, { ...none, from: "2022-03-01", to: "2022-03-31" }, first],
      ["admin, drafts", admin, { ...none, status: "draft" as const }, first],
      ["admin, one agent", admin, { ...none, agentId }, deep],
      ["staff, first page", staff, none, first],
      ["staff, deep", staff, none, deep],
    ] as const;
    for (const [label, viewer, filters, page] of cases) {
      const text = await plan(deliveryRowsQuery(db, viewer, filters, page));
      expect(text, `${label}\n${text}`).not.toMatch(/Seq Scan on deliveries\b/);
      expect(text, `${label}\n${text}`).not.toMatch(/Seq Scan on delivery_tickets/);
      expect(text, `${label}\n${text}`).toMatch(/delivery_tickets_delivery_kind_unique/);
      expect(text, `${label}\n${text}`).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
    }
    const { items } = await listDeliveryRows(admin, none);
    expect(items).toHaveLength(50);
    const weighed = items.filter((r) => r.receivedTons !== null);
    expect(weighed.length).toBeGreaterThan(0);
    for (const row of weighed) expect(row.ticketKinds).toEqual(["received"]);
    for (const row of items.filter((r) => r.receivedTons === null)) expect(row.ticketKinds).toEqual([]);
  });
});

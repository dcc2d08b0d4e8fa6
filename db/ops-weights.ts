// The weighbridge invariants `db:check` adds (docs/decisions/1220): a delivery's weights are its
// tickets' nets, its deduction is what its snapshotted rule takes off its received kilograms
// (rounded half away from zero to the kilogram, as app/rules/weights.ts does), and an invoice line
// holds the invoiced tons of the delivery it covers.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./client.server";

type Breach = { check: string; detail: string };
type Row = Record<string, unknown>;

const CHECKS: { check: string; query: ReturnType<typeof sql>; detail: (r: Row) => string }[] = [
  {
    check: "a delivery's loaded tons are its loading ticket's net",
    query: sql`select d.id, d.tons::text as tons, t.net_kg from deliveries d
      join delivery_tickets t on t.delivery_id = d.id and t.kind = 'loading'
      where d.tons * 1000 <> t.net_kg order by d.id limit 20`,
    detail: (r) => `delivery ${r.id}: tons ${r.tons}, loading ticket net ${r.net_kg} kg`,
  },
  {
    check: "a delivery's received tons and moisture are its client's ticket's",
    query: sql`select d.id, d.received_tons::text as received, t.net_kg, d.moisture::text as moisture,
        t.moisture::text as ticket_moisture
      from deliveries d
        full join (select * from delivery_tickets where kind = 'received') t on t.delivery_id = d.id
      where (t.id is null and d.received_tons is not null) or (t.id is not null and (d.id is null
        or d.received_tons is null or d.received_tons * 1000 <> t.net_kg or d.moisture is distinct from t.moisture))
      order by d.id limit 20`,
    detail: (r) =>
      `delivery ${r.id ?? "none"}: received ${r.received ?? "none"} t, moisture ${r.moisture ?? "none"}; ticket net ${r.net_kg ?? "none"} kg, moisture ${r.ticket_moisture ?? "none"}`,
  },
  {
    check: "a delivery's quality deduction is its rule's share of its received weight",
    query: sql`select d.id, d.quality_deduction_tons::text as kept, x.recount::text as recount
      from deliveries d left join client_quality_rules r on r.id = d.quality_rule_id
      cross join lateral (select case when r.id is null then 0
        else round(d.received_tons * 1000 * least(greatest(d.moisture - r.moisture_threshold, 0) * r.deduction_per_point, 100) / 100) / 1000
        end as recount) x
      where d.received_tons is not null and d.quality_deduction_tons is distinct from x.recount
      order by d.id limit 20`,
    detail: (r) => `delivery ${r.id}: deduction ${r.kept} t, rule gives ${r.recount} t`,
  },
  {
    check: "an invoice line holds its delivery's invoiced tons",
    query: sql`select i.invoice_no, d.id, l.tons::text as line, d.invoiced_tons::text as invoiced
      from invoice_lines l join invoices i on i.id = l.invoice_id
      join deliveries d on d.id = l.delivery_id and d.invoice_id = l.invoice_id
      where l.tons <> d.invoiced_tons or l.received_tons is distinct from d.received_tons
        or l.quality_deduction_tons is distinct from d.quality_deduction_tons
      order by i.id, d.id limit 20`,
    detail: (r) => `invoice ${r.invoice_no}, delivery ${r.id}: line ${r.line} t, delivery ${r.invoiced} t`,
  },
];

export async function checkWeights(db: Db, breaches: Breach[]) {
  for (const { check, query, detail } of CHECKS) {
    for (const r of rowsOf<Row>(await db.execute(query)) ?? []) breaches.push({ check, detail: detail(r) });
  }
}

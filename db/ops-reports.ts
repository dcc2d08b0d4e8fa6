// The profit report's kept totals against a recount from the deliveries (docs/decisions/1270):
// `db:check` runs it; a row of zeros left by deleted deliveries is no breach.
import { sql } from "drizzle-orm";
import { rowsOf, type Db } from "./client.server";

type Breach = { check: string; detail: string };
type Row = Record<string, unknown>;

const FIGURES = [
  "n",
  "n_priced",
  "n_received",
  "loaded_tons",
  "received_tons",
  "accepted_tons",
  "shortage_tons",
  "deduction_tons",
  "revenue",
  "buying_cost",
  "haulage",
  "other_costs",
];

export async function checkProfitTotals(db: Db, breaches: Breach[]) {
  const differs = sql.raw(FIGURES.map((f) => `coalesce(k.${f}, 0) <> coalesce(r.${f}, 0)`).join(" or "));
  const found = rowsOf<Row>(
    await db.execute(sql`
      select coalesce(k.month, r.month)::text as month, coalesce(k.kind, r.kind) as kind,
        coalesce(k.agent_id, r.agent_id) as agent_id, coalesce(k.client_id, r.client_id) as client_id,
        coalesce(k.site, r.site) as site, coalesce(k.n, 0) as kept_n, coalesce(r.n, 0) as n,
        coalesce(k.revenue, 0)::text as kept_revenue, coalesce(r.revenue, 0)::text as revenue,
        coalesce(k.loaded_tons, 0)::text as kept_tons, coalesce(r.loaded_tons, 0)::text as tons
      from profit_month_totals k full join pks_profit_totals_recount() r on r.month = k.month and r.kind = k.kind
        and r.agent_id is not distinct from k.agent_id and r.client_id is not distinct from k.client_id
        and r.site is not distinct from k.site
      where ${differs}
      order by 1, 2 limit 20`),
  );
  for (const r of found ?? [])
    breaches.push({
      check: "profit report totals equal their deliveries",
      detail: `${String(r.month).slice(0, 7)} ${r.kind} ${r.agent_id ?? r.client_id ?? r.site ?? "none"}: kept ${r.kept_n} deliveries, ${r.kept_tons} t, revenue ${r.kept_revenue}; recount ${r.n}, ${r.tons} t, revenue ${r.revenue}`,
    });
}

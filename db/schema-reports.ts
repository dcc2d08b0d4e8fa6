// The profit and tonnage report's kept totals (docs/decisions/1270), beside db/schema.ts, which
// re-exports them. One row per month and one agent, one client (or none) or one pick-up site:
// the report groups by one of them at a time, so three small rows per delivery's month keep every
// grouping, and a year's report reads at most twelve months of rows, however many deliveries.
import { sql } from "drizzle-orm";
import { check, date, integer, numeric, pgTable, text, unique } from "drizzle-orm/pg-core";

export const PROFIT_TOTAL_KINDS = ["agent", "client", "site"] as const;
export type ProfitTotalKind = (typeof PROFIT_TOTAL_KINDS)[number];

const sum = (name: string) => numeric(name).notNull().default("0");

// Kept by statement triggers on deliveries in the writing transaction (db/functions/
// pks_profit_totals_apply.sql); `pks_rebuild_profit_totals()` recounts them and db:check compares.
// Counted deliveries only (confirmed or invoiced). Money sums are of the deliveries with a
// selling rate, as the dashboard's profit is; tons of every counted delivery.
export const profitMonthTotals = pgTable(
  "profit_month_totals",
  {
    // First day of the month.
    month: date("month").notNull(),
    kind: text("kind", { enum: PROFIT_TOTAL_KINDS }).notNull(),
    // Exactly the one named by `kind` is set (a client row may be null: deliveries without a client).
    // No foreign keys: a row of zeros stays after its deliveries are deleted, and must not stop
    // its agent or client being deleted then.
    agentId: integer("agent_id"),
    clientId: integer("client_id"),
    site: text("site"),
    n: integer("n").notNull().default(0),
    nPriced: integer("n_priced").notNull().default(0),
    nReceived: integer("n_received").notNull().default(0),
    loadedTons: sum("loaded_tons"),
    receivedTons: sum("received_tons"),
    acceptedTons: sum("accepted_tons"),
    shortageTons: sum("shortage_tons"),
    deductionTons: sum("deduction_tons"),
    revenue: sum("revenue"),
    buyingCost: sum("buying_cost"),
    haulage: sum("haulage"),
    otherCosts: sum("other_costs"),
  },
  (t) => [
    unique("profit_month_totals_key").on(t.month, t.kind, t.agentId, t.clientId, t.site).nullsNotDistinct(),
    check("profit_month_totals_kind", sql`${t.kind} in ('agent','client','site')`),
    check(
      "profit_month_totals_one_key",
      sql`(${t.kind} = 'agent' and ${t.agentId} is not null and ${t.clientId} is null and ${t.site} is null)
        or (${t.kind} = 'client' and ${t.agentId} is null and ${t.site} is null)
        or (${t.kind} = 'site' and ${t.site} is not null and ${t.agentId} is null and ${t.clientId} is null)`,
    ),
  ],
);

// Rate cards (docs/decisions/1230), beside db/schema.ts, which re-exports them. A card prices one
// kind of money on a delivery (buying, selling, offloading, haulage per ton) from its date, for
// every delivery or only those of a client, an agent and/or a pick-up site. Never changed: a new
// card from a date replaces the old one from then on; one no delivery has used may be deleted.
import { sql } from "drizzle-orm";
import { check, date, index, integer, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { agents, clients, users } from "./schema";

export const RATE_KINDS = ["buying", "selling", "offloading", "haulage"] as const;
export type RateKind = (typeof RATE_KINDS)[number];

export const rateCards = pgTable(
  "rate_cards",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: RATE_KINDS }).notNull(),
    // Naira: per ton for buying, selling and haulage; per delivery for offloading, as System
    // Settings' offloading cost is.
    rate: numeric("rate", { precision: 12, scale: 2 }).notNull(),
    validFrom: date("valid_from").notNull(),
    clientId: integer("client_id").references(() => clients.id, { onDelete: "restrict" }),
    agentId: integer("agent_id").references(() => agents.id, { onDelete: "restrict" }),
    // The pick-up site as typed (trimmed), and the key a delivery's location is matched on:
    // lower case, without spaces (app/rules/rate-cards.ts, `siteKey`).
    site: text("site"),
    siteKey: text("site_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
  },
  (t) => [
    // The resolution's probe, one per scope: kind, the scope's three columns (a value or null)
    // and the latest valid_from on or before the delivery's day: one row, no sort.
    index("rate_cards_scope_idx").on(t.kind, t.clientId, t.agentId, t.siteKey, t.validFrom.desc().nullsFirst()),
    // A client's and an agent's page list their cards; a client or agent delete checks them.
    index("rate_cards_client_idx")
      .on(t.clientId, t.validFrom.desc().nullsFirst())
      .where(sql`${t.clientId} is not null`),
    index("rate_cards_agent_idx")
      .on(t.agentId, t.validFrom.desc().nullsFirst())
      .where(sql`${t.agentId} is not null`),
    // The tie check on create: the cards of a kind starting on one day.
    index("rate_cards_kind_day_idx").on(t.kind, t.validFrom),
    check("rate_cards_kind_check", sql`${t.kind} in ('buying','selling','offloading','haulage')`),
    check("rate_cards_rate_range", sql`${t.rate} >= 0`),
    check("rate_cards_valid_from_min", sql`${t.validFrom} >= '2000-01-01'`),
    check("rate_cards_site_pair", sql`(${t.site} is null) = (${t.siteKey} is null)`),
    check("rate_cards_site_key_shape", sql`${t.siteKey} is null or (${t.siteKey} <> '' and ${t.siteKey} !~ '\\s')`),
  ],
);

export type RateCard = typeof rateCards.$inferSelect;

// What is owed to every agent (docs/decisions/0980), newest activity first: one row per agent
// from agent_balances, kept by triggers in the same transaction as every delivery and payout
// write (migration 0008), so the list never reads a delivery.
import { eq, sql } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";

export const AGENT_BALANCES_PAGE_SIZE = 50;

export type AgentBalanceView = {
  agentId: number;
  name: string;
  deliveries: number;
  payouts: number;
  earned: string;
  paid: string;
  /** Earned − paid: below zero, an advance outstanding (docs/decisions/1250). */
  owed: string;
  /** What is below zero of `owed`: advanced and not yet recovered by deliveries. */
  advanceOutstanding: string;
  lastActivity: string;
};

const b = schema.agentBalances;
const BALANCE_KEYSET = { key: b.lastActivity, id: b.agentId };

/** One page of agents by latest activity, through agent_balances_activity_idx. */
export async function listAgentBalances(
  actor: Actor,
  { limit = AGENT_BALANCES_PAGE_SIZE, page }: { limit?: number; page: PageRequest },
): Promise<Page<AgentBalanceView>> {
  assertCan(actor, "agent.settle", "agents/owed");
  const db = await getDb();
  const rows = await db
    .select({
      agentId: b.agentId,
      name: schema.agents.name,
      deliveries: b.nDeliveries,
      payouts: b.nPayouts,
      earned: sql<string>`round(${b.earned}, 2)::text`,
      paid: sql<string>`round(${b.paid}, 2)::text`,
      owed: sql<string>`round(${b.earned} - ${b.paid}, 2)::text`,
      advanceOutstanding: sql<string>`greatest(round(${b.paid} - ${b.earned}, 2), 0)::numeric(20,2)::text`,
      lastActivity: b.lastActivity,
    })
    .from(b)
    .innerJoin(schema.agents, eq(schema.agents.id, b.agentId))
    .where(keysetWhere(BALANCE_KEYSET, page))
    .orderBy(...keysetOrder(BALANCE_KEYSET, page))
    .limit(limit + 1);
  return toPage(rows, limit, page, (r) => ({ key: r.lastActivity, id: r.agentId }));
}

/** Every agent's balance, newest activity first, in batches (the CSV export). */
export function agentBalanceBatches(actor: Actor, batchSize = 500): AsyncGenerator<AgentBalanceView[]> {
  return keysetBatches(
    (page) => listAgentBalances(actor, { limit: batchSize, page }),
    (last) => ({ key: last.lastActivity, id: last.agentId }),
  );
}

/** The totals over every agent: one row per agent, summed (agents are few; no delivery is read). */
export async function agentBalanceTotals(
  actor: Actor,
): Promise<{ agents: number; owed: string; paid: string; advancesOutstanding: string }> {
  assertCan(actor, "agent.settle", "agents/owed");
  const db = await getDb();
  const [row] = await db
    .select({
      agents: sql<number>`count(*)::int`,
      // What is owed to agents, and apart from it what agents hold in advances: one agent's
      // advance does not lessen what another is owed (docs/decisions/1250).
      owed: sql<string>`coalesce(sum(greatest(round(${b.earned} - ${b.paid}, 2), 0)), 0)::numeric(20,2)::text`,
      advancesOutstanding: sql<string>`coalesce(sum(greatest(round(${b.paid} - ${b.earned}, 2), 0)), 0)::numeric(20,2)::text`,
      paid: sql<string>`coalesce(sum(${b.paid}), 0)::numeric(20,2)::text`,
    })
    .from(b);
  return row;
}

// Agent settlements (docs/decisions/0980): what an agent is owed, and its payouts.
//
// What an agent earns is the net payable of each counted delivery (confirmed or invoiced), the
// rule of app/rules/deliveries.server.ts. Owed = earned - paid out. The per-agent totals live in
// agent_balances, kept by triggers in the same transaction as every delivery and payout write
// (migration 0008). The payout writes are commands of their own (app/services/agents/); an
// agent's statement and the owed list are presenters (app/presenters/agent-statement.server.ts,
// agents-owed.server.ts).
import { and, eq, sql } from "drizzle-orm";
import { getDb, schema, type AgentPayout, type Executor } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import type { PayoutMethod } from "~/schemas/settlements";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { Page, PageRequest } from "~/utils/params";
import { Refusal } from "~/utils/result";

export const PAYOUT_PAGE_SIZE = 50;

export const AGENT_NOT_FOUND = "Agent not found";

/** What the agent is owed now, to the kobo, from its balance row, locked for the transaction. */
export async function owedNow(tx: Executor, agentId: number) {
  const [row] = await tx
    .select({ owed: sql<string>`round(${schema.agentBalances.earned} - ${schema.agentBalances.paid}, 2)::text` })
    .from(schema.agentBalances)
    .where(eq(schema.agentBalances.agentId, agentId))
    .for("update");
  return row?.owed ?? null;
}

/**
 * Inside a payout's or reversal's transaction: the agent (a 404 refusal when there is none) and
 * what it is owed, its balance row locked until the transaction ends, so writes for one agent
 * queue. An agent loaded with the triggers off (a bulk import) may have no balance row yet: it
 * gets one first.
 */
export async function lockAgentBalance(tx: Executor, agentId: number) {
  const [agent] = await tx
    .select({ id: schema.agents.id, name: schema.agents.name, createdAt: schema.agents.createdAt })
    .from(schema.agents)
    .where(eq(schema.agents.id, agentId));
  if (!agent) throw new Refusal({ ok: false, status: 404, message: AGENT_NOT_FOUND });
  await tx
    .insert(schema.agentBalances)
    .values({ agentId, lastActivity: todayIn(env().APP_TIME_ZONE, agent.createdAt) })
    .onConflictDoNothing();
  return { agent, owed: (await owedNow(tx, agentId))! };
}

export type PayoutToReverse = {
  agentName: string;
  payout: PayoutView;
  /** The day it was reversed, when it was. */
  reversedOn: string | null;
};

/** A payout of this agent as the Reverse Payout dialog shows it; null for none (or a reversal). */
export async function getPayoutToReverse(
  actor: Actor,
  agentId: number,
  payoutId: number,
): Promise<PayoutToReverse | null> {
  assertCan(actor, "agent.settle", `agent/${agentId}/payouts/${payoutId}`);
  const db = await getDb();
  const [row] = await db
    .select({ payout: p, agentName: schema.agents.name })
    .from(p)
    .innerJoin(schema.agents, eq(schema.agents.id, p.agentId))
    .where(and(eq(p.id, payoutId), eq(p.agentId, agentId)));
  if (!row || row.payout.reversesPayoutId !== null) return null;
  const [reversal] = await db.select({ payoutDate: p.payoutDate }).from(p).where(eq(p.reversesPayoutId, payoutId));
  return { agentName: row.agentName, payout: toPayoutView(row.payout), reversedOn: reversal?.payoutDate ?? null };
}

// ---- One agent's payouts, newest first (GET /api/agents/{id}/payouts).

export type PayoutView = {
  id: number;
  agentId: number;
  amount: string;
  payoutDate: string;
  method: PayoutMethod;
  reference: string | null;
  note: string | null;
  createdAt: string;
  /** A reversal (negative amount): the payout it takes back. */
  reversesPayoutId: number | null;
};

const p = schema.agentPayouts;
const PAYOUT_KEYSET = { key: p.payoutDate, id: p.id };

const toPayoutView = (row: AgentPayout): PayoutView => ({ ...row, createdAt: row.createdAt.toISOString() });

export async function listAgentPayouts(
  actor: Actor,
  agentId: number,
  { limit = PAYOUT_PAGE_SIZE, page }: { limit?: number; page: PageRequest },
): Promise<Page<PayoutView>> {
  assertCan(actor, "agent.settle", `agent/${agentId}/payouts`);
  const db = await getDb();
  const rows = await db
    .select()
    .from(p)
    .where(and(eq(p.agentId, agentId), keysetWhere(PAYOUT_KEYSET, page)))
    .orderBy(...keysetOrder(PAYOUT_KEYSET, page))
    .limit(limit + 1);
  return toPage(rows.map(toPayoutView), limit, page, (r) => ({ key: r.payoutDate, id: r.id }));
}

/** Every payout of one agent, newest first, in batches (the full JSON list). */
export function payoutBatches(actor: Actor, agentId: number, batchSize = 500): AsyncGenerator<PayoutView[]> {
  return keysetBatches(
    (page) => listAgentPayouts(actor, agentId, { limit: batchSize, page }),
    (last) => ({ key: last.payoutDate, id: last.id }),
  );
}

/** True when the agent exists (routes answer 404 otherwise). */
export async function agentExists(agentId: number): Promise<boolean> {
  const db = await getDb();
  const [row] = await db.select({ id: schema.agents.id }).from(schema.agents).where(eq(schema.agents.id, agentId));
  return !!row;
}

const b = schema.agentBalances;

/** One agent's name and what it is owed now (the Record Payout dialog), or null when there is no such agent. */
export async function getAgentOwed(
  actor: Actor,
  agentId: number,
): Promise<{ id: number; name: string; owed: string } | null> {
  assertCan(actor, "agent.settle", `agent/${agentId}/payouts`);
  const db = await getDb();
  const [row] = await db
    .select({
      id: schema.agents.id,
      name: schema.agents.name,
      owed: sql<string>`coalesce(round(${b.earned} - ${b.paid}, 2), 0)::numeric(20,2)::text`,
    })
    .from(schema.agents)
    .leftJoin(b, eq(b.agentId, schema.agents.id))
    .where(eq(schema.agents.id, agentId));
  return row ?? null;
}

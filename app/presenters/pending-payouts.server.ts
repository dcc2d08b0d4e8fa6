// Payouts awaiting a second admin's approval (docs/decisions/1250): the Pending Approvals list,
// GET /api/payouts?status=pending, the approve and reject dialogs and the navigation's badge. Every
// read goes through agent_payouts_pending_idx (a partial index on the pending rows' ids), so the
// badge is one indexed count and a page of the list reads 50 rows however many payouts there are.
import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { getDb, schema } from "~/db.server";
import { assertCan, can, type Actor } from "~/rules/capabilities.server";
import { keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import type { PayoutKind, PayoutMethod, PayoutStatus } from "~/utils/payout-methods";
import type { Page, PageRequest } from "~/utils/params";

export const PENDING_PAGE_SIZE = 50;

export type PendingPayoutView = {
  id: number;
  agentId: number;
  agentName: string;
  kind: PayoutKind;
  status: PayoutStatus;
  amount: string;
  payoutDate: string;
  method: PayoutMethod;
  reference: string | null;
  note: string | null;
  createdAt: string;
  createdBy: string | null;
  /** Who recorded it: name, else e-mail. */
  madeBy: string | null;
  /** The agent's balance now (earned − approved payouts): below zero, an advance outstanding. */
  balance: string;
};

const p = schema.agentPayouts;
const b = schema.agentBalances;
const maker = alias(schema.users, "maker");
const PENDING_KEYSET = { id: p.id };

function pendingSelect() {
  return {
    id: p.id,
    agentId: p.agentId,
    agentName: schema.agents.name,
    kind: p.kind,
    status: p.status,
    amount: p.amount,
    payoutDate: p.payoutDate,
    method: p.method,
    reference: p.reference,
    note: p.note,
    createdAt: p.createdAt,
    createdBy: p.createdBy,
    makerFirst: maker.firstName,
    makerLast: maker.lastName,
    makerEmail: maker.email,
    balance: sql<string>`coalesce(round(${b.earned} - ${b.paid}, 2), 0)::numeric(20,2)::text`,
  };
}

type PendingRow = {
  createdAt: Date;
  makerFirst: string | null;
  makerLast: string | null;
  makerEmail: string | null;
} & Omit<PendingPayoutView, "createdAt" | "madeBy">;

function toView({ makerFirst, makerLast, makerEmail, createdAt, ...row }: PendingRow): PendingPayoutView {
  const name = [makerFirst, makerLast].filter(Boolean).join(" ");
  return { ...row, createdAt: createdAt.toISOString(), madeBy: name || makerEmail };
}

async function pendingRows(where: ReturnType<typeof and>, order: ReturnType<typeof keysetOrder>, limit: number) {
  const db = await getDb();
  const rows = await db
    .select(pendingSelect())
    .from(p)
    .innerJoin(schema.agents, eq(schema.agents.id, p.agentId))
    .leftJoin(b, eq(b.agentId, p.agentId))
    .leftJoin(maker, eq(maker.id, p.createdBy))
    .where(where)
    .orderBy(...order)
    .limit(limit);
  return rows.map(toView);
}

/** One page of the payouts awaiting approval, newest first. */
export async function listPendingPayouts(
  actor: Actor,
  { limit = PENDING_PAGE_SIZE, page }: { limit?: number; page: PageRequest },
): Promise<Page<PendingPayoutView>> {
  assertCan(actor, "agent.settle", "payouts/pending");
  const rows = await pendingRows(
    and(eq(p.status, "pending"), keysetWhere(PENDING_KEYSET, page)),
    keysetOrder(PENDING_KEYSET, page),
    limit + 1,
  );
  return toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
}

/** Every payout awaiting approval, newest first, in batches (the full JSON list). */
export function pendingPayoutBatches(actor: Actor, batchSize = 500): AsyncGenerator<PendingPayoutView[]> {
  return keysetBatches(
    (page) => listPendingPayouts(actor, { limit: batchSize, page }),
    (last) => ({ key: null, id: last.id }),
  );
}

/** One payout as the approve and reject dialogs show it (any status); null for none or a reversal. */
export async function getPayoutToDecide(
  actor: Actor,
  payoutId: number,
): Promise<(PendingPayoutView & { decidedAt: string | null }) | null> {
  assertCan(actor, "agent.settle", `payouts/${payoutId}`);
  const db = await getDb();
  const [row] = await db
    .select({ ...pendingSelect(), decidedAt: p.decidedAt, reversesPayoutId: p.reversesPayoutId })
    .from(p)
    .innerJoin(schema.agents, eq(schema.agents.id, p.agentId))
    .leftJoin(b, eq(b.agentId, p.agentId))
    .leftJoin(maker, eq(maker.id, p.createdBy))
    .where(eq(p.id, payoutId));
  if (!row || row.reversesPayoutId !== null) return null;
  const { decidedAt, reversesPayoutId: _reversal, ...rest } = row;
  return { ...toView(rest), decidedAt: decidedAt?.toISOString() ?? null };
}

/**
 * The navigation's badge: how many payouts await approval, for who may decide them (admins);
 * null for anyone else, without a query. One count over the partial index.
 */
export async function pendingPayoutCount(actor: Actor): Promise<number | null> {
  if (!can(actor, "agent.settle")) return null;
  const db = await getDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(p)
    .where(eq(p.status, "pending"));
  return row.n;
}

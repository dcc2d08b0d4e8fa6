// Reverse Payout (docs/decisions/0980): takes back a payout recorded in error. The payout stays
// as it was; a reversal row of the opposite amount, dated today (APP_TIME_ZONE) and naming the
// payout, is added, so the agent is owed the amount again from today. Runs on the keyed write
// pipeline (decision 0805).
import { and, eq } from "drizzle-orm";
import { schema, type AgentPayout } from "~/db.server";
import { lockAgentBalance, owedNow } from "~/models/agent-settlement.server";
import type { Actor } from "~/rules/capabilities.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { PayoutReversalSchema } from "~/schemas/settlements";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { formatDate } from "~/utils/dates";
import { add, sub, toFixed } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

const PAYOUT_NOT_FOUND = "Payout not found";
export const REVERSAL_NOT_REVERSIBLE = "A reversal cannot itself be reversed";
/** Only an approved payout was paid; one awaiting approval is rejected instead (docs/decisions/1250). */
export const NOT_APPROVED_NOT_REVERSIBLE: Record<"pending" | "rejected", string> = {
  pending: "This payout is awaiting approval: reject it instead of reversing it",
  rejected: "This payout was rejected: it was never paid, so there is nothing to reverse",
};

type Input = { agentId: number; payoutId: number; reason: string };
type Locked = Awaited<ReturnType<typeof lockAgentBalance>> & { payout: AgentPayout };
type Reversed = { reversal: AgentPayout; payout: AgentPayout; owed: string };

type ReversePayoutResult = ({ ok: true; replayed: boolean } & Reversed) | Failure;

const p = schema.agentPayouts;

const reversePayoutCommand: KeyedCommand<Input, Locked, Reversed> = {
  capability: "agent.settle",
  object: (input) => `agent/${String(input.agentId)}/payouts/${String(input.payoutId)}/reversal`,
  scope: "agent_payout.reverse",
  parse(input) {
    const parsed = parseFields(PayoutReversalSchema, input);
    if (!parsed.ok) return parsed;
    const { agentId, payoutId } = input as { agentId: number; payoutId: number };
    return { ok: true, data: { agentId, payoutId, reason: parsed.data.reason } };
  },
  hash: ({ agentId, payoutId, reason }) => ({ agentId, payoutId, reason }),
  async replay(tx, resourceId, { agentId }) {
    const [reversal] = await tx
      .select()
      .from(p)
      .where(eq(p.id, Number(resourceId)));
    const [payout] = reversal ? await tx.select().from(p).where(eq(p.id, reversal.reversesPayoutId!)) : [];
    if (!reversal || !payout) refuseWith(fail(409, "This reversal was already recorded"));
    return { reversal, payout, owed: (await owedNow(tx, agentId)) ?? "0.00" };
  },
  // The balance row first: two reversals of one payout queue there, and the second finds the first.
  async lock(tx, { agentId, payoutId }) {
    const balance = await lockAgentBalance(tx, agentId);
    const [payout] = await tx
      .select()
      .from(p)
      .where(and(eq(p.id, payoutId), eq(p.agentId, agentId)));
    if (!payout) refuseWith(fail(404, PAYOUT_NOT_FOUND));
    return { ...balance, payout };
  },
  landsOn: (_input, _locked, { today }) => today,
  async check(tx, { payoutId }, { payout }) {
    if (payout.reversesPayoutId !== null) refuseWith(fail(409, REVERSAL_NOT_REVERSIBLE));
    if (payout.status !== "approved") refuseWith(fail(409, NOT_APPROVED_NOT_REVERSIBLE[payout.status]));
    const [earlier] = await tx.select().from(p).where(eq(p.reversesPayoutId, payoutId));
    if (earlier) refuseWith(fail(409, `This payout was already reversed on ${formatDate(earlier.payoutDate)}`));
  },
  async write(tx, { agentId, reason }, { agent, owed, payout }, { actor, today }) {
    const [reversal] = await tx
      .insert(p)
      .values({
        agentId,
        amount: toFixed(sub("0", payout.amount)),
        payoutDate: today,
        method: payout.method,
        reference: payout.reference,
        note: reason,
        reversesPayoutId: payout.id,
        createdBy: actor.id,
        kind: payout.kind,
      })
      .returning();
    const owedAfter = toFixed(add(owed, payout.amount));
    return {
      made: { reversal, payout, owed: owedAfter },
      resourceId: reversal.id,
      audit: [
        {
          action: "agent_payout.reverse",
          entityType: "agent_payout",
          entityId: payout.id,
          before: { ...payout, agentName: agent.name, owed },
          after: { ...reversal, agentName: agent.name, owed: owedAfter },
        },
      ],
    };
  },
};

/**
 * Reverses a payout of this agent, at most once; the reason is required and kept as the
 * reversal's note. Idempotent under `idempotencyKey`, refused when today's month is closed,
 * audited in the same transaction.
 */
export function reverseAgentPayout(
  actor: Actor,
  agentId: number,
  payoutId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<ReversePayoutResult> {
  return keyedWrite(reversePayoutCommand, actor, { ...input, agentId, payoutId }, { idempotencyKey, now });
}

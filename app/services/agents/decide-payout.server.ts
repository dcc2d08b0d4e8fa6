// Approve or Reject a payout awaiting approval (docs/decisions/1250): a payout above the approval
// limit counts as paid only when a second admin approves it. The agent's balance row is locked
// first and then the payout's own row (FOR UPDATE), so two admins deciding at once queue: the
// first decides, the second finds the decision and is refused. The database refuses a decider who
// is the payout's maker even if this check were skipped (agent_payouts_decider_not_maker). Both
// run on the keyed write pipeline (decision 0805).
import { and, eq } from "drizzle-orm";
import { schema, type AgentPayout } from "~/db.server";
import { lockAgentBalance, owedNow } from "~/models/agent-settlement.server";
import type { Actor } from "~/rules/capabilities.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { PayoutApprovalSchema, PayoutRejectionSchema } from "~/schemas/settlements";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { formatDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { compare, formatNaira, sub, toFixed } from "~/utils/money";
import { fail, type Failure } from "~/utils/result";

export const PAYOUT_NOT_FOUND = "Payout not found";
export const OWN_PAYOUT = "You recorded this payout: another admin must approve or reject it";
const DECIDED_WORDS = { approved: "approved", rejected: "rejected" } as const;

type Decision = "approved" | "rejected";
type Input = { agentId: number; payoutId: number; reason: string | null };
type Locked = Awaited<ReturnType<typeof lockAgentBalance>> & { payout: AgentPayout };
export type Decided = { payout: AgentPayout; owed: string };
type DecideResult = ({ ok: true; replayed: boolean } & Decided) | Failure;

const p = schema.agentPayouts;

function decideCommand(decision: Decision): KeyedCommand<Input, Locked, Decided> {
  const verb = decision === "approved" ? "approve" : "reject";
  return {
    capability: "agent.settle",
    object: (input) => `agent/${String(input.agentId)}/payouts/${String(input.payoutId)}/${verb}`,
    scope: `agent_payout.${verb}`,
    parse(input) {
      const parsed = parseFields(decision === "approved" ? PayoutApprovalSchema : PayoutRejectionSchema, input);
      if (!parsed.ok) return parsed;
      const { agentId, payoutId } = input as { agentId: number; payoutId: number };
      return { ok: true, data: { agentId, payoutId, reason: parsed.data.reason ?? null } };
    },
    hash: ({ agentId, payoutId, reason }) => ({ agentId, payoutId, reason }),
    async replay(tx, resourceId, { agentId }) {
      const [payout] = await tx
        .select()
        .from(p)
        .where(eq(p.id, Number(resourceId)));
      if (!payout) refuseWith(fail(409, "This decision was already recorded"));
      return { payout, owed: (await owedNow(tx, agentId)) ?? "0.00" };
    },
    // The balance row first (as every payout write), then the payout itself: two decisions on one
    // payout queue on it, and the second reads the first's.
    async lock(tx, { agentId, payoutId }) {
      const balance = await lockAgentBalance(tx, agentId);
      const [payout] = await tx
        .select()
        .from(p)
        .where(and(eq(p.id, payoutId), eq(p.agentId, agentId)))
        .for("update");
      if (!payout) refuseWith(fail(404, PAYOUT_NOT_FOUND));
      return { ...balance, payout };
    },
    // Approving makes the payout paid on its own date, so that month must be open; a rejection
    // changes no figure, and is dated today.
    landsOn: (_input, { payout }, { today }) => (decision === "approved" ? payout.payoutDate : today),
    check(_tx, _input, { payout, agent, owed }, { actor }) {
      if (payout.reversesPayoutId !== null) refuseWith(fail(409, "A reversal is not approved or rejected"));
      if (payout.status !== "pending") {
        const when = payout.decidedAt ? ` on ${formatDate(todayIn(env().APP_TIME_ZONE, payout.decidedAt))}` : "";
        refuseWith(fail(409, `This payout was already ${DECIDED_WORDS[payout.status]}${when}`));
      }
      if (payout.createdBy === actor.id) refuseWith(fail(403, OWN_PAYOUT));
      if (decision === "approved" && payout.kind === "settlement" && compare(payout.amount, owed) > 0) {
        refuseWith(
          fail(
            409,
            `This settlement exceeds what is owed to ${agent.name} now, ${formatNaira(owed)}: reject it, or record an advance`,
          ),
        );
      }
    },
    async write(tx, { reason }, { agent, owed, payout }, { actor, now }) {
      const [after] = await tx
        .update(p)
        .set({ status: decision, decidedBy: actor.id, decidedAt: now, decisionReason: reason })
        .where(eq(p.id, payout.id))
        .returning();
      const owedAfter = decision === "approved" ? toFixed(sub(owed, payout.amount)) : owed;
      return {
        made: { payout: after, owed: owedAfter },
        resourceId: payout.id,
        audit: [
          {
            action: `agent_payout.${verb}`,
            entityType: "agent_payout",
            entityId: payout.id,
            before: { ...payout, agentName: agent.name, owed },
            after: { ...after, agentName: agent.name, owed: owedAfter },
          },
        ],
      };
    },
  };
}

/** The exported write of one decision: idempotent under `idempotencyKey`, audited. */
function decideWith(command: KeyedCommand<Input, Locked, Decided>) {
  return (
    actor: Actor,
    agentId: number,
    payoutId: number,
    input: Record<string, unknown>,
    now = new Date(),
    { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
  ): Promise<DecideResult> => keyedWrite(command, actor, { ...input, agentId, payoutId }, { idempotencyKey, now });
}

/** Approves a payout awaiting approval: it counts as paid from now. Another admin than its maker only. */
export const approveAgentPayout = decideWith(decideCommand("approved"));

/** Rejects a payout awaiting approval, with a reason: it stays visible and counts for nothing. */
export const rejectAgentPayout = decideWith(decideCommand("rejected"));

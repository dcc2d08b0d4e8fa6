// Record Payout (docs/decisions/0980): money out to an agent against what their deliveries
// earned. The agent's balance row is locked first, so two payouts racing for the last of what is
// owed queue: the second sees the first and is refused rather than paying the agent more than
// their deliveries earned. Runs on the keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type AgentPayout } from "~/db.server";
import { lockAgentBalance, owedNow } from "~/models/agent-settlement.server";
import type { Actor } from "~/rules/capabilities.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { PayoutSchema } from "~/schemas/settlements";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { compare, formatNaira, sub, toFixed } from "~/utils/money";
import { failOn, type Failure } from "~/utils/result";

const NOTHING_OWED = "Nothing is owed to this agent";

type Input = z.output<typeof PayoutSchema> & { agentId: number; date: string };
type Locked = Awaited<ReturnType<typeof lockAgentBalance>>;
type Recorded = { payout: AgentPayout; owed: string };

type RecordPayoutResult = ({ ok: true; replayed: boolean } & Recorded) | Failure;

const recordPayoutCommand: KeyedCommand<Input, Locked, Recorded> = {
  capability: "agent.settle",
  object: (input) => `agent/${String(input.agentId)}/payouts`,
  scope: "agent_payout.create",
  parse(input, { today }) {
    const parsed = parseFields(PayoutSchema, input);
    if (!parsed.ok) return parsed;
    const date = parsed.data.payoutDate ?? today;
    const badDate = businessDateRefusal("Payout date", date, today, 0);
    if (badDate) return failOn(400, "payoutDate", badDate);
    return { ok: true, data: { ...parsed.data, agentId: input.agentId as number, date } };
  },
  // The date as sent: a payout without one is the same request tomorrow.
  hash: ({ agentId, amount, payoutDate, method, reference, note }) => ({
    agentId,
    amount,
    payoutDate,
    method,
    reference,
    note,
  }),
  async replay(tx, resourceId) {
    const [payout] = await tx
      .select()
      .from(schema.agentPayouts)
      .where(eq(schema.agentPayouts.id, Number(resourceId)));
    if (!payout) refuseWith({ ok: false, status: 409, message: "This payout was already recorded" });
    return { payout, owed: (await owedNow(tx, payout.agentId)) ?? "0.00" };
  },
  lock: (tx, { agentId }) => lockAgentBalance(tx, agentId),
  landsOn: ({ date }) => date,
  closedField: "payoutDate",
  check(_tx, { amount }, { agent, owed }) {
    if (compare(amount, owed) > 0) {
      const message =
        compare(owed, "0") <= 0 ? NOTHING_OWED : `Amount exceeds what is owed to ${agent.name}, ${formatNaira(owed)}`;
      refuseWith(failOn(409, "amount", message));
    }
  },
  async write(tx, { agentId, amount, date, method, reference, note }, { agent, owed }, { actor }) {
    const [payout] = await tx
      .insert(schema.agentPayouts)
      .values({
        agentId,
        amount,
        payoutDate: date,
        method,
        reference: reference ?? null,
        note: note ?? null,
        createdBy: actor.id,
      })
      .returning();
    const owedAfter = toFixed(sub(owed, amount));
    return {
      made: { payout, owed: owedAfter },
      resourceId: payout.id,
      audit: [
        {
          action: "agent_payout.create",
          entityType: "agent_payout",
          entityId: payout.id,
          before: { agentId, agentName: agent.name, owed },
          after: { ...payout, agentName: agent.name, owed: owedAfter },
        },
      ],
    };
  },
};

/**
 * Records a payout to an agent and what the agent is owed after it, in one transaction:
 * idempotent under `idempotencyKey`, refused in a closed month, audited.
 */
export function recordAgentPayout(
  actor: Actor,
  agentId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<RecordPayoutResult> {
  return keyedWrite(recordPayoutCommand, actor, { ...input, agentId }, { idempotencyKey, now });
}

// Record Payout (docs/decisions/0980, 1250): money out to an agent. A settlement pays what their
// deliveries earned: the agent's balance row is locked first, so two settlements racing for the
// last of what is owed queue and the second is refused. An advance is paid before the deliveries
// and may take the balance below zero. Either, above the approval limit in settings, waits for a
// second admin (status pending) and counts as paid only once approved. Runs on the keyed write
// pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type AgentPayout } from "~/db.server";
import { lockAgentBalance, owedNow } from "~/models/agent-settlement.server";
import { getSettings } from "~/models/settings.server";
import type { Actor } from "~/rules/capabilities.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { PayoutSchema } from "~/schemas/settlements";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { compare, formatNaira, sub, toFixed } from "~/utils/money";
import { failOn, type Failure } from "~/utils/result";

const NOTHING_OWED = "Nothing is owed to this agent";

type Input = z.output<typeof PayoutSchema> & { agentId: number; date: string };
type Locked = Awaited<ReturnType<typeof lockAgentBalance>> & { limit: string | null };
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
  // A settlement hashes as it did before payouts had a kind, so an older request's key still replays.
  hash: ({ agentId, amount, payoutDate, method, reference, note, kind }) => ({
    agentId,
    amount,
    payoutDate,
    method,
    reference,
    note,
    ...(kind === "advance" ? { kind } : {}),
  }),
  async replay(tx, resourceId) {
    const [payout] = await tx
      .select()
      .from(schema.agentPayouts)
      .where(eq(schema.agentPayouts.id, Number(resourceId)));
    if (!payout) refuseWith({ ok: false, status: 409, message: "This payout was already recorded" });
    return { payout, owed: (await owedNow(tx, payout.agentId)) ?? "0.00" };
  },
  async lock(tx, { agentId }) {
    const locked = await lockAgentBalance(tx, agentId);
    return { ...locked, limit: (await getSettings(tx)).payoutApprovalLimit };
  },
  landsOn: ({ date }) => date,
  closedField: "payoutDate",
  check(_tx, { amount, kind }, { agent, owed }) {
    if (kind === "settlement" && compare(amount, owed) > 0) {
      const message =
        compare(owed, "0") <= 0 ? NOTHING_OWED : `Amount exceeds what is owed to ${agent.name}, ${formatNaira(owed)}`;
      refuseWith(failOn(409, "amount", message));
    }
  },
  async write(tx, { agentId, amount, date, method, reference, note, kind }, { agent, owed, limit }, { actor }) {
    const status = limit !== null && compare(amount, limit) > 0 ? "pending" : "approved";
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
        kind,
        status,
      })
      .returning();
    // A payout awaiting approval is not paid yet: what is owed stays.
    const owedAfter = status === "approved" ? toFixed(sub(owed, amount)) : owed;
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

import { and, asc, eq, ne, sql } from "drizzle-orm";
import type * as z from "zod";
import { getDb, schema, type Agent, type Executor } from "~/db.server";
import { AgentSchema } from "~/schemas/directory";
import { safeParseFields } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import { refuse, type Actor } from "~/rules/capabilities.server";
import { recordAudit } from "./audit.server";
import { duplicateName, isUniqueViolation, type DirectoryFailure } from "./directory-errors";
import { countReferences, referenceCount } from "./references.server";

/** Another agent with this name, ignoring case (names are stored trimmed). */
async function nameTaken(name: string, exceptId: number | null, db: Executor) {
  const same = sql`lower(${schema.agents.name}) = lower(${name})`;
  const [row] = await db
    .select({ id: schema.agents.id })
    .from(schema.agents)
    .where(exceptId === null ? same : and(same, ne(schema.agents.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Every agent's id and name, by name: the choices of a select (searchable once long, decision
 * 0200). Only the two columns a select shows are read.
 */
export async function listAgentChoices(db?: Executor): Promise<{ id: number; name: string }[]> {
  db ??= await getDb();
  return db
    .select({ id: schema.agents.id, name: schema.agents.name })
    .from(schema.agents)
    .orderBy(asc(schema.agents.name), asc(schema.agents.id));
}

export async function getAgent(id: number, db?: Executor): Promise<Agent | null> {
  db ??= await getDb();
  const [agent] = await db.select().from(schema.agents).where(eq(schema.agents.id, id));
  return agent ?? null;
}

type Result = { ok: true; agent: Agent } | DirectoryFailure;

/**
 * A create or edit writes every field: a blank box clears it. The pay basis is the exception:
 * left out (a JSON call written before it existed), a new agent is paid on loaded tons and an edit
 * keeps its basis. A change applies to the deliveries recorded after it; each delivery keeps the
 * basis it was recorded with (docs/decisions/1220).
 */
const agentValues = (data: z.infer<typeof AgentSchema>) => ({
  name: data.name,
  contact: data.contact ?? null,
  phone: data.phone ?? null,
  bankName: data.bankName ?? null,
  bankAccountName: data.bankAccountName ?? null,
  bankAccountNo: data.bankAccountNo ?? null,
  ...(data.payBasis === undefined ? {} : { payBasis: data.payBasis }),
  whatsappNumber: data.whatsappNumber ?? null,
  email: data.email ?? null,
  ...(data.remindersOff === undefined ? {} : { remindersOff: data.remindersOff }),
});

export async function createAgent(actor: Actor, input: Record<string, unknown>): Promise<Result> {
  const refused = refuse(actor, "agent.manage", "agents");
  if (refused) return refused;
  const parsed = safeParseFields(AgentSchema, input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const db = await getDb();
  if (await nameTaken(parsed.data.name, null, db)) return duplicateName("agent", parsed.data.name);
  try {
    const agent = await db.transaction(async (tx) => {
      const [created] = await tx.insert(schema.agents).values(agentValues(parsed.data)).returning();
      await recordAudit(tx, {
        actor,
        action: "agent.create",
        entityType: "agent",
        entityId: created.id,
        after: created,
      });
      return created;
    });
    return { ok: true, agent };
  } catch (error) {
    // Two people adding the same name at once: the unique index decides.
    if (isUniqueViolation(error)) return duplicateName("agent", parsed.data.name);
    throw error;
  }
}

export async function updateAgent(actor: Actor, id: number, input: Record<string, unknown>): Promise<Result> {
  const refused = refuse(actor, "agent.manage", `agent/${id}`);
  if (refused) return refused;
  const parsed = safeParseFields(AgentSchema, input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const db = await getDb();
  if (await nameTaken(parsed.data.name, id, db)) return duplicateName("agent", parsed.data.name);
  try {
    const agent = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(schema.agents).where(eq(schema.agents.id, id)).for("update");
      if (!before) return null;
      const [after] = await tx
        .update(schema.agents)
        .set(agentValues(parsed.data))
        .where(eq(schema.agents.id, id))
        .returning();
      await recordAudit(tx, { actor, action: "agent.update", entityType: "agent", entityId: id, before, after });
      return after;
    });
    return agent ? { ok: true, agent } : { ok: false, status: 404, message: "Agent not found" };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateName("agent", parsed.data.name);
    throw error;
  }
}

/** Refused while any delivery or payout refers to the agent: history must keep its names. */
export async function deleteAgent(actor: Actor, id: number): Promise<{ ok: true } | DirectoryFailure> {
  const refused = refuse(actor, "agent.manage", `agent/${id}`);
  if (refused) return refused;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [agent] = await tx.select().from(schema.agents).where(eq(schema.agents.id, id)).for("update");
    if (!agent) return { ok: false as const, status: 404 as const, message: "Agent not found" };
    // Counted only up to a bound: the agent's row is locked meanwhile (see REFERENCES_COUNTED_UP_TO).
    const count = await countReferences(tx, schema.deliveries, eq(schema.deliveries.agentId, id));
    if (count > 0) {
      return {
        ok: false as const,
        status: 409 as const,
        message: `Cannot delete "${agent.name}": ${referenceCount(count, "delivery refers", "deliveries refer")} to this agent.`,
      };
    }
    // Payouts are money and are never removed (docs/decisions/0980): an agent paid once stays.
    const payouts = await countReferences(tx, schema.agentPayouts, eq(schema.agentPayouts.agentId, id));
    if (payouts > 0) {
      return {
        ok: false as const,
        status: 409 as const,
        message: `Cannot delete "${agent.name}": ${referenceCount(payouts, "payout was", "payouts were")} made to this agent.`,
      };
    }
    await tx.delete(schema.agents).where(eq(schema.agents.id, id));
    await recordAudit(tx, { actor, action: "agent.delete", entityType: "agent", entityId: id, before: agent });
    return { ok: true as const };
  });
}

import type * as z from "zod";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { getDb, schema, type Client, type Executor } from "~/db.server";
import { clientSchema } from "~/schemas/directory";
import { safeParseFields } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import { refuse, type Actor } from "~/rules/capabilities.server";
import { recordAudit } from "./audit.server";
import { countReferences, referenceCount } from "./references.server";
import { duplicateName, isUniqueViolation, type DirectoryFailure } from "./directory-errors";

/** Another client with this name, ignoring case (names are stored trimmed). */
async function nameTaken(name: string, exceptId: number | null, db: Executor) {
  const same = sql`lower(${schema.clients.name}) = lower(${name})`;
  const [row] = await db
    .select({ id: schema.clients.id })
    .from(schema.clients)
    .where(exceptId === null ? same : and(same, ne(schema.clients.id, exceptId)))
    .limit(1);
  return Boolean(row);
}

/**
 * Every client's id and name, by name: the choices of a select (searchable once long, decision
 * 0200). Only the two columns a select shows are read.
 */
export async function listClientChoices(db?: Executor): Promise<{ id: number; name: string }[]> {
  db ??= await getDb();
  return db
    .select({ id: schema.clients.id, name: schema.clients.name })
    .from(schema.clients)
    .orderBy(asc(schema.clients.name), asc(schema.clients.id));
}

export async function getClient(id: number, db?: Executor): Promise<Client | null> {
  db ??= await getDb();
  const [client] = await db.select().from(schema.clients).where(eq(schema.clients.id, id));
  return client ?? null;
}

/** What the client's page and its Edit dialog show of it (no bookkeeping). */
export const clientDetails = (client: Client) => ({
  id: client.id,
  name: client.name,
  taxRate: client.taxRate,
  paymentTermsDays: client.paymentTermsDays,
  address: client.address,
  email: client.email,
  phone: client.phone,
  taxNo: client.taxNo,
  requiresReceivedTicket: client.requiresReceivedTicket,
  whatsappNumber: client.whatsappNumber,
  remindersOff: client.remindersOff,
  whtRate: client.whtRate,
  withholdsVat: client.withholdsVat,
});

/** Case-insensitive name match (the New Delivery form's fixed client). */
export async function findClientByName(name: string, db?: Executor): Promise<Client | null> {
  db ??= await getDb();
  const [client] = await db
    .select()
    .from(schema.clients)
    .where(sql`lower(${schema.clients.name}) = lower(${name.trim()})`)
    .orderBy(asc(schema.clients.id))
    .limit(1);
  return client ?? null;
}

type Result = { ok: true; client: Client } | DirectoryFailure;

/**
 * A create or edit writes every field: a blank box clears it. Whether the client's ticket is
 * required is the exception: left out (a JSON call written before it existed), a new client does
 * not require it and an edit keeps it, so such a call never lifts it (docs/decisions/1220).
 */
const clientValues = (data: z.infer<ReturnType<typeof clientSchema>>) => ({
  name: data.name,
  taxRate: data.taxRate,
  paymentTermsDays: data.paymentTermsDays,
  address: data.address ?? null,
  email: data.email ?? null,
  phone: data.phone ?? null,
  taxNo: data.taxNo ?? null,
  ...(data.requiresReceivedTicket === undefined ? {} : { requiresReceivedTicket: data.requiresReceivedTicket }),
  whatsappNumber: data.whatsappNumber ?? null,
  ...(data.remindersOff === undefined ? {} : { remindersOff: data.remindersOff }),
  ...(data.whtRate === undefined ? {} : { whtRate: data.whtRate }),
  ...(data.withholdsVat === undefined ? {} : { withholdsVat: data.withholdsVat }),
});

/** `lenient`: the HTML form, where non-numeric payment terms count as 0 (spec section 5). */
export async function createClient(
  actor: Actor,
  input: Record<string, unknown>,
  { lenient = false } = {},
): Promise<Result> {
  const refused = refuse(actor, "client.manage", "clients");
  if (refused) return refused;
  const parsed = safeParseFields(clientSchema(lenient), input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const db = await getDb();
  if (await nameTaken(parsed.data.name, null, db)) return duplicateName("client", parsed.data.name);
  try {
    const client = await db.transaction(async (tx) => {
      const [created] = await tx.insert(schema.clients).values(clientValues(parsed.data)).returning();
      await recordAudit(tx, {
        actor,
        action: "client.create",
        entityType: "client",
        entityId: created.id,
        after: created,
      });
      return created;
    });
    return { ok: true, client };
  } catch (error) {
    // Two people adding the same name at once: the unique index decides.
    if (isUniqueViolation(error)) return duplicateName("client", parsed.data.name);
    throw error;
  }
}

export async function updateClient(
  actor: Actor,
  id: number,
  input: Record<string, unknown>,
  { lenient = false } = {},
): Promise<Result> {
  const refused = refuse(actor, "client.manage", `client/${id}`);
  if (refused) return refused;
  const parsed = safeParseFields(clientSchema(lenient), input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const db = await getDb();
  if (await nameTaken(parsed.data.name, id, db)) return duplicateName("client", parsed.data.name);
  try {
    const client = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(schema.clients).where(eq(schema.clients.id, id)).for("update");
      if (!before) return null;
      const [after] = await tx
        .update(schema.clients)
        .set(clientValues(parsed.data))
        .where(eq(schema.clients.id, id))
        .returning();
      await recordAudit(tx, { actor, action: "client.update", entityType: "client", entityId: id, before, after });
      return after;
    });
    return client ? { ok: true, client } : { ok: false, status: 404, message: "Client not found" };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateName("client", parsed.data.name);
    throw error;
  }
}

/** Refused while deliveries, invoices or quality rules refer to the client. */
export async function deleteClient(actor: Actor, id: number): Promise<{ ok: true } | DirectoryFailure> {
  const refused = refuse(actor, "client.manage", `client/${id}`);
  if (refused) return refused;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [client] = await tx.select().from(schema.clients).where(eq(schema.clients.id, id)).for("update");
    if (!client) return { ok: false as const, status: 404 as const, message: "Client not found" };
    const deliveries = await countReferences(tx, schema.deliveries, eq(schema.deliveries.clientId, id));
    const invoices = await countReferences(tx, schema.invoices, eq(schema.invoices.clientId, id));
    // Quality rules are append-only history (decision 1210): a client with rules stays.
    const rules = await countReferences(tx, schema.clientQualityRules, eq(schema.clientQualityRules.clientId, id));
    if (deliveries + invoices + rules > 0) {
      const parts = [
        deliveries ? referenceCount(deliveries, "delivery", "deliveries") : "",
        invoices ? referenceCount(invoices, "invoice", "invoices") : "",
        rules ? referenceCount(rules, "quality rule", "quality rules") : "",
      ].filter(Boolean);
      return {
        ok: false as const,
        status: 409 as const,
        message: `Cannot delete "${client.name}": ${parts.join(" and ")} refer to this client.`,
      };
    }
    await tx.delete(schema.clients).where(eq(schema.clients.id, id));
    await recordAudit(tx, { actor, action: "client.delete", entityType: "client", entityId: id, before: client });
    return { ok: true as const };
  });
}

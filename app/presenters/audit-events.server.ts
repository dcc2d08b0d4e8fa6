// A page of audit events as people read them (docs/decisions/0900): the words come from
// utils/audit-words.server.ts; this reads the names the page's ids stand for, one query per
// kind for the whole page (never one per event), and names a deleted agent or client from the
// trail itself (its delete event kept the row). Users are never removed (a deleted user's row
// stays), so their names are always there.
import { and, desc, eq, inArray } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import type { AuditEventView } from "~/models/audit.server";
import {
  describeAuditEvent,
  idsToName,
  type AuditEventInput,
  type AuditEventLine,
  type AuditNames,
} from "~/utils/audit-words.server";
import { env } from "~/utils/env.server";
import { isUuid } from "~/utils/params";

type Names = Map<string, string>;

/** Where names come from; each is asked once per page, with every id of its kind. */
export type NameSource = {
  users(ids: string[]): Promise<Names>;
  agents(ids: string[]): Promise<Names>;
  clients(ids: string[]): Promise<Names>;
  /** Invoice id → invoice number. */
  invoices(ids: string[]): Promise<Names>;
  /** Names an agent or client had, read from its own events (for one since deleted). */
  formerNames(entityType: "agent" | "client", ids: string[]): Promise<Names>;
};

const MAX_INT = 2_147_483_647;
const intIds = (ids: string[]) => ids.filter((id) => /^\d{1,10}$/.test(id) && Number(id) <= MAX_INT).map(Number);

/** A user's name as the app shows it: first and last name, else the e-mail. */
export function userName(user: { firstName: string | null; lastName: string | null; email: string }) {
  return [user.firstName, user.lastName].filter(Boolean).join(" ").trim() || user.email;
}

export const databaseNames: NameSource = {
  async users(ids) {
    const wanted = ids.filter((id) => isUuid(id));
    if (!wanted.length) return new Map();
    const u = schema.users;
    const db = await getDb();
    const rows = await db
      .select({ id: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email })
      .from(u)
      .where(inArray(u.id, wanted));
    return new Map(rows.map((row) => [row.id, userName(row)]));
  },
  async agents(ids) {
    const wanted = intIds(ids);
    if (!wanted.length) return new Map();
    const a = schema.agents;
    const rows = await (await getDb()).select({ id: a.id, name: a.name }).from(a).where(inArray(a.id, wanted));
    return new Map(rows.map((row) => [String(row.id), row.name]));
  },
  async clients(ids) {
    const wanted = intIds(ids);
    if (!wanted.length) return new Map();
    const c = schema.clients;
    const rows = await (await getDb()).select({ id: c.id, name: c.name }).from(c).where(inArray(c.id, wanted));
    return new Map(rows.map((row) => [String(row.id), row.name]));
  },
  async invoices(ids) {
    const wanted = intIds(ids);
    if (!wanted.length) return new Map();
    const i = schema.invoices;
    const rows = await (
      await getDb()
    )
      .select({ id: i.id, invoiceNo: i.invoiceNo })
      .from(i)
      .where(inArray(i.id, wanted));
    return new Map(rows.map((row) => [String(row.id), row.invoiceNo]));
  },
  async formerNames(entityType, ids) {
    if (!ids.length) return new Map();
    const t = schema.auditEvents;
    // The newest event of each: through the (entity_type, entity_id, id) index.
    const rows = await (
      await getDb()
    )
      .selectDistinctOn([t.entityId], { id: t.entityId, before: t.before, after: t.after })
      .from(t)
      .where(and(eq(t.entityType, entityType), inArray(t.entityId, ids)))
      .orderBy(t.entityId, desc(t.id));
    const names: Names = new Map();
    for (const row of rows) {
      const name = row.after?.name ?? row.before?.name;
      if (row.id && typeof name === "string") names.set(row.id, name);
    }
    return names;
  },
};

/** The names a page of events refers to: at most one read per kind, whatever the page's size. */
async function auditNames(events: readonly AuditEventInput[], source: NameSource = databaseNames) {
  const ids = idsToName(events);
  const [users, agents, clients, invoices] = await Promise.all([
    source.users(ids.users),
    source.agents(ids.agents),
    source.clients(ids.clients),
    source.invoices(ids.invoices),
  ]);
  const goneAgents = ids.agents.filter((id) => !agents.has(id));
  const goneClients = ids.clients.filter((id) => !clients.has(id));
  const [formerAgents, formerClients] = await Promise.all([
    goneAgents.length ? source.formerNames("agent", goneAgents) : new Map<string, string>(),
    goneClients.length ? source.formerNames("client", goneClients) : new Map<string, string>(),
  ]);
  const names: AuditNames = {
    users,
    agents: new Map([...formerAgents, ...agents]),
    clients: new Map([...formerClients, ...clients]),
    invoices,
  };
  return names;
}

/** A page of events in plain words, times in APP_TIME_ZONE. */
export async function presentAuditEvents(
  events: readonly AuditEventView[],
  { timeZone = env().APP_TIME_ZONE, source = databaseNames }: { timeZone?: string; source?: NameSource } = {},
): Promise<AuditEventLine[]> {
  if (!events.length) return [];
  const names = await auditNames(events, source);
  return events.map((event) => describeAuditEvent(event, names, timeZone));
}

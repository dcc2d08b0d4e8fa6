// The audit trail (docs/decisions/0900). Every recorded change calls `recordAudit(tx, event)`
// with the transaction that makes the change, so the event and the change commit or roll back
// together: a refused or failed change leaves no event. The table is append-only (database
// triggers refuse UPDATE, DELETE and TRUNCATE).
//
// Request context (request id, client address) comes from the request scope the route wrapper
// sets for every loader and action (utils/request-scope.server.ts); code outside a request (a
// script, a test) may pass `context` itself or run inside `withAuditContext`.
import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type AuditEventRow, type Executor, type Role, type User } from "~/db.server";
import { can, assertCan, type Capability } from "~/rules/capabilities.server";
import { addDays, isValidDate, LAST_DATE } from "~/utils/dates";
import { FIRST_PAGE, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { isUuid, type PageRequest } from "~/utils/params";
import { requestScope } from "~/utils/request-scope.server";
import { env } from "~/utils/env.server";
import { hasControlCharacters } from "~/utils/text";
import { startOfDayIn } from "~/utils/zone-days.server";
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction, type AuditEntity } from "~/utils/audit-actions";
import type { AuditEventInput } from "~/utils/audit-words.server";

// The actions and entities live beside their wording (utils/audit-words.server.ts), which a
// test holds complete; models keep importing them from here.
export { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction, type AuditEntity } from "~/utils/audit-actions";

/** Where a change came from: the request's id (also sent as X-Request-Id) and client address. */
export type AuditContext = { requestId: string | null; clientAddress: string | null };

/**
 * Who made the change: a user (the e-mail is read from `users` in the same statement when not
 * given, and kept as a snapshot), or null for an anonymous sign-in failure.
 */
export type AuditActor = { id: string; email?: string | null } | null;

export type AuditEvent = {
  actor: AuditActor;
  action: AuditAction;
  entityType: AuditEntity;
  /** The entity's id (numbers and UUIDs alike are stored as text); null when none exists. */
  entityId: string | number | null;
  /** The whole row before the change (null for a create). Money stays a decimal string. */
  before?: Record<string, unknown> | null;
  /** The whole row after the change (null for a delete). */
  after?: Record<string, unknown> | null;
  /** Defaults to the current request's context (see `auditContext`). */
  context?: AuditContext;
};

/** The current request's context, or nulls outside a request. */
export function auditContext(): AuditContext {
  const scope = requestScope.getStore();
  return { requestId: scope?.requestId ?? null, clientAddress: scope?.clientAddress ?? null };
}

/** Runs `fn` with `context` as the audit context of every event it records (scripts, tests). */
export function withAuditContext<T>(context: AuditContext, fn: () => T): T {
  const scope = requestScope.getStore();
  return requestScope.run({ method: scope?.method ?? "", route: scope?.route ?? "", ...scope, ...context }, fn);
}

// Never written into the trail, whatever the row: the trail says that a password or factor
// changed (the action), never its value.
const SECRET_FIELDS = new Set([
  "password",
  "totpSecret",
  "totpLastStep",
  "credentialPublicKey",
  "counter",
  "challenge",
  "sess",
  "sid",
  "codeHash",
]);

/**
 * A row as the trail keeps it: dates as ISO strings, bigints as decimal strings, numeric
 * (money) columns as the exact decimal strings the driver returns, secrets left out.
 */
export function auditSnapshot(row: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (SECRET_FIELDS.has(key) || value === undefined) continue;
    out[key] = jsonValue(value);
  }
  return out;
}

function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && !Number.isSafeInteger(value)) return String(value);
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value && typeof value === "object") return auditSnapshot(value as Record<string, unknown>);
  return value;
}

/**
 * Writes one event with `tx`, the transaction of the change it records. Call it after the
 * change's own checks have passed, inside the same `db.transaction(...)`.
 */
export async function recordAudit(tx: Executor, event: AuditEvent): Promise<void> {
  const context = event.context ?? auditContext();
  const actorId = event.actor?.id ?? null;
  const actorEmail =
    event.actor?.email != null
      ? sql`${event.actor.email.toLowerCase()}`
      : actorId
        ? sql`(select ${schema.users.email} from ${schema.users} where ${schema.users.id} = ${actorId})`
        : sql`null`;
  await tx.insert(schema.auditEvents).values({
    actorId,
    actorEmail,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId === null ? null : String(event.entityId),
    before: auditSnapshot(event.before),
    after: auditSnapshot(event.after),
    requestId: context.requestId,
    clientAddress: context.clientAddress,
  });
}

/**
 * How many ids a change touched, and the lowest and highest. An invoice event records this, not
 * the ids themselves: a month's invoice covers thousands of deliveries, and its invoice_lines
 * keep the list (docs/decisions/0900, "Invoice events name a count").
 */
export type IdSpan = { count: number; firstId: number | null; lastId: number | null };

export function idSpan(ids: readonly unknown[]): IdSpan {
  let firstId: number | null = null;
  let lastId: number | null = null;
  for (const value of ids) {
    const id = Number(value);
    if (!Number.isFinite(id)) continue;
    if (firstId === null || id < firstId) firstId = id;
    if (lastId === null || id > lastId) lastId = id;
  }
  return { count: ids.length, firstId, lastId };
}

/** The span as an event's fields: `deliveryCount`, `firstDeliveryId`, `lastDeliveryId`. */
export function idSpanFields(noun: "delivery" | "freedDelivery", span: IdSpan): Record<string, number | null> {
  const Noun = noun[0].toUpperCase() + noun.slice(1);
  return { [`${noun}Count`]: span.count, [`first${Noun}Id`]: span.firstId, [`last${Noun}Id`]: span.lastId };
}

// Events written before invoice events were bounded named every id (`deliveryIds`, `freedDeliveryIds`); readers
// get the span new events record, so no page or answer carries thousands of ids.
const ID_LISTS = { deliveryIds: "delivery", freedDeliveryIds: "freedDelivery" } as const;

function spanIdLists(snapshot: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!snapshot) return null;
  let out = snapshot;
  for (const [field, noun] of Object.entries(ID_LISTS)) {
    const list = out[field];
    if (!Array.isArray(list)) continue;
    const { [field]: _list, ...rest } = out;
    out = { ...rest, ...idSpanFields(noun, idSpan(list)) };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading the trail

export const AUDIT_PAGE_SIZE = 50;

export type AuditFilters = {
  entityType?: AuditEntity;
  entityId?: string;
  /** A user id, or an e-mail (matched as stored, lower case). */
  actor?: string;
  action?: AuditAction;
  /** Calendar days in APP_TIME_ZONE, inclusive (the days the page shows its times in). */
  from?: string;
  to?: string;
};

/**
 * An event as the model reads it: the row, and the fields that differ before → after (all fields
 * of a create or a delete). The shape the wording (utils/audit-words.server.ts) takes.
 */
export type AuditEventView = AuditEventInput;
export type AuditChange = AuditEventView["changes"][number];

// Bookkeeping columns that change with every write and say nothing to a reader.
const NOISE = new Set(["updatedAt"]);

/** The fields that differ between two snapshots (a create lists `after`, a delete `before`). */
export function changedFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: AuditChange[] = [];
  for (const field of keys) {
    if (NOISE.has(field) && before && after) continue;
    const b = before ? (before[field] ?? null) : null;
    const a = after ? (after[field] ?? null) : null;
    if (before && after && JSON.stringify(b) === JSON.stringify(a)) continue;
    if (!before && a === null) continue;
    if (!after && b === null) continue;
    changes.push({ field, before: b, after: a });
  }
  return changes;
}

function toView(row: AuditEventRow): AuditEventView {
  const before = spanIdLists(row.before ?? null);
  const after = spanIdLists(row.after ?? null);
  return {
    id: row.id,
    time: row.time.toISOString(),
    actorId: row.actorId,
    actorEmail: row.actorEmail,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    before,
    after,
    changes: changedFields(before, after),
    requestId: row.requestId,
    clientAddress: row.clientAddress,
  };
}

/**
 * Reads filters from a query string. `invalid` names a filter that was given but refused:
 * /api answers 400, the page ignores it.
 */
export function parseAuditFilters(params: URLSearchParams): { filters: AuditFilters; invalid: string | null } {
  const filters: AuditFilters = {};
  let invalid: string | null = null;
  const get = (name: string) => params.get(name)?.trim() || "";
  const entity = get("entity");
  if (entity) {
    if ((AUDIT_ENTITIES as readonly string[]).includes(entity)) filters.entityType = entity as AuditEntity;
    else invalid ??= "entity";
  }
  const entityId = get("entityId");
  if (entityId) {
    if (entityId.length <= 100 && !hasControlCharacters(entityId)) filters.entityId = entityId;
    else invalid ??= "entityId";
  }
  const actor = get("actor");
  if (actor) {
    if (actor.length <= 320 && !hasControlCharacters(actor)) filters.actor = actor;
    else invalid ??= "actor";
  }
  const action = get("action");
  if (action) {
    if ((AUDIT_ACTIONS as readonly string[]).includes(action)) filters.action = action as AuditAction;
    else invalid ??= "action";
  }
  for (const name of ["from", "to"] as const) {
    const value = get(name);
    if (!value) continue;
    if (isValidDate(value)) filters[name] = value;
    else invalid ??= name;
  }
  return { filters, invalid };
}

/** Entities whose own history is shown on their pages to the roles that see those pages. */
const HISTORY_CAPABILITY: Partial<Record<AuditEntity, Capability>> = {
  delivery: "delivery.financials",
  invoice: "invoice.manage",
  credit_note: "invoice.manage",
  payment: "payment.record",
  agent_payout: "agent.settle",
};

type Viewer = Pick<User, "id" | "role"> & { email?: string };

/** True when `viewer` may read the trail with these filters (see `listAuditEvents`). */
export function canReadAudit(viewer: Pick<User, "role">, filters: AuditFilters): boolean {
  if (can(viewer, "audit.view")) return true;
  const own = filters.entityType ? HISTORY_CAPABILITY[filters.entityType] : undefined;
  return !!own && !!filters.entityId && can(viewer, own);
}

const KEYSET = { id: schema.auditEvents.id };

/**
 * Ids and times grow together, but not in lockstep: an event's time is its transaction's start
 * (`now()`), its id is taken when it is written, a little later. Nothing the app does holds a
 * transaction open anywhere near this long between the two (decision 0700's timeouts end an
 * idle one after 10 s), so an event whose time is more than this before another's was written
 * before it, and has the smaller id.
 */
export const AUDIT_WRITE_DELAY_MS = 60 * 60 * 1000;

/**
 * A date range as an id range too, so a page walks ids (the primary key, or a filter's (x, id)
 * index) from where the range begins instead of every newer event: each bound is one probe on
 * (time), widened by AUDIT_WRITE_DELAY_MS; the exact time conditions still decide.
 */
function idBoundsOf(from: Date | null, before: Date | null): SQL[] {
  const t = schema.auditEvents;
  const bounds: SQL[] = [];
  if (from) {
    const earlier = new Date(from.getTime() - AUDIT_WRITE_DELAY_MS);
    // Written before any event of the range: its id is below all of theirs.
    bounds.push(
      sql`${t.id} > coalesce((select probe.id from ${t} as probe where probe.time < ${earlier.toISOString()}::timestamptz order by probe.time desc limit 1), 0)`,
    );
  }
  if (before) {
    const later = new Date(before.getTime() + AUDIT_WRITE_DELAY_MS);
    // Written after every event of the range: its id is above all of theirs.
    bounds.push(
      sql`${t.id} < coalesce((select probe.id from ${t} as probe where probe.time >= ${later.toISOString()}::timestamptz order by probe.time limit 1), ${Number.MAX_SAFE_INTEGER})`,
    );
  }
  return bounds;
}

/**
 * A keyset page of the trail, newest first (id descending), `limit` events a page; never the
 * whole table. Admins (`audit.view`) read everything. One entity's own history (`entityType`
 * and `entityId` both given) is also open to the roles that see that entity's page: deliveries
 * and invoices to managers. Anyone else gets the 403 a route guard would answer.
 */
export async function listAuditEvents(
  viewer: Viewer,
  filters: AuditFilters,
  { limit = AUDIT_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
): Promise<{ events: AuditEventView[]; olderCursor: string | null; newerCursor: string | null }> {
  if (!canReadAudit(viewer, filters)) assertCan(viewer, "audit.view", "audit");
  const rows = await auditPageQuery(await getDb(), filters, page, limit);
  const { items, olderCursor, newerCursor } = toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
  return { events: items.map(toView), olderCursor, newerCursor };
}

/**
 * The page query itself (the scale tests EXPLAIN it). Each filter has an (x, id) index, so a
 * page reads its own events in order: `(entity_type, entity_id, id)`, `(entity_id, id)` for an
 * entity id alone, `(actor_id, id)`, `(actor_email, id)`, `(action, id)`; a date range is also
 * an id range (idBoundsOf).
 */
export function auditPageQuery(
  db: Executor,
  filters: AuditFilters,
  page: PageRequest,
  limit: number,
  timeZone = env().APP_TIME_ZONE,
) {
  const t = schema.auditEvents;
  const where: (SQL | undefined)[] = [];
  if (filters.entityType) where.push(eq(t.entityType, filters.entityType));
  if (filters.entityId) where.push(eq(t.entityId, filters.entityId));
  if (filters.actor) {
    const actor = filters.actor.trim().toLowerCase();
    where.push(isUuid(actor) ? eq(t.actorId, actor) : eq(t.actorEmail, actor));
  }
  if (filters.action) where.push(eq(t.action, filters.action));
  const from = filters.from ? startOfDayIn(timeZone, filters.from) : null;
  // The end of `to` is the next day's start; the last day a date can be (9999-12-31) has none
  // to compute, and needs no bound (decision 0841).
  const before = filters.to && filters.to < LAST_DATE ? startOfDayIn(timeZone, addDays(filters.to, 1)) : null;
  if (from) where.push(gte(t.time, from));
  if (before) where.push(lt(t.time, before));
  where.push(...idBoundsOf(from, before));
  where.push(keysetWhere(KEYSET, page));
  return db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(...keysetOrder(KEYSET, page))
    .limit(limit + 1);
}

/** Roles that may read the whole trail (for navigation). */
export const canViewAudit = (viewer: { role: Role }) => can(viewer, "audit.view");

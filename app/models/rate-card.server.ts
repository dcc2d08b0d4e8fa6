// Rate cards (docs/decisions/1230): added and deleted by admins, read by managers, never changed.
// `resolveRates` is what a new delivery snapshots: one statement of index probes, one per kind
// and scope (rules/rate-cards.ts picks among the answers, as it does in the tests).
import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import { getDb, rowsOf, schema, type Executor, type RateKind, type Settings } from "~/db.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { cardFor, scopesOf, siteKey, tieOf, type DeliveryScope, type Scope } from "~/rules/rate-cards";
import {
  RATE_CARD_DAYS_AHEAD,
  RATE_CARD_KINDS,
  RATE_KIND_LABELS,
  RateCardSchema,
  SITE_MAX,
} from "~/schemas/rate-cards";
import { safeParseFields } from "~/schemas/fields";
import { addDays, formatDate, isValidDate, todayIn } from "~/utils/dates";
import { parseId } from "~/utils/params";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import { formatNaira } from "~/utils/money";
import { fail, failOn, Refusal, type Failure, type Result } from "~/utils/result";
import { recordAudit } from "./audit.server";
import { agentExists, clientExists } from "./delivery.server";
import { checkPeriodOpen } from "./period.server";

const c = schema.rateCards;
const d = schema.deliveries;

/** A card as pages and the API show it: the rate a decimal string, the names of what it names. */
export type RateCardView = {
  id: number;
  kind: RateKind;
  rate: string;
  validFrom: string;
  clientId: number | null;
  clientName: string | null;
  agentId: number | null;
  agentName: string | null;
  site: string | null;
  createdAt: string;
  /** On a list: "in force" today, "replaced" by a later card of its scope, or "upcoming". */
  status?: CardStatus;
};
export type CardStatus = "in force" | "replaced" | "upcoming";

/** A page shows at most this many cards. */
export const RATE_CARDS_SHOWN = 50;

/** The advisory lock of one kind's cards (two keys: 1230 and the kind's place): held by whoever adds or deletes one. */
const kindLock = (kind: RateKind) => sql`select pg_advisory_xact_lock(1230, ${RATE_CARD_KINDS.indexOf(kind)})`;
/** Held shared by a new delivery while it resolves and writes: no card it read is deleted under it, none added mid-way. */
export const sharedCardLocks = () =>
  sql`select ${sql.join(
    RATE_CARD_KINDS.map((_, i) => sql`pg_advisory_xact_lock_shared(1230, ${i})`),
    sql`, `,
  )}`;

const VIEW_COLUMNS = {
  id: c.id,
  kind: c.kind,
  rate: c.rate,
  validFrom: c.validFrom,
  clientId: c.clientId,
  clientName: schema.clients.name,
  agentId: c.agentId,
  agentName: schema.agents.name,
  site: c.site,
  createdAt: c.createdAt,
};

type Row = Omit<RateCardView, "createdAt" | "status"> & { createdAt: Date; status?: string };
const view = ({ createdAt, status, ...row }: Row): RateCardView => ({
  ...row,
  createdAt: createdAt.toISOString(),
  ...(status ? { status: status as CardStatus } : {}),
});

/** A later card of the outer card's own scope started by `today`: one branch per pattern of named and open columns, each an index probe. */
function sameScopeLater(today: string): SQL {
  const branches: SQL[] = [];
  for (const client of [true, false])
    for (const agent of [true, false])
      for (const site of [true, false]) {
        const named = { client_id: client, agent_id: agent, site_key: site };
        const outer = Object.entries(named)
          .map(([name, on]) => `rate_cards.${name} is ${on ? "not " : ""}null`)
          .join(" and ");
        const inner = Object.entries(named)
          .map(([name, on]) => (on ? `n.${name} = rate_cards.${name}` : `n.${name} is null`))
          .join(" and ");
        branches.push(
          sql`(${sql.raw(outer)} and exists (select 1 from rate_cards n where n.kind = rate_cards.kind and ${sql.raw(inner)} and n.valid_from > rate_cards.valid_from and n.valid_from <= ${today}))`,
        );
      }
  return sql.join(branches, sql` or `);
}

const statusSql = (today: string) =>
  sql<string>`case when ${c.validFrom} > ${today} then 'upcoming' when ${sameScopeLater(today)} then 'replaced' else 'in force' end`;

export type RateCardFilters = {
  kind?: RateKind | null;
  clientId?: number | null;
  agentId?: number | null;
  site?: string | null;
  /** Only the cards in force today. */
  inForce?: boolean;
  /** Cards older than this id (the next page). */
  before?: number | null;
};

/**
 * The cards, newest first (by id), filtered, at most `limit`, each with its status today; `more`
 * when there are others (the next page starts `before` the last id). Managers and admins (`rate.view`).
 */
export async function listRateCards(
  actor: Actor,
  filters: RateCardFilters = {},
  { limit = RATE_CARDS_SHOWN, now = new Date() }: { limit?: number; now?: Date } = {},
  db?: Executor,
): Promise<{ items: RateCardView[]; more: boolean; today: string }> {
  assertCan(actor, "rate.view", "rate-cards");
  db ??= await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await cardsQuery(db, filters, today, limit);
  return { items: rows.slice(0, limit).map(view), more: rows.length > limit, today };
}

/** The Rates list's one statement (a test reads its plan): newest first by id, `limit` + 1 rows. */
export function cardsQuery(db: Executor, filters: RateCardFilters, today: string, limit: number) {
  const where: (SQL | undefined)[] = [
    filters.kind ? eq(c.kind, filters.kind) : undefined,
    filters.clientId ? eq(c.clientId, filters.clientId) : undefined,
    filters.agentId ? eq(c.agentId, filters.agentId) : undefined,
    filters.site ? eq(c.siteKey, siteKey(filters.site)) : undefined,
    filters.before ? lt(c.id, filters.before) : undefined,
    filters.inForce ? sql`${statusSql(today)} = 'in force'` : undefined,
  ];
  return db
    .select({ ...VIEW_COLUMNS, status: statusSql(today) })
    .from(c)
    .leftJoin(schema.clients, eq(schema.clients.id, c.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, c.agentId))
    .where(and(...where))
    .orderBy(desc(c.id))
    .limit(limit + 1);
}

export async function getRateCard(id: number, db?: Executor): Promise<RateCardView | null> {
  db ??= await getDb();
  const [row] = await db
    .select(VIEW_COLUMNS)
    .from(c)
    .leftJoin(schema.clients, eq(schema.clients.id, c.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, c.agentId))
    .where(eq(c.id, id));
  return row ? view(row) : null;
}

/** A card's scope in words: "Dangote · Musa Bello · Ikot Ekpene", or "Every delivery". */
export function scopeWords(card: Pick<RateCardView, "clientName" | "agentName" | "site" | "clientId" | "agentId">) {
  const parts = [
    card.clientId !== null ? (card.clientName ?? `Client #${card.clientId}`) : null,
    card.agentId !== null ? (card.agentName ?? `Agent #${card.agentId}`) : null,
    card.site,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "Every delivery";
}

/** The card in one line: "Selling rate ₦70,000.00 for Dangote from Mar 01, 2026 (card #3)". */
export const cardWords = (card: RateCardView) =>
  `${RATE_KIND_LABELS[card.kind]} ${formatNaira(card.rate)} for ${scopeWords(card)} from ${formatDate(card.validFrom)} (card #${card.id})`;

// ---- Which cards apply to a delivery

/** A card as the resolution reads it. */
export type ResolvedCard = Scope & { id: number; kind: RateKind; rate: string; validFrom: string };

/**
 * The resolution's one statement: for each kind and each scope the delivery can match, the
 * latest card on or before its day, one index probe each (`order by valid_from desc limit 1`).
 */
export function resolutionSql(delivery: DeliveryScope): SQL {
  const probes: SQL[] = [];
  for (const kind of RATE_CARD_KINDS)
    for (const scope of scopesOf(delivery)) {
      const is = (column: SQL, value: number | string | null) =>
        value === null ? sql`${column} is null` : sql`${column} = ${value}`;
      probes.push(
        sql`(select id, kind, rate::text as rate, valid_from::text as "validFrom", client_id as "clientId", agent_id as "agentId", site_key as "siteKey" from rate_cards where kind = ${kind} and ${is(sql`client_id`, scope.clientId)} and ${is(sql`agent_id`, scope.agentId)} and ${is(sql`site_key`, scope.siteKey)} and valid_from <= ${delivery.date} order by valid_from desc limit 1)`,
      );
    }
  return sql.join(probes, sql` union all `);
}

export type Resolution = Record<RateKind, ResolvedCard | null>;

/** The card of each kind that applies to a delivery (null: none does). Not checked: New Delivery's write reads it. */
export async function resolveCards(delivery: DeliveryScope, db?: Executor): Promise<Resolution> {
  db ??= await getDb();
  const rows = rowsOf<ResolvedCard>(await db.execute(resolutionSql(delivery))).map((r) => ({
    ...r,
    id: Number(r.id),
    clientId: r.clientId === null ? null : Number(r.clientId),
    agentId: r.agentId === null ? null : Number(r.agentId),
  }));
  return Object.fromEntries(RATE_CARD_KINDS.map((kind) => [kind, cardFor(rows, kind, delivery)])) as Resolution;
}

/** One kind's rate as it will apply: from a card, System Settings' default, or nothing (haulage without a card). */
export type AppliedRate = { rate: string | null; cardId: number | null; source: "card" | "default" | null };

/** What applies with System Settings' defaults where no card does (haulage has no default). */
export function withDefaults(resolution: Resolution, settings: Settings): Record<RateKind, AppliedRate> {
  const pick = (card: ResolvedCard | null, fallback: string | null): AppliedRate =>
    card
      ? { rate: card.rate, cardId: card.id, source: "card" }
      : fallback === null
        ? { rate: null, cardId: null, source: null }
        : { rate: fallback, cardId: null, source: "default" };
  return {
    buying: pick(resolution.buying, settings.buyingRate),
    selling: pick(resolution.selling, settings.sellingRate),
    offloading: pick(resolution.offloading, settings.offloadingCost),
    haulage: pick(resolution.haulage, null),
  };
}

/** The rates a delivery of this day, client, agent and site would get: managers and admins (`rate.view`). */
export async function ratesFor(
  actor: Actor,
  delivery: { date: string; clientId: number | null; agentId: number | null; site: string | null },
  settings: Settings,
): Promise<Record<RateKind, AppliedRate>> {
  assertCan(actor, "rate.view", "rate-cards/resolve");
  const key = delivery.site ? siteKey(delivery.site) : "";
  const resolution = await resolveCards({ ...delivery, siteKey: key || null });
  return withDefaults(resolution, settings);
}

// ---- Adding and deleting

const latestStart = (now: Date) => addDays(todayIn(env().APP_TIME_ZONE, now), RATE_CARD_DAYS_AHEAD);

/**
 * Adds a card. Refused with nothing written: without `rate.manage` (403); bad fields (400 under
 * each); a start more than a year ahead (400); an unknown client or agent (400 under it); a start
 * in a closed month (409, decision 0901); a card that would tie with another for some delivery
 * (409 under the date, naming that card). One transaction, under the kind's advisory lock, so two
 * admins adding cards that would tie cannot both succeed.
 */
export async function createRateCard(
  actor: Actor,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<Result<{ card: RateCardView }>> {
  const refused = refuse(actor, "rate.manage", "rate-cards");
  if (refused) return refused;
  const parsed = safeParseFields(RateCardSchema, input);
  if (!parsed.success) {
    const { message, fieldErrors } = fieldErrorsOf(parsed.error);
    return fail(400, message, fieldErrors);
  }
  const { kind, rate, validFrom, site } = parsed.data;
  const clientId = parsed.data.clientId ?? null;
  const agentId = parsed.data.agentId ?? null;
  const latest = latestStart(now);
  if (validFrom > latest) {
    return failOn(400, "validFrom", `Valid from must be no later than ${formatDate(latest)} (a year ahead)`);
  }
  const key = site ? siteKey(site) : null;
  const db = await getDb();
  try {
    const id = await db.transaction(async (tx) => {
      await tx.execute(kindLock(kind));
      if (clientId !== null) {
        const [client] = await tx
          .select({ id: schema.clients.id })
          .from(schema.clients)
          .where(eq(schema.clients.id, clientId))
          .for("share");
        if (!client) throw new Refusal(failOn(400, "clientId", "Client not found"));
      }
      if (agentId !== null) {
        const [agent] = await tx
          .select({ id: schema.agents.id })
          .from(schema.agents)
          .where(eq(schema.agents.id, agentId))
          .for("share");
        if (!agent) throw new Refusal(failOn(400, "agentId", "Agent not found"));
      }
      const closed = await checkPeriodOpen(tx, validFrom);
      if (closed) throw new Refusal(failOn(409, "validFrom", closed.message));
      const sameDay = await tx
        .select({
          id: c.id,
          kind: c.kind,
          validFrom: c.validFrom,
          clientId: c.clientId,
          agentId: c.agentId,
          siteKey: c.siteKey,
        })
        .from(c)
        .where(and(eq(c.kind, kind), eq(c.validFrom, validFrom)));
      const tie = tieOf(sameDay, { kind, validFrom, clientId, agentId, siteKey: key });
      if (tie) {
        const other = (await getRateCard(tie.id, tx))!;
        throw new Refusal(
          failOn(
            409,
            "validFrom",
            `This card would tie with ${cardWords(other)}: both would apply to the same deliveries from the same day. Start it on another day, or name more or less of client, agent and site`,
          ),
        );
      }
      const [created] = await tx
        .insert(c)
        .values({ kind, rate, validFrom, clientId, agentId, site: site ?? null, siteKey: key, createdBy: actor.id })
        .returning();
      await recordAudit(tx, {
        actor,
        action: "rate_card.create",
        entityType: "rate_card",
        entityId: created.id,
        after: created,
      });
      return created.id;
    });
    return { ok: true, card: (await getRateCard(id))! };
  } catch (error) {
    if (error instanceof Refusal) return error.failure;
    throw error;
  }
}

export const CARD_USED_MESSAGE =
  "This card has priced deliveries and cannot be deleted; add a card from a later date to replace it";

/** The delivery column that names a card of this kind. */
const cardColumn = (kind: RateKind) =>
  ({
    buying: d.buyingRateCardId,
    selling: d.sellingRateCardId,
    offloading: d.offloadingCostCardId,
    haulage: d.haulageCardId,
  })[kind];

/** Deletes a card no delivery has used (409 once used; 404 unknown). Admins (`rate.manage`); audited. */
export async function deleteRateCard(actor: Actor, id: number): Promise<{ ok: true } | Failure> {
  const refused = refuse(actor, "rate.manage", `rate-card/${id}`);
  if (refused) return refused;
  const db = await getDb();
  const [seen] = await db.select({ kind: c.kind }).from(c).where(eq(c.id, id));
  if (!seen) return fail(404, "Rate card not found");
  return db.transaction(async (tx): Promise<{ ok: true } | Failure> => {
    // The kind's lock first: a delivery resolving cards holds it shared, so it finishes first.
    await tx.execute(kindLock(seen.kind));
    const [card] = await tx.select().from(c).where(eq(c.id, id)).for("update");
    if (!card) return fail(404, "Rate card not found");
    const column = cardColumn(card.kind);
    const [used] = await tx.select({ id: d.id }).from(d).where(eq(column, id)).limit(1);
    if (used) return fail(409, CARD_USED_MESSAGE);
    await tx.delete(c).where(eq(c.id, id));
    await recordAudit(tx, { actor, action: "rate_card.delete", entityType: "rate_card", entityId: id, before: card });
    return { ok: true };
  });
}

/** The cards naming a client or an agent, newest start first (its page; `rate.view`). */
export async function cardsNaming(
  actor: Actor,
  of: { clientId: number } | { agentId: number },
  { limit = RATE_CARDS_SHOWN, now = new Date() }: { limit?: number; now?: Date } = {},
): Promise<{ items: RateCardView[]; more: boolean }> {
  assertCan(actor, "rate.view", "rate-cards");
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await db
    .select({ ...VIEW_COLUMNS, status: statusSql(today) })
    .from(c)
    .leftJoin(schema.clients, eq(schema.clients.id, c.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, c.agentId))
    .where("clientId" in of ? eq(c.clientId, of.clientId) : eq(c.agentId, of.agentId))
    .orderBy(desc(c.validFrom), desc(c.id))
    .limit(limit + 1);
  return { items: rows.slice(0, limit).map(view), more: rows.length > limit };
}

// ---- Reading a page's or a call's query

/** The list's filters from a query (`kind`, `clientId`, `agentId`, `site`, `inForce`, `before`), or the field that is wrong. */
export function readCardFilters(params: URLSearchParams): Result<{ filters: RateCardFilters }, 400> {
  const kind = params.get("kind") || null;
  if (kind && !(RATE_CARD_KINDS as readonly string[]).includes(kind)) {
    return failOn(400, "kind", "Kind must be buying, selling, offloading or haulage");
  }
  const ids: Record<"clientId" | "agentId" | "before", number | null> = { clientId: null, agentId: null, before: null };
  for (const name of ["clientId", "agentId", "before"] as const) {
    const raw = params.get(name);
    if (!raw) continue;
    const id = parseId(raw);
    if (id === null)
      return failOn(
        400,
        name,
        `${name === "before" ? "The page" : name === "clientId" ? "Client" : "Agent"} is not valid`,
      );
    ids[name] = id;
  }
  const site = params.get("site")?.trim() || null;
  if (site && site.length > SITE_MAX) return failOn(400, "site", `Pick-up site must be at most ${SITE_MAX} characters`);
  return {
    ok: true,
    filters: {
      kind: kind as RateKind | null,
      ...ids,
      site: site && siteKey(site) ? site : null,
      inForce: params.get("inForce") === "1",
    },
  };
}

/**
 * The resolve call's query (`date`, `clientId`, `agentId`, `site`): the date defaults to today; a
 * date that is not a real day, an id that is not one, or a client or agent that does not exist is
 * a 400 naming the field.
 */
export async function readResolveQuery(
  params: URLSearchParams,
  now = new Date(),
): Promise<
  Result<{ query: { date: string; clientId: number | null; agentId: number | null; site: string | null } }, 400>
> {
  const date = params.get("date")?.trim() || todayIn(env().APP_TIME_ZONE, now);
  if (!isValidDate(date)) return failOn(400, "date", "Date must be a real date (yyyy-mm-dd)");
  const read = (name: "clientId" | "agentId") => {
    const raw = params.get(name)?.trim();
    return raw ? parseId(raw) : null;
  };
  const clientId = read("clientId");
  const agentId = read("agentId");
  if (params.get("clientId")?.trim() && clientId === null) return failOn(400, "clientId", "Client is not valid");
  if (params.get("agentId")?.trim() && agentId === null) return failOn(400, "agentId", "Agent is not valid");
  if (clientId !== null && !(await clientExists(clientId))) return failOn(400, "clientId", "Client not found");
  if (agentId !== null && !(await agentExists(agentId))) return failOn(400, "agentId", "Agent not found");
  const site = params.get("site")?.trim() || null;
  if (site && site.length > SITE_MAX) return failOn(400, "site", `Pick-up site must be at most ${SITE_MAX} characters`);
  return { ok: true, query: { date, clientId, agentId, site } };
}

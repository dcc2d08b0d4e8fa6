// Rate cards (docs/decisions/1230), on PGlite and PostgreSQL: cards added and refused (bad
// fields, unknown client or agent, closed month, ties, also two admins at once), deleted until
// used; deliveries recorded across a card change get the rates of their day and keep them after a
// later card; haulage priced on the loaded tons as finally recorded; the resolution and the
// Rates page's "in force today" read indexes with 10,000 cards; the JSON calls; every route per role.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type Agent, type Client, type User } from "../../app/db.server";
import { closeMonth } from "../../app/models/period.server";
import {
  cardsQuery,
  createRateCard,
  deleteRateCard,
  listRateCards,
  resolutionSql,
  resolveCards,
} from "../../app/models/rate-card.server";
import { cardFor } from "../../app/rules/rate-cards";
import * as apiCard from "../../app/routes/api.rate-cards.$id";
import * as apiCards from "../../app/routes/api.rate-cards";
import * as apiResolve from "../../app/routes/api.rate-cards.resolve";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import { describeAccess } from "../access";
import { expectEveryEventWorded } from "../audit-words";
import { createAgent, createClient, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("rate cards", [
  { name: "api list", handler: apiCards.loader, method: "GET", path: "/api/rate-cards", allowed: ["manager", "admin"] },
  {
    name: "api add",
    handler: apiCards.action,
    method: "POST",
    path: "/api/rate-cards",
    // An unknown client: allowed, answered 400, and no card left to price the deliveries below.
    json: { kind: "selling", rate: "1", validFrom: "2026-01-01", clientId: 999999 },
    allowed: ["admin"],
  },
  {
    name: "api one",
    handler: apiCard.loader,
    method: "GET",
    path: "/api/rate-cards/1",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api delete",
    handler: apiCard.action,
    method: "DELETE",
    path: "/api/rate-cards/999999",
    params: { id: "999999" },
    allowed: ["admin"],
  },
  {
    name: "api resolve",
    handler: apiResolve.loader,
    method: "GET",
    path: "/api/rate-cards/resolve?date=2026-01-01",
    allowed: ["manager", "admin"],
  },
]);

const NOW = new Date("2026-03-15T12:00:00Z");
let admin: User;
let adminCookie: string;
let staffCookie: string;
let managerCookie: string;

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Kodan";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  ({ user: admin, cookie: adminCookie } = await loginAs("admin"));
  ({ cookie: staffCookie } = await loginAs("staff"));
  ({ cookie: managerCookie } = await loginAs("manager"));
  await createClient({ name: "KODAN" });
  const db = await getDb();
  const defaults = { buyingRate: "50000.00", sellingRate: "60000.00", offloadingCost: "10000.00" };
  await db
    .insert(schema.settings)
    .values({ id: 1, ...defaults })
    .onConflictDoUpdate({ target: schema.settings.id, set: defaults });
});

const card = (kind: string, rate: string, validFrom: string, scope: Record<string, unknown> = {}) => ({
  kind,
  rate,
  validFrom,
  ...scope,
});

type Refused = { ok: false; status: number; message: string; fieldErrors?: Record<string, string[]> };

describe("adding a card", () => {
  let client: Client;
  let agent: Agent;
  beforeAll(async () => {
    client = await createClient();
    agent = await createAgent();
  });

  it("adds a card with its scope, the site as typed, and one audit event", async () => {
    const added = await createRateCard(
      admin,
      card("buying", "51000", "2026-02-01", { clientId: client.id, agentId: agent.id, site: "  Ikot  Ekpene " }),
      NOW,
    );
    expect(added).toMatchObject({
      ok: true,
      card: {
        kind: "buying",
        rate: "51000.00",
        validFrom: "2026-02-01",
        clientName: client.name,
        site: "Ikot  Ekpene",
      },
    });
    const db = await getDb();
    const id = added.ok ? added.card.id : 0;
    const [row] = await db.select().from(schema.rateCards).where(eq(schema.rateCards.id, id));
    expect(row).toMatchObject({ siteKey: "ikotekpene", createdBy: admin.id });
    const events = await db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.entityId, String(id)));
    expect(events.filter((e) => e.action === "rate_card.create")).toHaveLength(1);
  });

  it("refuses bad fields by name, with nothing written", async () => {
    const db = await getDb();
    const [{ n: before }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from rate_cards`));
    const cases: [Record<string, unknown>, string][] = [
      [card("selling", "-1", "2026-02-01"), "rate"],
      [card("selling", "1.005", "2026-02-01"), "rate"],
      [card("selling", "", "2026-02-01"), "rate"],
      [card("selling", "10", "2026-02-30"), "validFrom"],
      [card("selling", "10", "1999-12-31"), "validFrom"],
      [card("selling", "10", "2027-06-01"), "validFrom"],
      [card("retail", "10", "2026-02-01"), "kind"],
      [card("selling", "10", "2026-02-01", { clientId: 999999 }), "clientId"],
      [card("selling", "10", "2026-02-01", { agentId: 999999 }), "agentId"],
      [card("selling", "10", "2026-02-01", { clientId: "x" }), "clientId"],
    ];
    for (const [input, field] of cases) {
      const result = (await createRateCard(admin, input, NOW)) as Refused;
      expect(result.ok, JSON.stringify(input)).toBe(false);
      expect(result.status).toBe(400);
      expect(Object.keys(result.fieldErrors ?? {})).toContain(field);
    }
    const [{ n: after }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from rate_cards`));
    expect(after).toBe(before);
  });

  it("refuses a card that would tie, naming the card it ties with", async () => {
    const first = await createRateCard(admin, card("selling", "70000", "2026-02-10", { clientId: client.id }), NOW);
    expect(first.ok).toBe(true);
    const same = (await createRateCard(
      admin,
      card("selling", "71000", "2026-02-10", { clientId: client.id }),
      NOW,
    )) as Refused;
    expect(same).toMatchObject({ status: 409 });
    expect(same.fieldErrors?.validFrom?.[0]).toMatch(
      /tie with Selling rate ₦70,000\.00 for .* from Feb 10, 2026 \(card #\d+\)/,
    );
    const other = (await createRateCard(
      admin,
      card("selling", "72000", "2026-02-10", { site: "Aba" }),
      NOW,
    )) as Refused;
    expect(other.status).toBe(409);
    // Another day, or naming more, is no tie.
    expect((await createRateCard(admin, card("selling", "72000", "2026-02-11", { site: "Aba" }), NOW)).ok).toBe(true);
    expect(
      (await createRateCard(admin, card("selling", "73000", "2026-02-10", { clientId: client.id, site: "Aba" }), NOW))
        .ok,
    ).toBe(true);
  });

  it("two admins adding tying cards at once: one lands, the other is refused", async () => {
    const other = await createClient();
    const [a, b] = await Promise.all([
      createRateCard(admin, card("haulage", "900", "2026-02-20", { clientId: other.id }), NOW),
      createRateCard(admin, card("haulage", "950", "2026-02-20", { agentId: agent.id }), NOW),
    ]);
    expect([a.ok, b.ok].sort()).toEqual([false, true]);
    expect((a.ok ? b : a) as Refused).toMatchObject({ status: 409 });
  });

  it("refuses a start in a closed month; a card is never changed in the database", async () => {
    expect(await closeMonth(admin, { month: "2025-06" }, NOW)).toMatchObject({ ok: true });
    const closed = (await createRateCard(admin, card("offloading", "1", "2025-06-30"), NOW)) as Refused;
    expect(closed.status).toBe(409);
    expect(closed.fieldErrors?.validFrom?.[0]).toMatch(/closed/);
    const db = await getDb();
    await expect(db.execute(sql`update rate_cards set rate = 1`)).rejects.toThrow();
  });
});

describe("deliveries snapshot the cards of their day", () => {
  let client: Client;
  let agent: Agent;
  beforeAll(async () => {
    client = await createClient();
    agent = await createAgent();
  });

  const record = async (json: Record<string, unknown>) => {
    const res = await call(
      apiDeliveries.action,
      makeRequest("/api/deliveries", { method: "POST", cookie: staffCookie, json }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const db = await getDb();
    const [row] = await db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, (res.body as { id: number }).id));
    return row;
  };

  it("across a card change each delivery gets its day's rates, and keeps them after a later card", async () => {
    const site = "Uyo Depot";
    const sell1 = await createRateCard(admin, card("selling", "61000", "2026-04-01", { clientId: client.id }), NOW);
    const buy1 = await createRateCard(admin, card("buying", "49000", "2026-04-01", { site: "uyo depot" }), NOW);
    const sell2 = await createRateCard(admin, card("selling", "62500.50", "2026-04-10", { clientId: client.id }), NOW);
    if (!sell1.ok || !buy1.ok || !sell2.ok) throw new Error("cards not added");
    const base = { agentId: agent.id, clientId: client.id, location: site, tons: "10" };
    const before = await record({ ...base, date: "2026-03-31" });
    const first = await record({ ...base, date: "2026-04-09" });
    const second = await record({ ...base, date: "2026-04-10" });
    expect(before).toMatchObject({
      sellingRate: "60000.00",
      sellingRateSource: "default",
      sellingRateCardId: null,
      buyingRate: "50000.00",
      buyingRateSource: "default",
      offloadingCost: "10000.00",
      offloadingCostSource: "default",
      logisticsCost: null,
      logisticsCostSource: null,
    });
    expect(first).toMatchObject({
      sellingRate: "61000.00",
      sellingRateCardId: sell1.card.id,
      sellingRateSource: "card",
      buyingRate: "49000.00",
      buyingRateCardId: buy1.card.id,
    });
    expect(second).toMatchObject({ sellingRate: "62500.50", sellingRateCardId: sell2.card.id });
    // A later card for the same days changes nothing recorded.
    expect(
      (await createRateCard(admin, card("selling", "99000", "2026-04-05", { clientId: client.id, site }), NOW)).ok,
    ).toBe(true);
    const db = await getDb();
    const [kept] = await db.select().from(schema.deliveries).where(eq(schema.deliveries.id, first.id));
    expect(kept).toMatchObject({ sellingRate: "61000.00", sellingRateCardId: sell1.card.id });
    const later = await record({ ...base, date: "2026-04-09" });
    expect(later.sellingRate).toBe("99000.00");
  });

  it("haulage is the logistics cost, rate × the loaded tons as finally recorded, unless one is typed", async () => {
    const other = await createAgent();
    const haul = await createRateCard(admin, card("haulage", "1500", "2026-05-01", { agentId: other.id }), NOW);
    if (!haul.ok) throw new Error("card not added");
    const base = { agentId: other.id, clientId: client.id, location: "Calabar road", date: "2026-05-02" };
    const typedTons = await record({ ...base, tons: "20.5" });
    expect(typedTons).toMatchObject({
      logisticsCost: "30750.00",
      haulageCardId: haul.card.id,
      logisticsCostSource: "card",
    });
    // Blank tons, the loading ticket's net: 30,550 kg is 30.550 t.
    const ticketed = await record({
      ...base,
      tons: "",
      loadingTicket: {
        ticketNo: "H-1",
        truckNo: "KJA 1 AB",
        grossKg: 45550,
        tareKg: 15000,
        weighedAt: "2026-05-02T07:00",
      },
    });
    expect(ticketed).toMatchObject({ tons: "30.550", logisticsCost: "45825.00", haulageCardId: haul.card.id });
    const typed = await record({ ...base, tons: "20", logisticsCost: "12000" });
    expect(typed).toMatchObject({ logisticsCost: "12000.00", haulageCardId: null, logisticsCostSource: "typed" });
  });

  it("a card a delivery used cannot be deleted; an unused one can, audited", async () => {
    const used = await createRateCard(admin, card("offloading", "9000", "2026-06-01", { clientId: client.id }), NOW);
    const spare = await createRateCard(admin, card("offloading", "8000", "2026-08-01", { clientId: client.id }), NOW);
    if (!used.ok || !spare.ok) throw new Error("cards not added");
    const delivery = await record({
      agentId: agent.id,
      clientId: client.id,
      location: "Eket",
      tons: "5",
      date: "2026-06-02",
    });
    expect(delivery).toMatchObject({ offloadingCost: "9000.00", offloadingCostCardId: used.card.id });
    const del = (id: number) =>
      call(apiCard.action, makeRequest(`/api/rate-cards/${id}`, { method: "DELETE", cookie: adminCookie }), {
        id: String(id),
      });
    const refused = await del(used.card.id);
    expect(refused.status).toBe(409);
    expect((await del(spare.card.id)).status).toBe(204);
    expect((await del(spare.card.id)).status).toBe(404);
    expect(await deleteRateCard(await createUser({ role: "manager" }), used.card.id)).toMatchObject({ status: 403 });
    const db = await getDb();
    const events = await db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.entityId, String(spare.card.id)));
    expect(events.map((e) => e.action).sort()).toEqual(["rate_card.create", "rate_card.delete"]);
  });

  it("a manager's change of a rate is an override; the JSON shows each rate's source to managers only", async () => {
    const delivery = await record({
      agentId: agent.id,
      clientId: client.id,
      location: "Eket",
      tons: "5",
      date: "2026-06-03",
    });
    const patch = await call(
      (await import("../../app/routes/api.deliveries.$id")).action,
      makeRequest(`/api/deliveries/${delivery.id}`, {
        method: "PATCH",
        cookie: managerCookie,
        json: { sellingRate: "1" },
      }),
      { id: String(delivery.id) },
    );
    expect(patch.status).toBe(200);
    expect((patch.body as { rateSources: unknown }).rateSources).toMatchObject({
      sellingRate: { source: "override" },
      offloadingCost: { source: "card" },
      buyingRate: { source: "default", cardId: null },
    });
    const staffView = await call(
      (await import("../../app/routes/api.deliveries.$id")).loader,
      makeRequest(`/api/deliveries/${delivery.id}`, { cookie: staffCookie }),
      { id: String(delivery.id) },
    );
    expect(JSON.stringify(staffView.body)).not.toMatch(/rateSources|sellingRate/);
  });
});

describe("the JSON calls", () => {
  it("adds through POST, lists with filters, resolves each kind with its source", async () => {
    const client = await createClient();
    const post = await call(
      apiCards.action,
      makeRequest("/api/rate-cards", {
        method: "POST",
        cookie: adminCookie,
        json: { kind: "selling", rate: 64000.5, validFrom: "2026-07-01", clientId: client.id },
      }),
    );
    expect(post.status).toBe(201);
    expect(post.body).toMatchObject({ kind: "selling", rate: "64000.50", clientId: client.id });
    const bad = await call(
      apiCards.action,
      makeRequest("/api/rate-cards", {
        method: "POST",
        cookie: adminCookie,
        json: { kind: "selling", rate: 0.1 + 0.2, validFrom: "2026-07-01" },
      }),
    );
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: Record<string, string[]> }).errors.rate).toBeTruthy();
    const list = await call(
      apiCards.loader,
      makeRequest(`/api/rate-cards?kind=selling&clientId=${client.id}`, { cookie: managerCookie }),
    );
    expect(list.body).toMatchObject({ items: [{ id: (post.body as { id: number }).id, status: "in force" }] });
    const resolve = (query: string) =>
      call(apiResolve.loader, makeRequest(`/api/rate-cards/resolve?${query}`, { cookie: managerCookie }));
    const resolved = await resolve(`date=2026-07-02&clientId=${client.id}&site=Nowhere`);
    expect(resolved.body).toEqual({
      selling: { rate: "64000.50", cardId: (post.body as { id: number }).id, source: "card" },
      buying: { rate: "50000.00", cardId: null, source: "default" },
      offloading: { rate: "10000.00", cardId: null, source: "default" },
      haulage: { rate: null, cardId: null, source: null },
    });
    expect((await resolve("date=2026-02-30")).status).toBe(400);
    expect((await resolve("clientId=999999")).body).toMatchObject({ errors: { clientId: ["Client not found"] } });
    expect((await resolve("agentId=abc")).status).toBe(400);
    const inForce = await listRateCards(admin, { inForce: true }, { now: new Date("2026-07-05T12:00:00Z") });
    expect(inForce.items.every((c) => c.status === "in force")).toBe(true);
    await expectEveryEventWorded();
  });
});

describe("the resolution at scale", () => {
  it("reads the index, not the table, with 10,000 cards, and agrees with the rule", async () => {
    const db = await getDb();
    const clients = await Promise.all([createClient(), createClient()]);
    const agent = await createAgent();
    // 10,000 cards over many clients, agents, sites and days (written directly: a seed, not a person).
    await db.execute(sql`
      insert into rate_cards (kind, rate, valid_from, client_id, agent_id, site, site_key, created_by)
      select (array['buying','selling','offloading','haulage'])[1 + i % 4], 1000 + i, date '2000-01-01' + i,
        case when i % 3 = 0 then ${clients[0].id}::int when i % 3 = 1 then ${clients[1].id}::int end,
        case when i % 5 = 0 then ${agent.id}::int end,
        case when i % 7 < 3 then 'Site ' || (i % 7) end, case when i % 7 < 3 then 'site' || (i % 7) end,
        ${admin.id}::uuid
      from generate_series(1, 10000) i`);
    await db.execute(sql`analyze rate_cards`);
    const delivery = { date: "2026-01-01", clientId: clients[0].id, agentId: agent.id, siteKey: "site1" };
    const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain ${resolutionSql(delivery)}`))
      .map((r) => Object.values(r)[0])
      .join("\n");
    expect(plan).not.toMatch(/Seq Scan/);
    // 32 probes (4 kinds × 8 scopes), each one row read through an index; which index each uses is the planner's.
    expect(plan.match(/Limit/g)?.length).toBe(32);
    expect(plan.match(/Index (Only )?Scan( Backward)? using rate_cards_\w+_idx/g)?.length).toBe(32);
    expect(plan).not.toMatch(/Sort/);
    // The database's answer is the rule's over every card.
    const all = (await db.select().from(schema.rateCards)).map((c) => ({ ...c, siteKey: c.siteKey }));
    const resolved = await resolveCards(delivery);
    for (const kind of ["buying", "selling", "offloading", "haulage"] as const) {
      expect(resolved[kind]?.id ?? null, kind).toBe(cardFor(all, kind, delivery)?.id ?? null);
    }
  });

  it("lists the cards in force today through indexes, not the table, with those 10,000 cards", async () => {
    const db = await getDb();
    const today = "2026-01-01";
    const explain = async (filters: Parameters<typeof cardsQuery>[1]) =>
      rowsOf<Record<string, string>>(await db.execute(sql`explain ${cardsQuery(db, filters, today, 50).getSQL()}`))
        .map((r) => Object.values(r)[0])
        .join("\n");
    for (const filters of [
      { inForce: true },
      { inForce: true, kind: "buying" as const },
      { inForce: true, before: 5000 },
    ]) {
      const plan = await explain(filters);
      // The cards come through an index (newest first down the id index, or a kind's cards through
      // the scope index), and each card's status is one probe of the scope index.
      expect(plan, JSON.stringify(filters)).not.toMatch(/Seq Scan on rate_cards/);
      expect(plan, JSON.stringify(filters)).toMatch(/Index Only Scan using rate_cards_scope_idx on rate_cards n\b/);
      expect(plan, JSON.stringify(filters)).toMatch(
        /Index (Only )?Scan( Backward)? using rate_cards_\w+ on rate_cards/,
      );
    }
    // The page's answer: only cards in force, newest first.
    const { items } = await listRateCards(admin, { inForce: true }, { now: new Date(`${today}T12:00:00Z`) });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((card) => card.status === "in force")).toBe(true);
  });
});

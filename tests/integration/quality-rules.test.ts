// A client's quality rules (docs/decisions/1210), on PGlite and PostgreSQL: added through the
// model, the dialog and the JSON call alike; listed newest first; looked up on a day through the
// index; refused in a closed month, on a day already taken, before 2000 and far ahead; append-only
// in the database; audited; and behind `client.manage` on every route.
import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type Client, type User } from "../../app/db.server";
import { deleteClient } from "../../app/models/client.server";
import { closeMonth } from "../../app/models/period.server";
import {
  addQualityRule,
  listQualityRules,
  QUALITY_RULES_SHOWN,
  qualityRuleOn,
  qualityRuleOnQuery,
} from "../../app/models/quality-rule.server";
import { clientPage } from "../../app/presenters/client-page.server";
import { ruleOn } from "../../app/rules/quality";
import * as page from "../../app/routes/_app.clients_.$id";
import * as addRule from "../../app/routes/_app.clients_.$id.quality-rules.new";
import * as api from "../../app/routes/api.clients.$id.quality-rules";
import { describeAccess } from "../access";
import { expectEveryEventWorded } from "../audit-words";
import { createClient, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { statementOutcome } from "../money-entries";

describeAccess("a client's page and its quality rules", [
  {
    name: "client page",
    handler: page.loader,
    method: "GET",
    path: "/clients/1",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "add rule dialog",
    handler: addRule.loader,
    method: "GET",
    path: "/clients/1/quality-rules/new",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "add rule",
    handler: addRule.action,
    method: "POST",
    path: "/clients/1/quality-rules/new",
    params: { id: "1" },
    form: { validFrom: "2026-01-01", moistureThreshold: "16", deductionPerPoint: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "api quality rules list",
    handler: api.loader,
    method: "GET",
    path: "/api/clients/1/quality-rules",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api quality rules add",
    handler: api.action,
    method: "POST",
    path: "/api/clients/1/quality-rules",
    params: { id: "1" },
    json: { validFrom: "2026-01-01", moistureThreshold: "16", deductionPerPoint: "1" },
    allowed: ["manager", "admin"],
  },
]);

const NOW = new Date("2026-03-15T12:00:00Z");
const rule = (validFrom: string, moistureThreshold = "16", deductionPerPoint = "1") => ({
  validFrom,
  moistureThreshold,
  deductionPerPoint,
});

let manager: User;
let admin: User;
let managerCookie: string;

beforeAll(async () => {
  ({ user: manager, cookie: managerCookie } = await loginAs("manager"));
  admin = await createUser({ role: "admin" });
});

async function rulesOf(clientId: number) {
  const db = await getDb();
  return db.select().from(schema.clientQualityRules).where(eq(schema.clientQualityRules.clientId, clientId));
}

async function eventsOf(clientId: number) {
  const db = await getDb();
  return (
    await db.select().from(schema.auditEvents).where(eq(schema.auditEvents.action, "client_quality_rule.create"))
  ).filter((e) => (e.after as { clientId?: number } | null)?.clientId === clientId);
}

describe("adding, listing and looking up a client's rules", () => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient();
  });

  it("adds a rule, exact, with its author, and one audit event in words", async () => {
    const added = await addQualityRule(manager, client.id, rule("2026-01-01", "16", "1"), NOW);
    expect(added).toMatchObject({
      ok: true,
      rule: { validFrom: "2026-01-01", moistureThreshold: "16.00", deductionPerPoint: "1.00" },
    });
    const [row] = await rulesOf(client.id);
    expect(row.createdBy).toBe(manager.id);
    const events = await eventsOf(client.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: manager.id,
      entityType: "client_quality_rule",
      entityId: String(row.id),
      before: null,
    });
    expect(events[0].after).toMatchObject({
      validFrom: "2026-01-01",
      moistureThreshold: "16.00",
      deductionPerPoint: "1.00",
    });
  });

  it("reads a JSON float through its digits: 16.1 is stored as 16.10", async () => {
    const other = await createClient();
    const added = await addQualityRule(
      admin,
      other.id,
      { validFrom: "2026-02-01", moistureThreshold: 16.1, deductionPerPoint: 0.5 },
      NOW,
    );
    expect(added).toMatchObject({ ok: true, rule: { moistureThreshold: "16.10", deductionPerPoint: "0.50" } });
  });

  it("lists newest first and finds the rule of a day, the database agreeing with ruleOn", async () => {
    expect(await addQualityRule(manager, client.id, rule("2026-03-01", "15", "1.5"), NOW)).toMatchObject({ ok: true });
    expect(await addQualityRule(admin, client.id, rule("2026-06-01", "14", "2"), NOW)).toMatchObject({ ok: true });
    const { items, more } = await listQualityRules(manager, client.id);
    expect(items.map((r) => r.validFrom)).toEqual(["2026-06-01", "2026-03-01", "2026-01-01"]);
    expect(more).toBe(false);
    for (const day of [
      "2025-12-31",
      "2026-01-01",
      "2026-02-28",
      "2026-03-01",
      "2026-05-31",
      "2026-06-01",
      "2027-01-01",
    ]) {
      const found = await qualityRuleOn(client.id, day);
      expect(found?.id ?? null, day).toBe(ruleOn(items, day)?.id ?? null);
    }
    expect(await qualityRuleOn(client.id, "2025-12-31")).toBeNull();
    expect((await qualityRuleOn(client.id, "2026-05-31"))?.moistureThreshold).toBe("15.00");
  });

  it("the page marks the rule in effect today and works its example", async () => {
    const shown = await clientPage(manager, client.id, NOW);
    expect(shown?.rules.map((r) => [r.validFrom, r.inEffect, r.upcoming])).toEqual([
      ["2026-06-01", false, true],
      ["2026-03-01", true, false],
      ["2026-01-01", false, false],
    ]);
    expect(shown?.inEffect?.example).toBe(
      "A reading of 17.5% is 2.5 points above 15%: it deducts 2.5 × 1.5% = 3.75% of the received weight.",
    );
    expect(await clientPage(manager, 999_999, NOW)).toBeNull();
  });

  it("refuses a day the client already has a rule from (409, under the date), writing nothing", async () => {
    const before = (await eventsOf(client.id)).length;
    const again = await addQualityRule(manager, client.id, rule("2026-03-01", "10", "3"), NOW);
    expect(again).toEqual({
      ok: false,
      status: 409,
      message: "A rule from Mar 01, 2026 already exists; add one from another date",
      fieldErrors: { validFrom: ["A rule from Mar 01, 2026 already exists; add one from another date"] },
    });
    expect(await rulesOf(client.id)).toHaveLength(3);
    expect(await eventsOf(client.id)).toHaveLength(before);
  });

  it("refuses bad fields (400 naming them), an unknown client (404), far-ahead and pre-2000 days", async () => {
    expect(
      await addQualityRule(manager, client.id, { validFrom: "2026-04-01", moistureThreshold: "100.01" }, NOW),
    ).toMatchObject({
      status: 400,
      fieldErrors: {
        moistureThreshold: ["Moisture threshold must be between 0 and 100"],
        deductionPerPoint: ["Deduction per point is required"],
      },
    });
    expect(await addQualityRule(manager, 999_999, rule("2026-04-01"), NOW)).toMatchObject({ status: 404 });
    expect(await addQualityRule(manager, client.id, rule("2027-03-17"), NOW)).toMatchObject({
      status: 400,
      fieldErrors: { validFrom: ["Valid from must be no later than Mar 16, 2027 (a year ahead)"] },
    });
    expect(await addQualityRule(manager, client.id, rule("2027-03-16"), NOW)).toMatchObject({ ok: true });
    expect(await addQualityRule(manager, client.id, rule("1999-12-31"), NOW)).toMatchObject({
      status: 400,
      fieldErrors: { validFrom: ["Valid from must be on or after 1 January 2000"] },
    });
  });

  it("keeps the client from being deleted while it has rules", async () => {
    expect(await deleteClient(manager, client.id)).toMatchObject({
      status: 409,
      message: expect.stringContaining("quality rules refer to this client"),
    });
  });
});

describe("a closed month", () => {
  it("refuses a rule dated in it (409, under the date), and takes the first day after it", async () => {
    const client = await createClient();
    expect(await closeMonth(admin, { month: "2025-06" }, NOW)).toMatchObject({ ok: true });
    const refused = await addQualityRule(manager, client.id, rule("2025-06-30"), NOW);
    expect(refused).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(/^This month is closed/) });
    expect(refused.ok ? null : refused.fieldErrors?.validFrom?.[0]).toMatch(/^This month is closed/);
    expect(await rulesOf(client.id)).toHaveLength(0);
    expect(await eventsOf(client.id)).toHaveLength(0);
    expect(await addQualityRule(manager, client.id, rule("2025-07-01"), NOW)).toMatchObject({ ok: true });
  });
});

describe("the database keeps the rules append-only and in range", () => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient();
    expect(await addQualityRule(manager, client.id, rule("2026-02-01"), NOW)).toMatchObject({ ok: true });
  });

  it("refuses UPDATE, DELETE and TRUNCATE, for any writer", async () => {
    const mine = `client_id = ${client.id}`;
    expect(await statementOutcome(`update client_quality_rules set moisture_threshold = 1 where ${mine}`)).toMatch(
      /client_quality_rules is append-only: UPDATE/,
    );
    expect(await statementOutcome(`delete from client_quality_rules where ${mine}`)).toMatch(/append-only: DELETE/);
    // With deliveries naming a rule (docs/decisions/1220) PostgreSQL refuses first for the foreign
    // key; without them, the trigger does. Either way nothing goes.
    expect(await statementOutcome(`truncate client_quality_rules`)).toMatch(
      /append-only: TRUNCATE|cannot truncate a table referenced in a foreign key/,
    );
    expect((await rulesOf(client.id))[0].moistureThreshold).toBe("16.00");
  });

  it("refuses out-of-range values and a second rule on one day", async () => {
    const db = await getDb();
    const insert = (values: Partial<typeof schema.clientQualityRules.$inferInsert>) =>
      db.insert(schema.clientQualityRules).values({ clientId: client.id, ...rule("2026-05-05"), ...values });
    await expect(insert({ moistureThreshold: "100.5" })).rejects.toThrow();
    await expect(insert({ deductionPerPoint: "0" })).rejects.toThrow();
    await expect(insert({ validFrom: "1999-12-31" })).rejects.toThrow();
    await expect(insert({ validFrom: "2026-02-01" })).rejects.toThrow();
    expect(await rulesOf(client.id)).toHaveLength(1);
  });

  it("finds the rule of a day through its index, one row, no sort", async () => {
    const db = await getDb();
    const plan = await db.transaction(async (tx) => {
      // A planner on a few rows prefers a scan; with scans priced out it must find the index.
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        await tx.execute(sql`explain ${qualityRuleOnQuery(tx, client.id, "2026-03-01")}`),
      )
        .map((r) => Object.values(r)[0])
        .join("\n");
    });
    expect(plan).toMatch(/Index Scan using client_quality_rules_client_from_unique/);
    expect(plan).not.toMatch(/Sort/);
  });
});

describe("the pages and the JSON call", () => {
  let client: Client;
  beforeAll(async () => {
    client = await createClient({ name: "Kodan Quality Test", email: "buyer@kodan.test", taxNo: "TIN-1" });
  });

  const post = (path: string, body: { form?: Record<string, string>; json?: unknown }) =>
    makeRequest(path, { method: "POST", cookie: managerCookie, ...body });

  it("the dialog adds a rule and goes back to the page; a taken day is answered under its field", async () => {
    const form = { validFrom: "2026-01-10", moistureThreshold: "16", deductionPerPoint: "1" };
    const path = `/clients/${client.id}/quality-rules/new`;
    const added = await call(addRule.action, post(path, { form }), { id: String(client.id) });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/clients/${client.id}`);
    const again = await call(addRule.action, post(path, { form }), { id: String(client.id) });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      result: { error: { validFrom: ["A rule from Jan 10, 2026 already exists; add one from another date"] } },
    });
    const blank = await call(addRule.action, post(path, { form: { validFrom: "", moistureThreshold: "abc" } }), {
      id: String(client.id),
    });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({
      result: {
        error: {
          validFrom: ["Valid from is required"],
          moistureThreshold: ["Moisture threshold must be a number"],
          deductionPerPoint: ["Deduction per point is required"],
        },
      },
    });
    expect(await rulesOf(client.id)).toHaveLength(1);
  });

  it("the page shows the client's details and rules; an unknown client is a 404", async () => {
    const shown = await call(page.loader, makeRequest(`/clients/${client.id}`, { cookie: managerCookie }), {
      id: String(client.id),
    });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      client: { name: "Kodan Quality Test", email: "buyer@kodan.test", taxNo: "TIN-1" },
      rules: [{ validFrom: "2026-01-10", moistureThreshold: "16.00" }],
    });
    const missing = await call(page.loader, makeRequest("/clients/999999", { cookie: managerCookie }), {
      id: "999999",
    });
    expect(missing.status).toBe(404);
  });

  it("POST answers 201 with the rule, 400 naming the field, 404 for an unknown client, 409 for a taken day", async () => {
    const path = `/api/clients/${client.id}/quality-rules`;
    const params = { id: String(client.id) };
    const created = await call(
      api.action,
      post(path, { json: { validFrom: "2026-02-10", moistureThreshold: 16.1, deductionPerPoint: "1.25" } }),
      params,
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      validFrom: "2026-02-10",
      moistureThreshold: "16.10",
      deductionPerPoint: "1.25",
    });
    expect(Object.keys(created.body as object).sort()).toEqual([
      "createdAt",
      "deductionPerPoint",
      "id",
      "moistureThreshold",
      "validFrom",
    ]);
    const bad = await call(
      api.action,
      post(path, { json: { validFrom: "2026-02-11", moistureThreshold: "16.125", deductionPerPoint: "1" } }),
      params,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      errors: { moistureThreshold: ["Moisture threshold can have at most 2 decimals"] },
    });
    const taken = await call(
      api.action,
      post(path, { json: { validFrom: "2026-02-10", moistureThreshold: "1", deductionPerPoint: "1" } }),
      params,
    );
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ message: "A rule from Feb 10, 2026 already exists; add one from another date" });
    const unknown = await call(api.action, post("/api/clients/999999/quality-rules", { json: rule("2026-02-12") }), {
      id: "999999",
    });
    expect(unknown.status).toBe(404);
    const notJson = await call(api.action, post(path, { json: "{" }), params);
    expect(notJson.status).toBe(400);
  });

  it("GET lists them newest first, decimals as strings; 404 for an unknown client", async () => {
    const listed = await call(
      api.loader,
      makeRequest(`/api/clients/${client.id}/quality-rules`, { cookie: managerCookie }),
      {
        id: String(client.id),
      },
    );
    expect(listed.status).toBe(200);
    expect((listed.body as { items: { validFrom: string; moistureThreshold: string }[] }).items).toMatchObject([
      { validFrom: "2026-02-10", moistureThreshold: "16.10" },
      { validFrom: "2026-01-10", moistureThreshold: "16.00" },
    ]);
    for (const id of ["999999", "abc"]) {
      const missing = await call(
        api.loader,
        makeRequest(`/api/clients/${id}/quality-rules`, { cookie: managerCookie }),
        { id },
      );
      expect(missing.status).toBe(404);
    }
  });
});

describe("the list is bounded", () => {
  it("shows the newest 50 and says there are more; the rule of today is still found", async () => {
    const client = await createClient();
    const db = await getDb();
    // 51 rules, a week apart, from 2026-01-01 on (through the table: the model would audit each).
    await db.execute(sql`
      insert into client_quality_rules (client_id, valid_from, moisture_threshold, deduction_per_point)
      select ${client.id}, date '2026-01-01' + (g * 7), 10 + g % 5, 1 from generate_series(0, ${QUALITY_RULES_SHOWN}) g`);
    const { items, more } = await listQualityRules(manager, client.id);
    expect(items).toHaveLength(QUALITY_RULES_SHOWN);
    expect(more).toBe(true);
    expect(items[0].validFrom > items[QUALITY_RULES_SHOWN - 1].validFrom).toBe(true);
    // On 2026-01-03 only the first rule (the 51st, not shown) is in effect.
    const shown = await clientPage(manager, client.id, new Date("2026-01-03T12:00:00Z"));
    expect(shown?.more).toBe(true);
    expect(shown?.inEffect?.validFrom).toBe("2026-01-01");
    const [first] = await db
      .select()
      .from(schema.clientQualityRules)
      .where(
        and(eq(schema.clientQualityRules.clientId, client.id), eq(schema.clientQualityRules.validFrom, "2026-01-01")),
      );
    expect(shown?.inEffect?.id).toBe(first.id);
  });
});

describe("the audit trail", () => {
  it("words every event this file wrote", async () => {
    await expectEveryEventWorded();
  });
});

// The Agents and Clients pages at 20,000 rows each (decision 0200): 50 cards a page,
// newest first, First / Newer / Older through the primary key, a search by part of the name in
// which % and _ are plain characters, and plans that read the primary key, never the whole table.
import { sql, type SQLWrapper } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "../../app/db.server";
import { agentCardsQuery, clientCardsQuery } from "../../app/models/directory-list.server";
import * as agentsPage from "../../app/routes/_app.agents";
import * as agentsExport from "../../app/routes/_app.agents.export";
import * as clientsPage from "../../app/routes/_app.clients";
import { FIRST_PAGE } from "../../app/utils/keyset.server";
import type { PageRequest } from "../../app/utils/params";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const ROWS = 20_000;
let manager: Awaited<ReturnType<typeof loginAs>>;
let special: { percent: number; underscore: number; lookalike: number };

beforeAll(async () => {
  manager = await loginAs("manager");
  const db = await getDb();
  await db.execute(sql`
    insert into agents (name, contact)
    select 'Bulk Agent ' || lpad(g::text, 5, '0'), '0803 ' || g from generate_series(1, ${ROWS}) g`);
  await db.execute(sql`
    insert into clients (name, tax_rate, payment_terms_days)
    select 'Bulk Client ' || lpad(g::text, 5, '0'), 7.5, 30 from generate_series(1, ${ROWS}) g`);
  special = {
    percent: (await createAgent({ name: "Yard 50% Share" })).id,
    underscore: (await createAgent({ name: "Kano_North Haulage" })).id,
    lookalike: (await createAgent({ name: "KanoXNorth Haulage" })).id,
  };
  await createClient({ name: "Newest Client" });
  await db.execute(sql`analyze agents`);
  await db.execute(sql`analyze clients`);
}, 240_000);

type AgentsData = {
  agents: { id: number; name: string; contact: string | null }[];
  olderCursor: string | null;
  newerCursor: string | null;
  search: string | null;
};

async function agents(query = "") {
  const result = await call(agentsPage.loader, makeRequest(`/agents${query}`, { cookie: manager.cookie }));
  expect(result.status).toBe(200);
  return result.body as AgentsData;
}

describe("the Agents page", () => {
  it("shows 50 agents a page, newest first, and pages older, newer and back to the first", async () => {
    const first = await agents();
    expect(first.agents).toHaveLength(50);
    expect(first.agents[0].id).toBe(special.lookalike);
    const ids = first.agents.map((a) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(first.newerCursor).toBeNull();
    expect(first.olderCursor).not.toBeNull();
    // Only what a card shows.
    expect(Object.keys(first.agents[0]).sort()).toEqual(["contact", "id", "name"]);

    const second = await agents(`?cursor=${first.olderCursor}`);
    expect(second.agents).toHaveLength(50);
    expect(second.agents[0].id).toBeLessThan(ids[49]);
    expect(second.newerCursor).not.toBeNull();
    const third = await agents(`?cursor=${second.olderCursor}`);
    expect(third.agents[0].id).toBeLessThan(second.agents[49].id);

    const backToSecond = await agents(`?before=${third.newerCursor}`);
    expect(backToSecond.agents.map((a) => a.id)).toEqual(second.agents.map((a) => a.id));
    const backToFirst = await agents(`?before=${second.newerCursor}`);
    expect(backToFirst.agents.map((a) => a.id)).toEqual(ids);
    expect(backToFirst.newerCursor).toBeNull();
  });

  it("searches part of a name, ignoring case, with % and _ taken as themselves", async () => {
    const percent = await agents(`?q=${encodeURIComponent("50%")}`);
    expect(percent.agents.map((a) => a.id)).toEqual([special.percent]);
    expect(percent.search).toBe("50%");
    const underscore = await agents(`?q=${encodeURIComponent("kano_")}`);
    expect(underscore.agents.map((a) => a.id)).toEqual([special.underscore]);
    const bulk = await agents(`?q=${encodeURIComponent("  BULK AGENT 1999 ")}`);
    expect(bulk.search).toBe("BULK AGENT 1999");
    expect(bulk.agents.map((a) => a.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Bulk Agent 1999${9 - i}`));
    // Many matches page like the whole list, and the search stays with the cursor.
    const many = await agents(`?q=agent+0`);
    expect(many.agents).toHaveLength(50);
    const next = await agents(`?q=agent+0&cursor=${many.olderCursor}`);
    expect(next.agents.every((a) => a.name.toLowerCase().includes("agent 0"))).toBe(true);
    expect(next.agents[0].id).toBeLessThan(many.agents[49].id);
    expect((await agents("?q=no+such+name")).agents).toEqual([]);
    expect((await agents("?q=+++")).search).toBeNull();
  });

  it("Export CSV with a search exports the agents it finds, every one of them, alphabetically", async () => {
    const csv = async (query: string) => {
      const response = (await agentsExport.loader({
        request: makeRequest(`/agents/export${query}`, { cookie: manager.cookie }),
        params: {},
        context: {},
      })) as Response;
      expect(response.status).toBe(200);
      return (await response.text())
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
    };
    const percent = await csv(`?q=${encodeURIComponent("50%")}`);
    expect(percent.slice(1).map((line) => line.split(",")[0])).toEqual(["Yard 50% Share"]);
    // Many batches of the stream: the 10,000 names with "agent 1" in them (10000 to 19999).
    const many = await csv("?q=agent+1");
    expect(many).toHaveLength(1 + 10_000);
    expect(many[1].startsWith("Bulk Agent 10000,")).toBe(true);
    expect(many[10_000].startsWith("Bulk Agent 19999,")).toBe(true);
  });

  it("shows the first page for a cursor that is not one of ours", async () => {
    for (const bad of ["?cursor=abc", "?before=-1", "?cursor=2026-01-01_5", "?cursor=99999999999"]) {
      const page = await agents(bad);
      expect(page.agents[0].id, bad).toBe(special.lookalike);
    }
  });
});

describe("the Clients page", () => {
  it("pages newest first and searches the same way", async () => {
    const load = async (query = "") =>
      (await call(clientsPage.loader, makeRequest(`/clients${query}`, { cookie: manager.cookie }))).body as {
        clients: { id: number; name: string; taxRate: string; paymentTermsDays: number }[];
        olderCursor: string | null;
      };
    const first = await load();
    expect(first.clients).toHaveLength(50);
    expect(first.clients[0]).toMatchObject({ name: "Newest Client", paymentTermsDays: 30 });
    const second = await load(`?cursor=${first.olderCursor}`);
    expect(second.clients[0].id).toBeLessThan(first.clients[49].id);
    expect((await load("?q=client+00042")).clients.map((c) => c.name)).toEqual(["Bulk Client 00042"]);
  });
});

describe("plans at 20,000 rows", () => {
  async function plan(query: SQLWrapper) {
    const db = await getDb();
    return rowsOf<Record<string, unknown>>(await db.execute(sql`explain ${query}`))
      .map((r) => String(Object.values(r)[0]))
      .join("\n");
  }

  it("the first, a deep and a newer page walk the primary key", async () => {
    const db = await getDb();
    const deep: PageRequest = { cursor: { key: null, id: 9000 }, direction: "older" };
    const newer: PageRequest = { cursor: { key: null, id: 9000 }, direction: "newer" };
    for (const [label, page] of [
      ["first", FIRST_PAGE],
      ["deep", deep],
      ["newer", newer],
    ] as const) {
      const agentsPlan = await plan(agentCardsQuery(db, null, page));
      expect(agentsPlan, `agents ${label}\n${agentsPlan}`).toMatch(/Index Scan (Backward )?using agents_pkey/);
      expect(agentsPlan, `agents ${label}\n${agentsPlan}`).not.toMatch(/Seq Scan|Sort/);
      const clientsPlan = await plan(clientCardsQuery(db, null, page));
      expect(clientsPlan, `clients ${label}\n${clientsPlan}`).toMatch(/Index Scan (Backward )?using clients_pkey/);
      expect(clientsPlan, `clients ${label}\n${clientsPlan}`).not.toMatch(/Seq Scan|Sort/);
    }
  });
});

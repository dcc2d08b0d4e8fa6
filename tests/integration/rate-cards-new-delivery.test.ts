// New Delivery's rates panel follows the agent, pick-up site and date chosen (docs/decisions/1230),
// on PGlite and PostgreSQL: the page sent back by "Show rates" (no JavaScript) keeps what was typed
// and resolves the panel for the choice; `/deliveries/new/rates` answers the same panel as the
// choices change; staff get neither the panel nor any money. A manager finds an agent's cards
// from the agents list and on the agent's Edit dialog.
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type Agent, type User } from "../../app/db.server";
import { createRateCard } from "../../app/models/rate-card.server";
import * as newDelivery from "../../app/routes/_app.deliveries.new";
import * as panelRoute from "../../app/routes/_app.deliveries.new.rates";
import * as agentsList from "../../app/routes/_app.agents";
import * as editAgent from "../../app/routes/_app.agents.$id.edit";
import { describeAccess } from "../access";
import { createAgent, createClient, loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("New Delivery's rates panel", [
  {
    name: "panel",
    handler: panelRoute.loader,
    method: "GET",
    path: "/deliveries/new/rates?date=2026-01-01",
    page: true,
    allowed: ["manager", "admin"],
  },
]);

const NOW = new Date("2026-03-15T12:00:00Z");
let admin: User;
let agent: Agent;
let other: Agent;
const cookies: Record<"staff" | "manager", string> = { staff: "", manager: "" };

beforeAll(async () => {
  process.env.DELIVERY_CLIENT_NAME = "Panel Plant";
  const { resetEnv } = await import("../../app/utils/env.server");
  resetEnv();
  ({ user: admin } = await loginAs("admin"));
  cookies.staff = (await loginAs("staff")).cookie;
  cookies.manager = (await loginAs("manager")).cookie;
  const client = await createClient({ name: "Panel Plant" });
  agent = await createAgent({ name: "Musa Panel" });
  other = await createAgent({ name: "Other Panel" });
  const defaults = { buyingRate: "50000.00", sellingRate: "60000.00", offloadingCost: "10000.00" };
  await (
    await getDb()
  )
    .insert(schema.settings)
    .values({ id: 1, ...defaults })
    .onConflictDoUpdate({ target: schema.settings.id, set: defaults });
  for (const card of [
    { kind: "selling", rate: "61000", validFrom: "2026-01-01", clientId: client.id },
    { kind: "buying", rate: "52000", validFrom: "2026-02-01", agentId: agent.id },
    { kind: "buying", rate: "53000", validFrom: "2026-03-01", agentId: agent.id, site: "Ikot Ekpene" },
    { kind: "haulage", rate: "4000", validFrom: "2026-02-01", site: "ikot ekpene" },
  ]) {
    const made = await createRateCard(admin, card, NOW);
    if (!made.ok) throw new Error(made.message);
  }
});

const page = async (role: "staff" | "manager", query = "") =>
  call(newDelivery.loader, makeRequest(`/deliveries/new${query}`, { cookie: cookies[role] }));
const panel = async (role: "staff" | "manager", query: string) =>
  call(panelRoute.loader, makeRequest(`/deliveries/new/rates?${query}`, { cookie: cookies[role] }));

/** The rate each row of a panel shows, by its heading. */
function ratesOf(html: string): Record<string, string> {
  const rows = html.matchAll(/<th scope="row">([^<]+)<\/th>\s*<td class="num">([^<]+)<\/td>/g);
  return Object.fromEntries([...rows].map(([, kind, rate]) => [kind, rate]));
}

describe("the panel for the choice", () => {
  it("resolves for the agent, site and date sent by Show rates, and keeps what was typed", async () => {
    const query = new URLSearchParams({
      agentId: String(agent.id),
      location: "IKOT  ekpene",
      date: "2026-03-02",
      tons: "12.5",
      truckNo: "LAG 1",
      remarks: "wet load",
      idempotencyKey: "ignored",
    });
    const shown = await page("manager", `?${query}`);
    expect(shown.status).toBe(200);
    const body = shown.body as { rates: string; kept: Record<string, string> };
    expect(body.kept).toMatchObject({
      agentId: String(agent.id),
      location: "IKOT  ekpene",
      date: "2026-03-02",
      tons: "12.5",
      truckNo: "LAG 1",
      remarks: "wet load",
    });
    expect(body.kept).not.toHaveProperty("idempotencyKey");
    expect(body.rates).toContain("Musa Panel");
    expect(ratesOf(body.rates)).toMatchObject({
      "Buying rate": "₦53,000.00",
      "Selling rate": "₦61,000.00",
      "Haulage per ton": "₦4,000.00",
    });
  });

  it("follows each choice: the day before the site's card, another agent, no choice", async () => {
    const base = { agentId: String(agent.id), location: "Ikot Ekpene" };
    const before = await panel("manager", new URLSearchParams({ ...base, date: "2026-02-15" }).toString());
    expect(before.status).toBe(200);
    expect(before.headers.get("Content-Type")).toContain("text/html");
    expect(ratesOf(before.body as string)).toMatchObject({ "Buying rate": "₦52,000.00" });
    const otherAgent = await panel(
      "manager",
      new URLSearchParams({ ...base, agentId: String(other.id), date: "2026-03-02" }).toString(),
    );
    expect(ratesOf(otherAgent.body as string)).toMatchObject({ "Buying rate": "₦50,000.00" });
    const none = await panel("manager", "agentId=&location=&date=2026-01-15");
    expect(ratesOf(none.body as string)).toMatchObject({
      "Buying rate": "₦50,000.00",
      "Selling rate": "₦61,000.00",
      "Haulage per ton": "—",
    });
    expect(none.body).toContain("any agent");
  });

  it("answers bad choices with 400 under the field, and the page says it above today's rates", async () => {
    const badDate = await panel("manager", "date=2026-02-31");
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({ errors: { date: [expect.any(String)] } });
    const badAgent = await panel("manager", "agentId=999999");
    expect(badAgent.status).toBe(400);
    expect(badAgent.body).toMatchObject({ errors: { agentId: [expect.any(String)] } });
    const shown = await page("manager", "?agentId=abc&date=2026-03-02");
    expect(shown.status).toBe(200);
    expect((shown.body as { rates: string }).rates).toContain('role="alert"');
  });

  it("never shows staff the panel or any money", async () => {
    const query = `?agentId=${agent.id}&location=Ikot+Ekpene&date=2026-03-02`;
    const shown = await page("staff", query);
    expect(shown.status).toBe(200);
    const body = shown.body as { rates: string | null };
    expect(body.rates).toBeNull();
    for (const money of ["53000", "53,000", "61,000", "Buying rate"]) expect(JSON.stringify(body)).not.toContain(money);
    expect((await panel("staff", query.slice(1))).status).toBe(403);
  });
});

describe("an agent's cards for a manager", () => {
  it("links each agent to its cards on Rates and lists them on its Edit dialog", async () => {
    const list = await call(agentsList.loader, makeRequest("/agents", { cookie: cookies.manager }));
    expect(list.body).toMatchObject({ canViewRates: true });
    const edit = await call(editAgent.loader, makeRequest(`/agents/${agent.id}/edit`, { cookie: cookies.manager }), {
      id: String(agent.id),
    });
    expect(edit.status).toBe(200);
    const cards = (edit.body as { rateCards: { items: { rate: string; agentId: number }[]; more: boolean } }).rateCards;
    expect(cards.items.map((c) => c.rate).sort()).toEqual(["52000.00", "53000.00"]);
    expect(cards.items.every((c) => c.agentId === agent.id)).toBe(true);
    expect(cards.more).toBe(false);
  });
});

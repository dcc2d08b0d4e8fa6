import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import * as agentsPage from "../../app/routes/_app.agents";
import * as agentDelete from "../../app/routes/_app.agents.$id.delete";
import * as agentEdit from "../../app/routes/_app.agents.$id.edit";
import * as agentNew from "../../app/routes/_app.agents.new";
import * as clientsPage from "../../app/routes/_app.clients";
import * as clientNew from "../../app/routes/_app.clients.new";
import * as clientDelete from "../../app/routes/_app.clients.$id.delete";
import * as rates from "../../app/routes/_app.settings.rates";
import * as apiAgents from "../../app/routes/api.agents";
import * as apiAgent from "../../app/routes/api.agents.$id";
import * as apiClients from "../../app/routes/api.clients";
import * as apiClient from "../../app/routes/api.clients.$id";
import * as apiSettings from "../../app/routes/api.settings";
import * as apiDeliveries from "../../app/routes/api.deliveries";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { call, makeRequest } from "../http";

describeAccess("agents, clients and settings", [
  {
    name: "agents page",
    handler: agentsPage.loader,
    method: "GET",
    path: "/agents",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "add agent",
    handler: agentNew.action,
    method: "POST",
    path: "/agents/new",
    form: { name: "A" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "edit agent",
    handler: agentEdit.action,
    method: "POST",
    path: "/agents/1/edit",
    params: { id: "1" },
    form: { name: "A" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "delete agent",
    handler: agentDelete.action,
    method: "POST",
    path: "/agents/1/delete",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "clients page",
    handler: clientsPage.loader,
    method: "GET",
    path: "/clients",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "new client",
    handler: clientNew.action,
    method: "POST",
    path: "/clients/new",
    form: { name: "C" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "delete client",
    handler: clientDelete.action,
    method: "POST",
    path: "/clients/1/delete",
    params: { id: "1" },
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "rates form",
    handler: rates.action,
    method: "POST",
    path: "/settings/rates",
    form: { buyingRate: "1" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "api agents list",
    handler: apiAgents.loader,
    method: "GET",
    path: "/api/agents",
    allowed: ["staff", "manager", "admin"],
  },
  {
    name: "api agents create",
    handler: apiAgents.action,
    method: "POST",
    path: "/api/agents",
    json: { name: "A" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api agent patch",
    handler: apiAgent.action,
    method: "PATCH",
    path: "/api/agents/1",
    params: { id: "1" },
    json: { name: "A" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api agent delete",
    handler: apiAgent.action,
    method: "DELETE",
    path: "/api/agents/1",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api clients list",
    handler: apiClients.loader,
    method: "GET",
    path: "/api/clients",
    allowed: ["staff", "manager", "admin"],
  },
  {
    name: "api clients create",
    handler: apiClients.action,
    method: "POST",
    path: "/api/clients",
    json: { name: "C" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api client patch",
    handler: apiClient.action,
    method: "PATCH",
    path: "/api/clients/1",
    params: { id: "1" },
    json: { name: "C" },
    allowed: ["manager", "admin"],
  },
  {
    name: "api client delete",
    handler: apiClient.action,
    method: "DELETE",
    path: "/api/clients/1",
    params: { id: "1" },
    allowed: ["manager", "admin"],
  },
  { name: "api settings read", handler: apiSettings.loader, method: "GET", path: "/api/settings", allowed: ["admin"] },
  {
    name: "api settings change",
    handler: apiSettings.action,
    method: "PATCH",
    path: "/api/settings",
    json: {},
    allowed: ["admin"],
  },
]);

describe("agents and clients calls", () => {
  it("create, edit and delete with the spec payloads", async () => {
    const { cookie } = await loginAs("manager");
    const created = await call(
      apiAgents.action,
      makeRequest("/api/agents", { method: "POST", cookie, json: { name: "  Bala Musa ", contact: "0803" } }),
    );
    expect(created).toMatchObject({ status: 201, body: { name: "Bala Musa", contact: "0803" } });
    const id = String((created.body as { id: number }).id);
    expect(
      await call(
        apiAgent.action,
        makeRequest(`/api/agents/${id}`, { method: "PATCH", cookie, json: { name: "Bala M." } }),
        { id },
      ),
    ).toMatchObject({ status: 200, body: { name: "Bala M.", contact: null } });
    expect(
      (await call(apiAgent.action, makeRequest(`/api/agents/${id}`, { method: "DELETE", cookie }), { id })).status,
    ).toBe(200);
    expect(
      (await call(apiAgent.action, makeRequest(`/api/agents/${id}`, { method: "DELETE", cookie }), { id })).status,
    ).toBe(404);

    const client = await call(
      apiClients.action,
      makeRequest("/api/clients", {
        method: "POST",
        cookie,
        json: { name: "Lafarge", taxRate: 7.5, paymentTermsDays: 45 },
      }),
    );
    expect(client).toMatchObject({ status: 201, body: { name: "Lafarge", taxRate: "7.50", paymentTermsDays: 45 } });
    const defaults = await call(
      apiClients.action,
      makeRequest("/api/clients", { method: "POST", cookie, json: { name: "Defaults Ltd" } }),
    );
    expect(defaults.body).toMatchObject({ taxRate: "0.00", paymentTermsDays: 30 });
  });

  it("refuses bad input with 400 and changes nothing", async () => {
    const { cookie } = await loginAs("admin");
    const agent = (json: unknown) =>
      call(apiAgents.action, makeRequest("/api/agents", { method: "POST", cookie, json }));
    const client = (json: unknown) =>
      call(apiClients.action, makeRequest("/api/clients", { method: "POST", cookie, json }));
    for (const json of [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(201) },
      { name: "A", contact: "c".repeat(201) },
      { name: 42 },
    ]) {
      expect((await agent(json)).status, JSON.stringify(json).slice(0, 60)).toBe(400);
    }
    for (const json of [
      { name: "Bad Input Co", taxRate: "100.01" },
      { name: "Bad Input Co", taxRate: "-1" },
      { name: "Bad Input Co", taxRate: "7.555" },
      { name: "Bad Input Co", taxRate: "abc" },
      { name: "Bad Input Co", paymentTermsDays: -1 },
      { name: "Bad Input Co", paymentTermsDays: 3651 },
      { name: "Bad Input Co", paymentTermsDays: 1.5 },
      { name: "Bad Input Co", paymentTermsDays: "thirty" },
    ]) {
      expect((await client(json)).status, JSON.stringify(json)).toBe(400);
    }
    expect((await agent("{broken")).status).toBe(400);
    expect(
      (
        await call(apiAgent.action, makeRequest("/api/agents/abc", { method: "PATCH", cookie, json: { name: "x" } }), {
          id: "abc",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(
          apiAgent.action,
          makeRequest("/api/agents/99999", { method: "PATCH", cookie, json: { name: "x" } }),
          { id: "99999" },
        )
      ).status,
    ).toBe(404);
    const db = await getDb();
    expect(await db.select().from(schema.clients).where(eq(schema.clients.name, "Bad Input Co"))).toHaveLength(0);
  });

  it("the HTML client form treats non-numeric payment terms as 0", async () => {
    const { cookie } = await loginAs("manager");
    const res = await call(
      clientNew.action,
      makeRequest("/clients/new", {
        method: "POST",
        cookie,
        form: { name: "Lenient Ltd", taxRate: "", paymentTermsDays: "soon" },
      }),
    );
    expect(res.status).toBe(302);
    const db = await getDb();
    const [row] = await db.select().from(schema.clients).where(eq(schema.clients.name, "Lenient Ltd"));
    expect(row).toMatchObject({ paymentTermsDays: 0, taxRate: "0.00" });
  });

  it("refuses a number of days that is not whole, on the HTML form and the JSON call, and saves nothing", async () => {
    const { cookie } = await loginAs("manager");
    for (const paymentTermsDays of ["2.5", "0.5", "-1.5", "1e1"]) {
      const res = await call(
        clientNew.action,
        makeRequest("/clients/new", { method: "POST", cookie, form: { name: "Half Day Ltd", paymentTermsDays } }),
      );
      expect(res.status, paymentTermsDays).toBe(400);
      expect(JSON.stringify(res.body), paymentTermsDays).toContain("Payment terms must be a whole number of days");
    }
    for (const paymentTermsDays of ["2.5", 2.5]) {
      const res = await call(
        apiClients.action,
        makeRequest("/api/clients", { method: "POST", cookie, json: { name: "Half Day Ltd", paymentTermsDays } }),
      );
      expect(res.status, String(paymentTermsDays)).toBe(400);
      expect(JSON.stringify(res.body)).toContain("Payment terms must be a whole number of days");
    }
    const db = await getDb();
    expect(await db.select().from(schema.clients).where(eq(schema.clients.name, "Half Day Ltd"))).toHaveLength(0);
  });

  it("refuses a name that differs only in case or surrounding spaces, on create and rename", async () => {
    const { cookie } = await loginAs("manager");
    const post = (handler: typeof apiAgents.action, path: string, json: unknown) =>
      call(handler, makeRequest(path, { method: "POST", cookie, json }));
    expect((await post(apiAgents.action, "/api/agents", { name: "Twin Agent" })).status).toBe(201);
    const again = await post(apiAgents.action, "/api/agents", { name: "  twin AGENT " });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'An agent named "twin AGENT" already exists. Choose a different name.' },
    });
    const other = await post(apiAgents.action, "/api/agents", { name: "Other Agent" });
    const otherId = String((other.body as { id: number }).id);
    const rename = await call(
      apiAgent.action,
      makeRequest(`/api/agents/${otherId}`, { method: "PATCH", cookie, json: { name: "TWIN agent" } }),
      { id: otherId },
    );
    expect(rename.status).toBe(409);
    // Renaming an agent to its own name in another case is no clash.
    expect(
      (
        await call(
          apiAgent.action,
          makeRequest(`/api/agents/${otherId}`, { method: "PATCH", cookie, json: { name: "OTHER AGENT" } }),
          { id: otherId },
        )
      ).status,
    ).toBe(200);
    // The HTML form says it under the name field.
    const form = await call(
      agentNew.action,
      makeRequest("/agents/new", { method: "POST", cookie, form: { name: "twin agent" } }),
    );
    expect(form).toMatchObject({
      status: 409,
      body: { result: { error: { name: ['An agent named "twin agent" already exists. Choose a different name.'] } } },
    });

    expect((await post(apiClients.action, "/api/clients", { name: "Twin Client" })).status).toBe(201);
    expect(await post(apiClients.action, "/api/clients", { name: "twin client " })).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining("already exists") },
    });
    // The database refuses a duplicate that slips past the check (two adds at once).
    const db = await getDb();
    await expect(db.insert(schema.agents).values({ name: "TWIN AGENT" })).rejects.toThrow();
  });

  it("refuses to delete an agent or client in use, with the count", async () => {
    const { cookie, user } = await loginAs("admin");
    const agent = await createAgent({ name: "Busy Agent" });
    const client = await createClient({ name: "Busy Client" });
    await createDelivery({ agentId: agent.id, clientId: client.id, createdBy: user.id });
    await createDelivery({ agentId: agent.id, clientId: client.id, createdBy: user.id });
    const a = await call(apiAgent.action, makeRequest(`/api/agents/${agent.id}`, { method: "DELETE", cookie }), {
      id: String(agent.id),
    });
    expect(a).toMatchObject({
      status: 409,
      body: { message: 'Cannot delete "Busy Agent": 2 deliveries refer to this agent.' },
    });
    const c = await call(apiClient.action, makeRequest(`/api/clients/${client.id}`, { method: "DELETE", cookie }), {
      id: String(client.id),
    });
    expect(c).toMatchObject({
      status: 409,
      body: { message: 'Cannot delete "Busy Client": 2 deliveries refer to this client.' },
    });
    const page = await call(agentDelete.action, makeRequest(`/agents/${agent.id}/delete`, { method: "POST", cookie }), {
      id: String(agent.id),
    });
    expect(page.status).toBe(302);
    const db = await getDb();
    expect(await db.select().from(schema.agents).where(eq(schema.agents.id, agent.id))).toHaveLength(1);
  });
});

describe("what each role reads of agents and clients", () => {
  it("staff get the spec's fields; the bank and contact details are for managers and admins", async () => {
    const agent = await createAgent({
      name: "Banked Agent",
      phone: "08030000000",
      bankName: "First Bank",
      bankAccountName: "Banked Agent",
      bankAccountNo: "0123456789",
    });
    const client = await createClient({
      name: "Addressed Client",
      email: "pay@addressed.test",
      phone: "08040000000",
      taxNo: "TIN-1",
      address: "1 Marina",
    });
    const staff = await loginAs("staff");
    const manager = await loginAs("manager");
    const read = async (cookie: string) => {
      const one = async (handler: typeof apiAgent.loader, path: string, id: number) =>
        (await call(handler, makeRequest(path, { cookie }), { id: String(id) })).body as Record<string, unknown>;
      const listed = async (handler: typeof apiAgents.loader, path: string, name: string) => {
        const paged = (await call(handler, makeRequest(`${path}?limit=500`, { cookie }))).body as { name: string }[];
        const streamed = (await await handler({ request: makeRequest(path, { cookie }), params: {}, context: {} })
          .then((r) => r as Response)
          .then((r) => r.json())) as { name: string }[];
        return [paged.find((r) => r.name === name), streamed.find((r) => r.name === name)] as Record<string, unknown>[];
      };
      return {
        agent: [
          await one(apiAgent.loader, `/api/agents/${agent.id}`, agent.id),
          ...(await listed(apiAgents.loader, "/api/agents", agent.name)),
        ],
        client: [
          await one(apiClient.loader, `/api/clients/${client.id}`, client.id),
          ...(await listed(apiClients.loader, "/api/clients", client.name)),
        ],
      };
    };
    const seenByStaff = await read(staff.cookie);
    for (const row of seenByStaff.agent)
      expect(Object.keys(row).sort()).toEqual(["contact", "createdAt", "id", "name"]);
    for (const row of seenByStaff.client)
      expect(Object.keys(row).sort()).toEqual(["createdAt", "id", "name", "paymentTermsDays", "taxRate"]);
    const seenByManager = await read(manager.cookie);
    for (const row of seenByManager.agent)
      expect(row).toMatchObject({ bankAccountNo: "0123456789", phone: "08030000000" });
    for (const row of seenByManager.client) expect(row).toMatchObject({ email: "pay@addressed.test", taxNo: "TIN-1" });
  });
});

describe("settings", () => {
  it("stores exact decimals, refuses bad ones, and only new deliveries take new rates", async () => {
    const { cookie, user } = await loginAs("admin");
    const agent = await createAgent();
    await createClient({ name: "Kodan" });
    process.env.DELIVERY_CLIENT_NAME = "Kodan";
    const { resetEnv } = await import("../../app/utils/env.server");
    resetEnv();
    const patch = (json: unknown) =>
      call(apiSettings.action, makeRequest("/api/settings", { method: "PATCH", cookie, json }));
    expect(
      await patch({ buyingRate: "52,000.25", sellingRate: 65000.5, taxRate: "7.5", offloadingCost: "15000" }),
    ).toMatchObject({
      status: 200,
      body: { buyingRate: "52000.25", sellingRate: "65000.50", taxRate: "7.50", offloadingCost: "15000.00" },
    });
    const older = await call(
      apiDeliveries.action,
      makeRequest("/api/deliveries", { method: "POST", cookie, json: { agentId: agent.id, tons: "1", location: "x" } }),
    );
    for (const bad of [
      { buyingRate: "-1" },
      { sellingRate: "1.001" },
      { taxRate: "101" },
      { offloadingCost: "abc" },
      { buyingRate: 0.1 + 0.2 },
    ]) {
      expect((await patch(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect(await patch({ sellingRate: "70000" })).toMatchObject({
      status: 200,
      body: { sellingRate: "70000.00", buyingRate: "52000.25" },
    });
    const newer = await call(
      apiDeliveries.action,
      makeRequest("/api/deliveries", { method: "POST", cookie, json: { agentId: agent.id, tons: "1", location: "x" } }),
    );
    const db = await getDb();
    const [o] = await db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, (older.body as { id: number }).id));
    const [n] = await db
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, (newer.body as { id: number }).id));
    expect(o.sellingRate).toBe("65000.50");
    expect(n.sellingRate).toBe("70000.00");
    const [settings] = await db.select().from(schema.settings);
    expect(settings.updatedBy).toBe(user.id);
  });
});

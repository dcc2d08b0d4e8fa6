// CSV exports (docs/decisions/0952): 100,000 deliveries streamed with flat memory,
// the role rules (staff: their own rows, no financial columns), the formula guard, filters.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/db.server";
import * as agentsExport from "../../app/routes/_app.agents.export";
import * as auditExport from "../../app/routes/_app.audit.export";
import * as clientsExport from "../../app/routes/_app.clients.export";
import * as deliveriesExport from "../../app/routes/_app.deliveries.export";
import * as invoicesExport from "../../app/routes/_app.invoices.export";
import * as paymentsExport from "../../app/routes/_app.payments.export";
import * as reconciliationExport from "../../app/routes/_app.reconciliation.export";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { makeRequest } from "../http";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const BULK = 100_000;
const FINANCIAL = ["Buying Rate", "Selling Rate", "Logistics Cost", "Profit", "Net Payment to Agent"];

type Loader = (args: { request: Request; params: object; context: object }) => Promise<Response>;
async function get(route: { loader: unknown }, path: string, cookie: string) {
  try {
    return await (route.loader as Loader)({ request: makeRequest(path, { cookie }), params: {}, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
async function csvOf(route: { loader: unknown }, path: string, cookie: string) {
  const res = await get(route, path, cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  return parse(await res.text(), { bom: true }) as string[][];
}

let bulkCreator: string;
let staffCookie: string;
let staffId: string;
let hostileAgent: number;

beforeAll(async () => {
  const db = await getDb();
  const { user: bulkUser } = await loginAs("manager");
  bulkCreator = bulkUser.id;
  const staff = await loginAs("staff");
  staffCookie = staff.cookie;
  staffId = staff.user.id;
  const agent = await createAgent({ name: "Bulk Agent" });
  hostileAgent = (await createAgent({ name: '=HYPERLINK("x")', contact: "+234 803" })).id;
  const client = await createClient({ name: "@Bulk Client" });
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
      select date '2020-01-01' + (g % 1500), ${agent.id}, ${client.id}, (10 + g % 30)::numeric,
             'Yard ' || (g % 40), 'confirmed', ${bulkCreator}::uuid, 52000, 65000
      from generate_series(1, ${BULK}) g`);
    await tx.execute(sql`select pks_rebuild_totals()`);
  });
  await createDelivery({ agentId: hostileAgent, createdBy: staffId, clientId: client.id, date: "2031-05-01" });
  await createDelivery({ agentId: hostileAgent, createdBy: staffId, clientId: client.id, date: "2031-05-02" });
}, 300_000);

describe("deliveries export", () => {
  it("streams 100,000 deliveries with flat memory, every row once", async () => {
    const { cookie } = await loginAs("admin");
    const res = await get(deliveriesExport, "/deliveries/export?to=2030-12-31", cookie);
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="deliveries-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let bytes = 0;
    let lines = 0;
    let chunks = 0;
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      bytes += value.length;
      for (const byte of value) if (byte === 0x0a) lines++;
      if (++chunks % 10 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(lines).toBe(BULK + 1);
    // The file is over 10 MB (the rows as objects several times that); one batch of 1,000 rows
    // is about 1 MB. A heap that never grew by 8 MB never held the list or the file.
    expect(bytes).toBeGreaterThan(10_000_000);
    expect(peak).toBeLessThan(8_000_000);
  }, 300_000);

  it("staff export only their own deliveries, without financial columns", async () => {
    const rows = await csvOf(deliveriesExport, "/deliveries/export", staffCookie);
    const [header, ...data] = rows;
    expect(data).toHaveLength(2);
    for (const name of FINANCIAL) expect(header).not.toContain(name);
    expect(header).toEqual([
      "ID",
      "Date",
      "Agent",
      "Client",
      "Truck No",
      "Location",
      "Tons",
      "Loaded t",
      "Received t",
      "Accepted t",
      "Shortage t",
      "Moisture %",
      "Deduction t",
      "Status",
      "Remarks",
    ]);
    expect(data.map((r) => r[1])).toEqual(["2031-05-02", "2031-05-01"]);
    expect(data[0][2]).toBe(`'=HYPERLINK("x")`);
    expect(data[0][3]).toBe("'@Bulk Client");
  });

  it("managers see rates and profit, admins also net payment; filters apply", async () => {
    const manager = await loginAs("manager");
    const [mHeader, ...mRows] = await csvOf(
      deliveriesExport,
      `/deliveries/export?from=2031-05-02&agentId=${hostileAgent}`,
      manager.cookie,
    );
    expect(mHeader).toContain("Profit");
    expect(mHeader).not.toContain("Net Payment to Agent");
    expect(mRows).toHaveLength(1);
    const row = Object.fromEntries(mHeader.map((h, i) => [h, mRows[0][i]]));
    expect(row["Selling Rate"]).toBe("65000.50");
    expect(row.Tons).toBe("30.550");
    const admin = await loginAs("admin");
    const [aHeader] = await csvOf(deliveriesExport, "/deliveries/export?from=2031-01-01", admin.cookie);
    expect(aHeader).toContain("Net Payment to Agent");
  });
});

describe("the other lists", () => {
  it("agents and clients: managers only, names guarded", async () => {
    const { cookie } = await loginAs("manager");
    const agents = await csvOf(agentsExport, "/agents/export", cookie);
    expect(agents[0]).toEqual(["Name", "Contact", "Phone", "Bank", "Account Name", "Account Number"]);
    expect(agents).toContainEqual([`'=HYPERLINK("x")`, "'+234 803", "", "", "", ""]);
    const clients = await csvOf(clientsExport, "/clients/export", cookie);
    expect(clients.map((r) => r[0])).toContain("'@Bulk Client");
    for (const route of [agentsExport, clientsExport, invoicesExport, paymentsExport, reconciliationExport]) {
      expect((await get(route, "/x/export", staffCookie)).status).toBe(403);
    }
  });

  it("invoices, payments, reconciliation and deliveries export; a bad filter is a 400", async () => {
    const { cookie } = await loginAs("admin");
    expect((await csvOf(invoicesExport, "/invoices/export?status=paid", cookie))[0][0]).toBe("Invoice No");
    expect((await csvOf(paymentsExport, "/payments/export", cookie))[0][0]).toBe("Payment Date");
    const months = await csvOf(reconciliationExport, "/reconciliation/export", cookie);
    expect(months[0][0]).toBe("Month");
    // 1,500 days of bulk deliveries span 50 months, plus May 2031: more than one page of 12.
    expect(months.length - 1).toBe(51);
    expect(months[1][0]).toBe("2031-05");
    const may = await csvOf(reconciliationExport, "/reconciliation/export?month=2031-05", cookie);
    expect(may).toHaveLength(3);
    expect(may[1][1]).toBe(`'=HYPERLINK("x")`);
    for (const [route, path] of [
      [invoicesExport, "/invoices/export?status=late"],
      [paymentsExport, "/payments/export?from=2026-02-30"],
      [reconciliationExport, "/reconciliation/export?month=2031-13"],
      [deliveriesExport, "/deliveries/export?from=2026-01-01&to=2026-02-30"],
      [deliveriesExport, "/deliveries/export?status=bogus"],
    ] as const) {
      const res = await get(route, path, cookie);
      expect(res.status, path).toBe(400);
    }
  });

  it("the audit trail: admins only, with its filters", async () => {
    const admin = await loginAs("admin");
    const agent = await (
      await import("../../app/models/agent.server")
    ).createAgent(admin.user, {
      name: "=Audited agent",
    });
    expect(agent.ok).toBe(true);
    const rows = await csvOf(auditExport, "/audit/export?entity=agent", admin.cookie);
    expect(rows[0]).toEqual([
      "Time (UTC)",
      "Actor",
      "Action",
      "Entity",
      "Entity ID",
      "Changes",
      "Request ID",
      "Client Address",
    ]);
    const created = rows.find((r) => r[5].includes("Audited agent"));
    expect(created?.[3]).toBe("agent");
    expect((await get(auditExport, "/audit/export", staffCookie)).status).toBe(403);
    const manager = await loginAs("manager");
    expect((await get(auditExport, "/audit/export", manager.cookie)).status).toBe(403);
    expect((await get(auditExport, "/audit/export?from=2026-02-30", admin.cookie)).status).toBe(400);
  });
});

// Decision 1270: the profit report's page, JSON call, CSV and PDF: who may read them, what they
// answer, the 400s naming their field, and the drill-down's filters on the deliveries list.
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import * as page from "../../app/routes/_app.reports.profit";
import * as csv from "../../app/routes/_app.reports.profit_.export";
import * as pdf from "../../app/routes/_app.reports.profit_.pdf";
import * as api from "../../app/routes/api.reports.profit";
import * as deliveries from "../../app/routes/_app.deliveries";
import { describeAccess } from "../access";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let manager: User;
let cookie: string;
let agentA: number;
let agentB: number;
let clientId: number;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  ({ cookie } = await loginAs("manager"));
  agentA = (await createAgent({ name: "=SUM(A1) Agent" })).id;
  agentB = (await createAgent({ name: "Route Agent B" })).id;
  clientId = (await createClient({ name: "Route Client" })).id;
  const base = { createdBy: manager.id, buyingRate: "50000.00", sellingRate: "60000.00", logisticsCost: "1000.00" };
  await createDelivery({
    ...base,
    agentId: agentA,
    clientId,
    date: "2026-01-10",
    tons: "10.000",
    location: "North Yard",
  });
  await createDelivery({
    ...base,
    agentId: agentA,
    clientId,
    date: "2026-02-10",
    tons: "5.500",
    location: "South Yard",
  });
  // A loss: sold below what it cost.
  await createDelivery({
    ...base,
    agentId: agentB,
    clientId: null,
    date: "2026-02-11",
    tons: "2.000",
    location: "North Yard",
    sellingRate: "40000.00",
  });
  await createDelivery({
    ...base,
    agentId: agentB,
    date: "2026-02-12",
    tons: "9.000",
    location: "North Yard",
    status: "draft",
  });
});

const get = (handler: Parameters<typeof call>[0], path: string) => call(handler, makeRequest(path, { cookie }));

describe("GET /api/reports/profit (decision 1270)", () => {
  it("answers rows and totals with decimal strings, totals the sum of the rows", async () => {
    const res = await get(api.loader, "/api/reports/profit?from=2026-01&to=2026-02&by=agent");
    expect(res.status).toBe(200);
    const body = res.body as { rows: Record<string, unknown>[]; totals: Record<string, unknown> };
    expect(body.rows).toHaveLength(2);
    const a = body.rows.find((r) => r.agentId === agentA)!;
    expect(a).toMatchObject({
      agentName: "=SUM(A1) Agent",
      deliveries: 2,
      loadedTons: "15.500",
      revenue: "930000.00",
      buyingCost: "775000.00",
      haulage: "2000.00",
      otherCosts: "0.00",
      profit: "153000.00",
      margin: "16.5",
    });
    const b = body.rows.find((r) => r.agentId === agentB)!;
    expect(b).toMatchObject({ deliveries: 1, profit: "-21000.00", margin: "-26.3" });
    // Margin from the totals: 132,000 / 1,010,000, not the average of 16.5 and -26.3.
    expect(body.totals).toMatchObject({ deliveries: 3, loadedTons: "17.500", profit: "132000.00", margin: "13.1" });
  });

  it("by month, then by site", async () => {
    const res = await get(api.loader, "/api/reports/profit?from=2026-01&to=2026-02&by=month&then=site");
    const rows = (res.body as { rows: { month: string; site: string; deliveries: number }[] }).rows;
    expect(rows.map((r) => [r.month, r.site, r.deliveries])).toEqual([
      ["2026-01", "North Yard", 1],
      ["2026-02", "South Yard", 1],
      ["2026-02", "North Yard", 1],
    ]);
  });

  it("refuses a bad period or grouping with a 400 naming the field", async () => {
    const cases: [string, string][] = [
      ["from=2026-13", "from"],
      ["from=2026-02-01", "from"],
      ["to=yesterday", "to"],
      ["from=2026-03&to=2026-01", "to"],
      ["from=2010-01&to=2026-01", "to"],
      ["by=truck", "by"],
      ["by=agent&then=site", "then"],
      ["by=month&then=month", "then"],
    ];
    for (const [query, field] of cases) {
      const res = await get(api.loader, `/api/reports/profit?${query}`);
      expect(res.status, query).toBe(400);
      expect((res.body as { errors: Record<string, string[]> }).errors, query).toHaveProperty(field);
    }
  });
});

describe("the report's page, CSV and PDF (decision 1270)", () => {
  it("the page carries the rows, the foot and three charts; a bad period is a 400 on the form", async () => {
    const res = await get(page.loader, "/reports/profit?from=2026-01&to=2026-02&by=site");
    expect(res.status).toBe(200);
    const view = (
      res.body as {
        view: {
          table: { rows: { name: string; to: string; cells: string[] }[] };
          charts: { id: string; bars: unknown[] }[];
        };
      }
    ).view;
    expect(view.table.rows).toHaveLength(2);
    const north = view.table.rows.find((r) => r.name === "North Yard")!;
    expect(north.to).toBe("/deliveries?from=2026-01-01&to=2026-02-28&site=North+Yard");
    expect(north.cells.slice(0, 3)).toEqual(["2", "12.00", "₦680,000.00"]);
    expect(view.charts.map((c) => c.id)).toEqual(["profit-by-month", "tons-by-month", "top-site"]);
    expect(view.charts[0].bars).toHaveLength(4);
    const bad = await get(page.loader, "/reports/profit?from=2026-03&to=2026-01");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { field: "to" }, view: null });
  });

  it("the CSV is the table as shown: BOM, plain decimals, formulas guarded, the foot last", async () => {
    const res = (await csv.loader({
      request: makeRequest("/reports/profit/export?from=2026-01&to=2026-02&by=agent", { cookie }),
      params: {},
      context: {},
    })) as Response;
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trim().split("\r\n");
    expect(lines[0]).toBe("Agent,Deliveries,Loaded t,Revenue,Buying cost,Haulage,Other costs,Profit,Margin %");
    expect(lines[1]).toBe("'=SUM(A1) Agent,2,15.500,930000.00,775000.00,2000.00,0.00,153000.00,16.5");
    expect(lines.at(-1)).toBe("Total,3,17.500,1010000.00,875000.00,3000.00,0.00,132000.00,13.1");
    expect((await get(csv.loader, "/reports/profit/export?by=truck")).status).toBe(400);
  });

  it("the PDF is a PDF, and a bad grouping is a 400", async () => {
    const res = await get(pdf.loader, "/reports/profit/pdf?from=2026-01&to=2026-02&by=client");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(String(res.body).startsWith("%PDF")).toBe(true);
    expect((await get(pdf.loader, "/reports/profit/pdf?by=truck")).status).toBe(400);
  });
});

describe("the drill-down's filters on the deliveries list (decision 1270)", () => {
  it("narrows the list to a client or a pick-up site within the period", async () => {
    const rows = async (query: string) => {
      const res = await get(deliveries.loader, `/deliveries?${query}`);
      return (res.body as { deliveries: { location: string }[]; narrowed: string }).deliveries.length;
    };
    expect(await rows(`from=2026-01-01&to=2026-02-28&clientId=${clientId}`)).toBe(2);
    expect(await rows("from=2026-02-01&to=2026-02-28&site=North%20Yard")).toBe(2);
    expect(await rows("from=2026-01-01&to=2026-01-31&site=North%20Yard")).toBe(1);
    const res = await get(deliveries.loader, `/deliveries?clientId=${clientId}&site=South%20Yard`);
    expect((res.body as { narrowed: string }).narrowed).toBe("Client: Route Client · Pick-up site: South Yard");
  });
});

describeAccess("profit report", [
  {
    name: "page",
    handler: page.loader,
    method: "GET",
    path: "/reports/profit",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "CSV",
    handler: csv.loader,
    method: "GET",
    path: "/reports/profit/export",
    allowed: ["manager", "admin"],
    page: true,
  },
  {
    name: "PDF",
    handler: pdf.loader,
    method: "GET",
    path: "/reports/profit/pdf",
    allowed: ["manager", "admin"],
    page: true,
  },
  { name: "JSON", handler: api.loader, method: "GET", path: "/api/reports/profit", allowed: ["manager", "admin"] },
]);

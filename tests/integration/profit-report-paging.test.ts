// Decision 1270: a long report is paged. Ten years of month by agent (or by site, or by client)
// is thousands of rows; the page shows a keyset page of them and stays under the 150 KB page
// budget, its pages join up to the rows of the unpaged report in its order, and the foot is the
// whole period's on every page. The JSON call pages with limit/cursor or streams every row, the
// CSV streams every row, the PDF prints its first rows, the whole foot and a note.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { RouteObject } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, type User } from "../../app/db.server";
import * as page from "../../app/routes/_app.reports.profit";
import * as csv from "../../app/routes/_app.reports.profit_.export";
import * as api from "../../app/routes/api.reports.profit";
import { PDF_ROWS, profitReportPdf } from "../../app/presenters/reports/profit-pdf.server";
import {
  loadProfitReport,
  PROFIT_PAGE_ROWS,
  profitSumsQuery,
  parseProfitCursor,
  type ProfitQuery,
  type ProfitRow,
} from "../../app/presenters/reports/profit-report.server";
import { createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

let manager: User;
let cookie: string;
const AGENTS = 60;
const FROM = "2001-01";
const TO = "2010-12";

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  ({ cookie } = await loginAs("manager"));
  const db = await getDb();
  // 60 agents with long names, each delivering every month for ten years from 40 sites and three
  // clients (and none): 7,200 deliveries, 7,200 rows of month by agent.
  await db.execute(
    sql`insert into agents (name) select 'Long Report Agent with a Long Name Number ' || g from generate_series(1, ${AGENTS}) g`,
  );
  await db.execute(
    sql`insert into clients (name, tax_rate, payment_terms_days) select 'Paging Client ' || g, 7.5, 30 from generate_series(1, 3) g`,
  );
  await db.execute(sql`
    insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate, logistics_cost)
    select date '2001-01-15' + make_interval(months => m), a.id,
           case when (m + a.id) % 4 = 3 then null else (select min(id) from clients where name like 'Paging Client%') + (m + a.id) % 4 end,
           (10 + (m * 7 + a.id) % 30)::numeric + 0.125, 'Paging Yard ' || ((m + a.id) % 40), 'confirmed', ${manager.id}::uuid,
           52000, case when (m + a.id) % 9 = 0 then 50000 else 65000 end, 20000 + (m * a.id) % 7
    from generate_series(0, 119) m, agents a where a.name like 'Long Report Agent%'`);
});

const q = (by: ProfitQuery["by"], then: ProfitQuery["then"] = null): ProfitQuery => ({ from: FROM, to: TO, by, then });
const LONG: ProfitQuery[] = [
  q("month"),
  q("month", "agent"),
  q("month", "site"),
  q("month", "client"),
  q("agent"),
  q("site"),
];

const keyOf = (r: ProfitRow) => `${r.month ?? ""}|${r.agentId ?? ""}|${r.clientId ?? ""}|${r.site ?? ""}`;

/** Every page of the report from the first, following nextCursor. */
async function allPages(query: ProfitQuery, limit: number) {
  const pages = [];
  let cursor: string | null = null;
  do {
    const report = await loadProfitReport(manager, query, {
      cursor: cursor === null ? null : parseProfitCursor(query, cursor),
      limit,
    });
    pages.push(report);
    cursor = report.nextCursor;
  } while (cursor !== null && pages.length < 10_000);
  return pages;
}

describe("a long profit report is paged (decision 1270)", () => {
  it("its pages join up to the unpaged rows in order, and every page has the whole period's foot", async () => {
    for (const query of LONG) {
      const whole = await loadProfitReport(manager, query);
      expect(whole.nextCursor).toBeNull();
      const pages = await allPages(query, query.by === "month" && query.then ? 97 : 7);
      expect(pages.length, JSON.stringify(query)).toBeGreaterThan(1);
      expect(pages.flatMap((p) => p.rows).map(keyOf), JSON.stringify(query)).toEqual(whole.rows.map(keyOf));
      expect(pages.flatMap((p) => p.rows)).toEqual(whole.rows);
      for (const p of pages) {
        expect(p.totals).toEqual(whole.totals);
        expect(p.rowCount).toBe(whole.rows.length);
      }
    }
    const byAgent = await loadProfitReport(manager, q("month", "agent"));
    expect(byAgent.rows).toHaveLength(120 * AGENTS);
    expect(byAgent.totals.deliveries).toBe(120 * AGENTS);
    // Ties in profit are broken by the key: each month's rows are most profit first, then by id.
    const firstMonth = byAgent.rows.filter((r) => r.month === FROM);
    const profits = firstMonth.map((r) => Number(r.profit));
    expect(profits).toEqual([...profits].sort((a, b) => b - a));
  });

  it("a page reads the kept rows from its cursor's month, never the deliveries", async () => {
    const db = await getDb();
    const query = q("month", "agent");
    const cursor = parseProfitCursor(query, "2005-06~1000.00~7")!;
    const plan = rowsOf<Record<string, unknown>>(
      await db.execute(sql`explain ${profitSumsQuery(db, query, { cursor, limit: PROFIT_PAGE_ROWS })}`),
    )
      .map((r) => String(Object.values(r)[0]))
      .join("\n");
    expect(plan).not.toMatch(/deliveries/);
    expect(plan).toMatch(/2005-06-01/);
  });

  it("the page of ten years by agent stays under the 150 KB page budget, with a pager to the next rows", async () => {
    const path = `/reports/profit?from=${FROM}&to=${TO}&by=month&then=agent`;
    const { html, data } = await renderPage(path);
    expect(html).toContain("Next rows");
    expect(html).toContain(`50 of 7,200 rows on this page`);
    const next = /href="\/reports\/profit\?([^"]*cursor=[^"]*)"/.exec(html)![1].replaceAll("&amp;", "&");
    // The document carries the page's HTML and its data again for the browser; the app's frame
    // (navigation, head, scripts' links) adds about 25 KB around it.
    const bytes = Buffer.byteLength(html) + Buffer.byteLength(JSON.stringify(data));
    expect(bytes).toBeLessThan(125_000);
    const second = await renderPage(`/reports/profit?${next}`);
    expect(second.html).toContain("First page");
    expect(Buffer.byteLength(second.html) + Buffer.byteLength(JSON.stringify(second.data))).toBeLessThan(125_000);
    // The foot is the same on both pages: the whole period's.
    const foot = (h: string) => /<tfoot>.*<\/tfoot>/s.exec(h)![0];
    expect(foot(second.html)).toBe(foot(html));
    // Ten years by month alone, or by site, also fit: above three years the charts draw quarters.
    for (const grouping of ["by=month", "by=site", "by=month&then=client"]) {
      const other = await renderPage(`/reports/profit?from=${FROM}&to=${TO}&${grouping}`);
      expect(other.html).toContain("Profit and revenue by quarter");
      expect(Buffer.byteLength(other.html) + Buffer.byteLength(JSON.stringify(other.data)), grouping).toBeLessThan(
        125_000,
      );
    }
  });

  it("a cursor that is not a page of this report is a 400 naming it", async () => {
    for (const bad of ["nonsense", "2005-06~1.00~x", "~1.00~7", "2005-06~1.00~9999999999"]) {
      const res = await call(
        page.loader,
        makeRequest(`/reports/profit?from=${FROM}&to=${TO}&by=month&then=agent&cursor=${encodeURIComponent(bad)}`, {
          cookie,
        }),
      );
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ error: { field: "cursor" } });
    }
  });

  it("the JSON call pages with limit and cursor, or streams every row; totals always the whole period's", async () => {
    const base = `/api/reports/profit?from=${FROM}&to=${TO}&by=month&then=site`;
    const all = await call(api.loader, makeRequest(base, { cookie }));
    expect(all.status).toBe(200);
    const whole = all.body as { rows: ProfitRow[]; totals: unknown; nextCursor: null; by: string; then: string };
    expect(whole).toMatchObject({ from: FROM, to: TO, by: "month", then: "site", nextCursor: null });
    expect(whole.rows).toEqual((await loadProfitReport(manager, q("month", "site"))).rows);
    const joined: ProfitRow[] = [];
    let next: string | null = null;
    do {
      const res = await call(
        api.loader,
        makeRequest(`${base}&limit=500${next ? `&cursor=${encodeURIComponent(next)}` : ""}`, { cookie }),
      );
      expect(res.status).toBe(200);
      const body = res.body as { rows: ProfitRow[]; totals: unknown; nextCursor: string | null };
      expect(body.rows.length).toBeLessThanOrEqual(500);
      expect(body.totals).toEqual(whole.totals);
      joined.push(...body.rows);
      next = body.nextCursor;
    } while (next);
    expect(joined).toEqual(whole.rows);
    for (const bad of ["limit=0", "limit=501", "cursor=zz"]) {
      const res = await call(api.loader, makeRequest(`${base}&${bad}`, { cookie }));
      expect(res.status, bad).toBe(400);
      expect(Object.keys((res.body as { errors: object }).errors)).toEqual([bad.split("=")[0]]);
    }
  });

  it("the CSV has every row and the whole foot; the PDF its first rows, the foot and a note", async () => {
    const res = await call(
      csv.loader,
      makeRequest(`/reports/profit/export?from=${FROM}&to=${TO}&by=month&then=agent`, { cookie }),
    );
    expect(res.status).toBe(200);
    const lines = String(res.body).trim().split("\r\n");
    expect(lines).toHaveLength(1 + 120 * AGENTS + 1);
    expect(lines.at(-1)).toMatch(/^Total,,7200,/);
    const pdf = await profitReportPdf(manager, new URLSearchParams({ from: FROM, to: TO, by: "month", then: "agent" }));
    expect("stream" in pdf).toBe(true);
    const bytes = await new Response((pdf as { stream: ReadableStream<Uint8Array> }).stream).arrayBuffer();
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
    expect(PDF_ROWS).toBeLessThan(120 * AGENTS);
  });
});

/** The report's page rendered as the server renders it, with the data its loader gave. */
async function renderPage(path: string) {
  const routes: RouteObject[] = [
    { id: "profit", path: "/reports/profit", loader: page.loader as RouteObject["loader"], Component: page.default },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(makeRequest(path, { cookie }));
  if (context instanceof Response) throw new Error(`the loader answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  return { html, data: context.loaderData };
}

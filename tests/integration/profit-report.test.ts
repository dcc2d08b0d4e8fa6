// Decision 1270: the profit report read from the kept totals equals, row by row and in total, the
// same figures summed from the delivery lines with the delivery rules, for random data with drafts,
// confirmed, invoiced, voided and credited deliveries, weighbridge weights, edits and deletions;
// db:check's recount agrees; the report's query reads the kept rows, never the deliveries.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type Delivery } from "../../app/db.server";
import {
  loadProfitReport,
  profitSumsQuery,
  readProfitQuery,
  type ProfitQuery,
  type ProfitRow,
} from "../../app/presenters/reports/profit-report.server";
import { figuresOf, totalsOf, type ProfitSums } from "../../app/rules/profit-figures";
import { isCounted, revenueOf } from "../../app/rules/deliveries.server";
import { acceptedTonsOf, shortageTonsOf } from "../../app/rules/weights";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { add, mul, percentOf, toFixed } from "../../app/utils/money";
import { findBreaches } from "../../db/ops";
import { loadManagerDashboard } from "../../app/presenters/manager-dashboard.server";
import { profitOf } from "../../app/rules/deliveries.server";
import { formatNaira, formatTons, round } from "../../app/utils/money";
import type { Db } from "../../db/client.server";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

/** A small seeded generator (mulberry32): the same data on every run and on both drivers. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)],
  };
}

const SITES = ["Ikorodu Yard", "Epe Depot", "ikorodu yard", "Badagry"] as const;
const QUERIES: ProfitQuery[] = [
  { from: "2025-11", to: "2026-03", by: "month", then: null },
  { from: "2025-11", to: "2026-03", by: "agent", then: null },
  { from: "2025-11", to: "2026-03", by: "client", then: null },
  { from: "2025-11", to: "2026-03", by: "site", then: null },
  { from: "2025-11", to: "2026-03", by: "month", then: "agent" },
  { from: "2025-11", to: "2026-03", by: "month", then: "client" },
  { from: "2025-11", to: "2026-03", by: "month", then: "site" },
  { from: "2026-02", to: "2026-02", by: "site", then: null },
];

let manager: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  const db = await getDb();
  const r = random(1270);
  manager = await createUser({ role: "manager" });
  const agents = [
    await createAgent({ name: "Profit Agent A" }),
    await createAgent({ name: "Profit Agent B" }),
    await createAgent({ name: "Profit Agent C", payBasis: "accepted" }),
  ];
  const clients = [await createClient({ name: "Profit Client X" }), await createClient({ name: "Profit Client Y" })];
  const made: Delivery[] = [];
  for (let i = 0; i < 90; i++) {
    const withClient = r.next() < 0.85;
    const agent = r.pick(agents);
    made.push(
      await createDelivery({
        agentId: agent.id,
        createdBy: manager.id,
        clientId: withClient ? r.pick(clients).id : null,
        date: `${r.pick(["2025-12", "2026-01", "2026-02", "2026-03"])}-${String(1 + r.int(28)).padStart(2, "0")}`,
        tons: `${10 + r.int(30)}.${String(r.int(1000)).padStart(3, "0")}`,
        location: r.pick(SITES),
        status: r.next() < 0.12 ? "draft" : "confirmed",
        payBasis: agent.payBasis,
        buyingRate: r.next() < 0.1 ? null : `${50000 + r.int(5000)}.${String(r.int(100)).padStart(2, "0")}`,
        sellingRate: r.next() < 0.08 ? null : `${60000 + r.int(9000)}.${String(r.int(100)).padStart(2, "0")}`,
        logisticsCost: r.next() < 0.5 ? null : `${r.int(30000)}.${String(r.int(100)).padStart(2, "0")}`,
        otherCosts: r.next() < 0.7 ? null : `${r.int(9000)}.50`,
      }),
    );
  }
  // The client's weighbridge on about half: received below or above loaded, some deduction.
  for (const d of made.filter(() => r.next() < 0.5)) {
    const received = `${Math.max(1, Math.floor(Number(d.tons)) - 2 + r.int(3))}.${String(r.int(1000)).padStart(3, "0")}`;
    const deduction = r.next() < 0.5 ? null : `0.${String(r.int(900)).padStart(3, "0")}`;
    await db
      .update(schema.deliveries)
      .set({ receivedTons: received, qualityDeductionTons: deduction, moisture: deduction ? "18.5" : null })
      .where(sql`${schema.deliveries.id} = ${d.id}`);
  }
  // Edits, a few moves across months and sites, deletions, drafts confirmed.
  for (const d of made.filter(() => r.next() < 0.2)) {
    await db.execute(sql`update deliveries set selling_rate = selling_rate + 100, location = ${r.pick(SITES)},
      date = date + ${r.int(40)}::int where id = ${d.id}`);
  }
  for (const d of made.filter(() => r.next() < 0.08)) await db.execute(sql`delete from deliveries where id = ${d.id}`);
  await db.execute(sql`update deliveries set status = 'confirmed' where status = 'draft' and id % 3 = 0`);
  // Invoices for about half of what can be invoiced; some voided, some credited.
  const eligible = rowsOf<{ id: number }>(
    await db.execute(sql`select id from deliveries where status = 'confirmed' and client_id is not null order by id`),
  );
  for (const { id } of eligible.filter(() => r.next() < 0.55)) {
    const made = await createInvoiceForDelivery(manager, { deliveryId: id });
    if (!made.ok) throw new Error(made.message);
    const fate = r.next();
    if (fate < 0.2) {
      const voided = await voidInvoice(manager, made.invoice.id, { reason: "Wrong client" });
      expect(voided.ok).toBe(true);
    } else if (fate < 0.4) {
      const credited = await createCreditNote(manager, made.invoice.id, { amount: "1000.00", reason: "Wet shells" });
      expect(credited.ok).toBe(true);
    }
  }
}, 120_000);

type Line = Delivery;

/** The sums of a group, counted again from the delivery lines with the delivery rules. */
function sumsOf(lines: Line[]): ProfitSums {
  const priced = lines.filter((d) => d.sellingRate !== null);
  const total = (xs: Line[], f: (d: Line) => string) => toFixed(add("0", ...xs.map(f)), 5);
  const weights = (d: Line) => ({ ...d, payBasis: d.payBasis });
  return {
    n: lines.length,
    nPriced: priced.length,
    nReceived: lines.filter((d) => d.receivedTons !== null).length,
    loadedTons: total(lines, (d) => d.tons),
    receivedTons: total(lines, (d) => d.receivedTons ?? "0"),
    acceptedTons: total(lines, (d) => acceptedTonsOf(weights(d)) ?? "0"),
    shortageTons: total(lines, (d) => shortageTonsOf(d) ?? "0"),
    deductionTons: total(lines, (d) => d.qualityDeductionTons ?? "0"),
    revenue: total(priced, (d) => toFixed(revenueOf(d)!, 5)),
    buyingCost: total(priced, (d) => toFixed(mul(d.paidTons, d.buyingRate ?? "0"), 5)),
    haulage: total(priced, (d) => d.logisticsCost ?? "0"),
    otherCosts: total(priced, (d) => d.otherCosts ?? "0"),
  };
}

function keyOf(query: ProfitQuery, d: Line) {
  const dimension = query.by === "month" ? query.then : query.by;
  const month = query.by === "month" ? d.date.slice(0, 7) : "";
  const key =
    dimension === "agent" ? d.agentId : dimension === "client" ? d.clientId : dimension === "site" ? d.location : "";
  return `${month}|${key}`;
}

const rowKey = (query: ProfitQuery, row: ProfitRow) => {
  const dimension = query.by === "month" ? query.then : query.by;
  const key =
    dimension === "agent" ? row.agentId : dimension === "client" ? row.clientId : dimension === "site" ? row.site : "";
  return `${row.month ?? ""}|${key}`;
};

describe("the profit report equals its delivery lines (decision 1270)", () => {
  it("row by row and in total, for every grouping, on random data", async () => {
    const db = await getDb();
    const lines = (await db.select().from(schema.deliveries)).filter(isCounted);
    expect(lines.filter((d) => d.invoiceId !== null).length).toBeGreaterThan(5);
    expect(lines.filter((d) => d.receivedTons !== null).length).toBeGreaterThan(5);
    for (const query of QUERIES) {
      const report = await loadProfitReport(manager, query);
      const inPeriod = lines.filter((d) => d.date.slice(0, 7) >= query.from && d.date.slice(0, 7) <= query.to);
      const groups = new Map<string, Line[]>();
      for (const d of inPeriod) groups.set(keyOf(query, d), [...(groups.get(keyOf(query, d)) ?? []), d]);
      expect(report.rows.map((row) => rowKey(query, row)).sort(), JSON.stringify(query)).toEqual(
        [...groups.keys()].sort(),
      );
      for (const row of report.rows) {
        const expected = figuresOf(sumsOf(groups.get(rowKey(query, row))!));
        const { month: _m, agentId: _a, agentName: _an, clientId: _c, clientName: _cn, site: _s, ...figures } = row;
        expect(figures, `${JSON.stringify(query)} ${rowKey(query, row)}`).toEqual(expected);
      }
      // The foot is the sum of the rows, margin from those sums; it holds every counted delivery of the period.
      expect(report.totals).toEqual(totalsOf(report.rows));
      expect(report.totals.deliveries).toBe(inPeriod.length);
      expect(report.totals.loadedTons).toBe(toFixed(add("0", ...inPeriod.map((d) => d.tons)), 3));
      expect(report.totals.margin).toBe(
        report.totals.revenue === "0.00" ? null : percentOf(report.totals.profit, report.totals.revenue),
      );
    }
  });

  it("the groupings agree with each other: the same deliveries, tons and money whichever way", async () => {
    const totals = await Promise.all(QUERIES.slice(0, 7).map((q) => loadProfitReport(manager, q)));
    for (const t of totals) {
      expect(t.totals.deliveries).toBe(totals[0].totals.deliveries);
      expect(t.totals.acceptedTons).toBe(totals[0].totals.acceptedTons);
    }
  });

  it("db:check recounts the kept rows and finds them equal", async () => {
    const db = await getDb();
    const breaches = await findBreaches(db as unknown as Db);
    expect(breaches.filter((b) => b.check.startsWith("profit"))).toEqual([]);
    await db.execute(
      sql`update profit_month_totals set revenue = revenue + 1 where ctid = (select min(ctid) from profit_month_totals)`,
    );
    const found = await findBreaches(db as unknown as Db);
    expect(found.some((b) => b.check === "profit report totals equal their deliveries")).toBe(true);
    await db.execute(sql`select pks_rebuild_profit_totals()`);
    expect((await findBreaches(db as unknown as Db)).filter((b) => b.check.startsWith("profit"))).toEqual([]);
  });

  it("reads the kept rows by their month, never the deliveries", async () => {
    const db = await getDb();
    for (const query of QUERIES) {
      const plan = rowsOf<Record<string, unknown>>(await db.execute(sql`explain ${profitSumsQuery(db, query)}`))
        .map((r) => String(Object.values(r)[0]))
        .join("\n");
      expect(plan).not.toMatch(/deliveries/);
    }
  });
});

describe("the dashboard's trends (decision 1270)", () => {
  it("are the last 12 months of profit and tons by the dashboard's rules, and agree with the report", async () => {
    const db = await getDb();
    const lines = (await db.select().from(schema.deliveries)).filter(isCounted);
    const data = await loadManagerDashboard(manager, new Date("2026-03-15T12:00:00Z"));
    const [profit, tons] = data.trends;
    expect(profit.table.rows).toHaveLength(12);
    expect(profit.table.rows[0][0]).toBe("Apr 2025");
    const report = await loadProfitReport(manager, { from: "2025-04", to: "2026-03", by: "month", then: null });
    for (const [i, month] of ["2026-01", "2026-02", "2026-03"].entries()) {
      const ofMonth = lines.filter((d) => d.date.startsWith(month));
      const exact = add("0", ...ofMonth.map((d) => profitOf(d) ?? "0"));
      expect(profit.table.rows[9 + i][1]).toBe(formatNaira(round(exact, 2)));
      expect(tons.table.rows[9 + i][1]).toBe(`${formatTons(add("0", ...ofMonth.map((d) => d.invoicedTons)))} t`);
      // The report rounds each money column before taking profit: at most a kobo or two apart.
      const row = report.rows.find((r) => r.month === month)!;
      const gap = round(add(row.profit, `-${toFixed(round(exact, 2))}`), 2);
      expect(Math.abs(Number(toFixed(gap)))).toBeLessThanOrEqual(0.02);
    }
  });
});

describe("the report's question (decision 1270)", () => {
  const ask = (q: string) => readProfitQuery(new URLSearchParams(q), new Date("2026-05-10T12:00:00Z"));
  it("defaults to this year by month", () => {
    expect(ask("")).toEqual({ ok: true, query: { from: "2026-01", to: "2026-05", by: "month", then: null } });
  });
  it("names the field of a bad period or grouping", () => {
    expect(ask("from=2026-13")).toMatchObject({ ok: false, field: "from" });
    expect(ask("to=2026-1")).toMatchObject({ ok: false, field: "to" });
    expect(ask("from=2026-03&to=2026-02")).toMatchObject({ ok: false, field: "to" });
    expect(ask("from=2016-01&to=2026-01")).toMatchObject({ ok: false, field: "to" });
    expect(ask("from=2016-02&to=2026-01")).toMatchObject({ ok: true });
    expect(ask("by=truck")).toMatchObject({ ok: false, field: "by" });
    expect(ask("by=month&then=month")).toMatchObject({ ok: false, field: "then" });
    expect(ask("by=agent&then=site")).toMatchObject({ ok: false, field: "then" });
  });
});

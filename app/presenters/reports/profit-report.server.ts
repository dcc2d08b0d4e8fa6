// The profit and tonnage report (docs/decisions/1270): every figure from profit_month_totals, the
// rows the delivery triggers keep per month and agent, client or pick-up site. A report reads the
// kept rows of its months (the table's key starts with the month), never the deliveries.
import { and, asc, between, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { figuresOf, totalsOf, type ProfitFigures, type ProfitSums } from "~/rules/profit-figures";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { firstDayOfMonth, isYearMonth, lastDayOfMonth } from "~/utils/year-month";

export const PROFIT_GROUPS = ["month", "agent", "client", "site"] as const;
export type ProfitGroup = (typeof PROFIT_GROUPS)[number];
export type ProfitDimension = Exclude<ProfitGroup, "month">;
const DIMENSIONS = ["agent", "client", "site"] as const satisfies readonly ProfitDimension[];

/** The longest period a report covers: ten years of months. */
export const MAX_REPORT_MONTHS = 120;

export type ProfitQuery = { from: string; to: string; by: ProfitGroup; then: ProfitDimension | null };
export type ProfitQueryError = { field: "from" | "to" | "by" | "then"; message: string };

const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7)) + 1;

/**
 * The report's question from a query string: months `from` and `to` ("YYYY-MM", default January of
 * this year to this month in the business's zone), `by` (default month) and, with `by=month`, an
 * optional `then`. A wrong value is an error naming its field, never a guess.
 */
export function readProfitQuery(
  params: URLSearchParams,
  now = new Date(),
): { ok: true; query: ProfitQuery } | ({ ok: false } & ProfitQueryError) {
  const thisMonth = todayIn(env().APP_TIME_ZONE, now).slice(0, 7);
  const from = params.get("from") || `${thisMonth.slice(0, 4)}-01`;
  const to = params.get("to") || thisMonth;
  const by = params.get("by") || "month";
  const then = params.get("then") || null;
  if (!isYearMonth(from)) return { ok: false, field: "from", message: "from must be a month, YYYY-MM" };
  if (!isYearMonth(to)) return { ok: false, field: "to", message: "to must be a month, YYYY-MM" };
  if (to < from) return { ok: false, field: "to", message: "to must not be before from" };
  if (monthsBetween(from, to) > MAX_REPORT_MONTHS)
    return { ok: false, field: "to", message: "The period may be at most 10 years (120 months)" };
  if (!(PROFIT_GROUPS as readonly string[]).includes(by))
    return { ok: false, field: "by", message: "by must be month, agent, client or site" };
  if (then !== null && !(DIMENSIONS as readonly string[]).includes(then))
    return { ok: false, field: "then", message: "then must be agent, client or site" };
  if (then !== null && by !== "month") return { ok: false, field: "then", message: "then goes only with by=month" };
  return { ok: true, query: { from, to, by: by as ProfitGroup, then: then as ProfitDimension | null } };
}

export type ProfitRow = ProfitFigures & {
  /** "YYYY-MM" when the report is by month. */
  month: string | null;
  agentId: number | null;
  agentName: string | null;
  clientId: number | null;
  /** "No client" for confirmed deliveries without one. */
  clientName: string | null;
  site: string | null;
};

export type ProfitReport = { query: ProfitQuery; rows: ProfitRow[]; totals: ProfitFigures };

const t = schema.profitMonthTotals;

const sums = {
  n: sql<number>`sum(${t.n})::int`,
  nPriced: sql<number>`sum(${t.nPriced})::int`,
  nReceived: sql<number>`sum(${t.nReceived})::int`,
  loadedTons: sql<string>`sum(${t.loadedTons})::text`,
  receivedTons: sql<string>`sum(${t.receivedTons})::text`,
  acceptedTons: sql<string>`sum(${t.acceptedTons})::text`,
  shortageTons: sql<string>`sum(${t.shortageTons})::text`,
  deductionTons: sql<string>`sum(${t.deductionTons})::text`,
  revenue: sql<string>`sum(${t.revenue})::text`,
  buyingCost: sql<string>`sum(${t.buyingCost})::text`,
  haulage: sql<string>`sum(${t.haulage})::text`,
  otherCosts: sql<string>`sum(${t.otherCosts})::text`,
};

type SumRow = ProfitSums & {
  month: string | null;
  agentId: number | null;
  clientId: number | null;
  site: string | null;
};

/**
 * The kept sums of the period grouped as asked: a range of the table's key (month first), one
 * kind of row. By month alone, the agent rows (every counted delivery has one agent).
 */
export function profitSumsQuery(db: Executor, query: ProfitQuery) {
  const dimension: ProfitDimension = query.by === "month" ? (query.then ?? "agent") : query.by;
  const byMonth = query.by === "month";
  const keyed = byMonth ? query.then : query.by;
  const keys = {
    month: byMonth ? sql<string>`to_char(${t.month}, 'YYYY-MM')` : sql<null>`null`,
    agentId: keyed === "agent" ? t.agentId : sql<null>`null::int`,
    clientId: keyed === "client" ? t.clientId : sql<null>`null::int`,
    site: keyed === "site" ? t.site : sql<null>`null::text`,
  };
  const groupBy = [
    ...(byMonth ? [t.month] : []),
    ...(keyed === "agent" ? [t.agentId] : []),
    ...(keyed === "client" ? [t.clientId] : []),
    ...(keyed === "site" ? [t.site] : []),
  ];
  return db
    .select({ ...keys, ...sums })
    .from(t)
    .where(and(between(t.month, firstDayOfMonth(query.from), lastDayOfMonth(query.to)), eq(t.kind, dimension)))
    .groupBy(...groupBy)
    .having(sql`sum(${t.n}) <> 0`)
    .orderBy(...(byMonth ? [asc(t.month)] : []));
}

/** Names of the agents and clients on the rows, read by their keys. */
async function namesOf(db: Executor, rows: SumRow[]) {
  const agentIds = [...new Set(rows.map((r) => r.agentId).filter((id): id is number => id !== null))];
  const clientIds = [...new Set(rows.map((r) => r.clientId).filter((id): id is number => id !== null))];
  const [agents, clients] = await Promise.all([
    agentIds.length
      ? db
          .select({ id: schema.agents.id, name: schema.agents.name })
          .from(schema.agents)
          .where(inArray(schema.agents.id, agentIds))
      : [],
    clientIds.length
      ? db
          .select({ id: schema.clients.id, name: schema.clients.name })
          .from(schema.clients)
          .where(inArray(schema.clients.id, clientIds))
      : [],
  ]);
  return { agents: new Map(agents.map((a) => [a.id, a.name])), clients: new Map(clients.map((c) => [c.id, c.name])) };
}

export const NO_CLIENT = "No client";

/** Rows by month keep the month's order; within a month, and without months, the most profit first. */
function byProfit(a: ProfitRow, b: ProfitRow) {
  if (a.month !== b.month) return (a.month ?? "") < (b.month ?? "") ? -1 : 1;
  const diff = BigInt(b.profit.replace(".", "")) - BigInt(a.profit.replace(".", ""));
  if (diff !== 0n) return diff > 0n ? 1 : -1;
  return (a.agentName ?? a.clientName ?? a.site ?? "").localeCompare(b.agentName ?? b.clientName ?? b.site ?? "");
}

/** The report: its rows and, at the foot, their sum. */
export async function loadProfitReport(actor: Actor, query: ProfitQuery, db?: Executor): Promise<ProfitReport> {
  assertCan(actor, "report.profit", "reports/profit");
  db ??= await getDb();
  const found = (await profitSumsQuery(db, query)) as SumRow[];
  const names = await namesOf(db, found);
  const keyed = query.by === "month" ? query.then : query.by;
  const rows = found
    .map((r) => ({
      month: r.month,
      agentId: r.agentId,
      agentName: r.agentId === null ? null : (names.agents.get(r.agentId) ?? `Agent ${r.agentId}`),
      clientId: r.clientId,
      clientName:
        keyed !== "client"
          ? null
          : r.clientId === null
            ? NO_CLIENT
            : (names.clients.get(r.clientId) ?? `Client ${r.clientId}`),
      site: r.site,
      ...figuresOf(r),
    }))
    .sort(byProfit);
  return { query, rows, totals: totalsOf(rows) };
}

/** The row's name as the table shows it: its agent, client or site, else its month. */
export const rowName = (row: ProfitRow) => row.agentName ?? row.clientName ?? row.site ?? row.month ?? "";

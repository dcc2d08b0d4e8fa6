// The profit and tonnage report (docs/decisions/1270): every figure from profit_month_totals, the
// rows the delivery triggers keep per month and agent, client or pick-up site. A report reads the
// kept rows of its months (the table's key starts with the month), never the deliveries.
import { and, asc, between, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { figuresOf, type ProfitFigures, type ProfitSums } from "~/rules/profit-figures";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { MAX_ID } from "~/utils/params";
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

/**
 * The report's rows, one page of them or all, and its foot, always the whole period's.
 * `nextCursor`: where the next page starts (null on the last page, and when all rows were read).
 */
export type ProfitReport = { query: ProfitQuery; rows: ProfitRow[]; totals: ProfitFigures; nextCursor: string | null };

/** Rows of the page; every row of the period when `limit` is null (by month alone: at most 120). */
export type ProfitPage = { cursor: ProfitCursor | null; limit: number | null };
export const ALL_ROWS: ProfitPage = { cursor: null, limit: null };
/** Rows a page of the report's page shows: with the charts it stays well under the 150 KB page budget. */
export const PROFIT_PAGE_ROWS = 50;

const t = schema.profitMonthTotals;

const sums = {
  n: sql<number>`sum(${t.n})::int`.as("n"),
  nPriced: sql<number>`sum(${t.nPriced})::int`.as("n_priced"),
  nReceived: sql<number>`sum(${t.nReceived})::int`.as("n_received"),
  loadedTons: sql<string>`sum(${t.loadedTons})::text`.as("loaded_tons"),
  receivedTons: sql<string>`sum(${t.receivedTons})::text`.as("received_tons"),
  acceptedTons: sql<string>`sum(${t.acceptedTons})::text`.as("accepted_tons"),
  shortageTons: sql<string>`sum(${t.shortageTons})::text`.as("shortage_tons"),
  deductionTons: sql<string>`sum(${t.deductionTons})::text`.as("deduction_tons"),
  revenue: sql<string>`sum(${t.revenue})::text`.as("revenue"),
  buyingCost: sql<string>`sum(${t.buyingCost})::text`.as("buying_cost"),
  haulage: sql<string>`sum(${t.haulage})::text`.as("haulage"),
  otherCosts: sql<string>`sum(${t.otherCosts})::text`.as("other_costs"),
};

/** A group's profit as figuresOf makes it: each money column rounded to the kobo, then subtracted. */
const profitSql = sql`(round(sum(${t.revenue}), 2) - round(sum(${t.buyingCost}), 2) - round(sum(${t.haulage}), 2) - round(sum(${t.otherCosts}), 2))`;

type SumRow = ProfitSums & {
  month: string | null;
  agentId: number | null;
  clientId: number | null;
  site: string | null;
};

/**
 * Where a page of rows starts: after the row with this month (by month), profit and key (the
 * agent's or client's id, 0 for deliveries without a client, or the site). Rows by month keep the
 * months' order; within a month, and without months, the most profit first, then the key.
 */
export type ProfitCursor = { month: string | null; profit: string; key: string | null };

const dimensionOf = (query: ProfitQuery) => (query.by === "month" ? query.then : query.by);

export function formatProfitCursor(query: ProfitQuery, row: ProfitRow): string {
  const dimension = dimensionOf(query);
  if (dimension === null) return `${row.month}~~`;
  const key =
    dimension === "agent" ? String(row.agentId) : dimension === "client" ? String(row.clientId ?? 0) : (row.site ?? "");
  return `${row.month ?? ""}~${row.profit}~${key}`;
}

/** A cursor from `?cursor=`, checked against the question it continues; null when it is not one. */
export function parseProfitCursor(query: ProfitQuery, value: string): ProfitCursor | null {
  const dimension = dimensionOf(query);
  if (dimension === null) {
    const month = /^(\d{4}-\d{2})~~$/.exec(value)?.[1];
    return month && isYearMonth(month) ? { month, profit: "0", key: null } : null;
  }
  const match = /^(\d{4}-\d{2})?~(-?\d{1,20}\.\d{2})~(.+)$/s.exec(value);
  if (!match) return null;
  const [, month = null, profit, key] = match;
  if ((query.by === "month") !== (month !== null)) return null;
  if (month !== null && !isYearMonth(month)) return null;
  if (dimension !== "site" && !(/^\d{1,10}$/.test(key) && Number(key) <= MAX_ID)) return null;
  return { month, profit, key };
}

/** `?cursor=` of a question: none, a cursor, or an error naming the field. */
export function readProfitCursor(
  query: ProfitQuery,
  params: URLSearchParams,
): { ok: true; cursor: ProfitCursor | null } | ({ ok: false } & { field: "cursor"; message: string }) {
  const value = params.get("cursor");
  if (!value) return { ok: true, cursor: null };
  const cursor = parseProfitCursor(query, value);
  return cursor ? { ok: true, cursor } : { ok: false, field: "cursor", message: "cursor is not a page of this report" };
}

/** The group's key in the rows' order (a client row without a client is 0; ids start at 1). */
function keySql(keyed: ProfitDimension | null) {
  if (keyed === "agent") return sql`${t.agentId}`;
  if (keyed === "client") return sql`coalesce(${t.clientId}, 0)`;
  if (keyed === "site") return sql`${t.site}`;
  return null;
}

/** The rows after the cursor, in the rows' order: month, then profit (most first), then key. */
function afterCursor(keyed: ProfitDimension | null, cursor: ProfitCursor) {
  const key = keySql(keyed);
  const cursorKey = keyed === "site" ? sql`${cursor.key}::text` : sql`${Number(cursor.key)}::int`;
  const within = key
    ? sql`(${profitSql} < ${cursor.profit}::numeric or (${profitSql} = ${cursor.profit}::numeric and ${key} > ${cursorKey}))`
    : sql`false`;
  return cursor.month === null
    ? within
    : sql`(${t.month} > ${firstDayOfMonth(cursor.month)}::date or (${t.month} = ${firstDayOfMonth(cursor.month)}::date and ${within}))`;
}

/**
 * The kept sums of the period grouped as asked: a range of the table's key (month first), one
 * kind of row, in the rows' order. By month alone, the agent rows (every counted delivery has one
 * agent). A page starts after its cursor: by month, from the cursor's month on in the key's order.
 */
export function profitSumsQuery(db: Executor, query: ProfitQuery, page: ProfitPage = ALL_ROWS) {
  const key = keySql(dimensionOf(query));
  const found = groupedSums(db, query, page.cursor).orderBy(
    ...(query.by === "month" ? [asc(t.month)] : []),
    ...(key ? [sql`${profitSql} desc`, key] : []),
  );
  return page.limit === null ? found : found.limit(page.limit + 1);
}

function groupedSums(db: Executor, query: ProfitQuery, cursor: ProfitCursor | null) {
  const dimension: ProfitDimension = query.by === "month" ? (query.then ?? "agent") : query.by;
  const byMonth = query.by === "month";
  const keyed = dimensionOf(query);
  const keys = {
    month: (byMonth ? sql<string>`to_char(${t.month}, 'YYYY-MM')` : sql<null>`null::text`).as("month_key"),
    agentId: (keyed === "agent" ? sql<number>`${t.agentId}` : sql<null>`null::int`).as("agent_key"),
    clientId: (keyed === "client" ? sql<number | null>`${t.clientId}` : sql<null>`null::int`).as("client_key"),
    site: (keyed === "site" ? sql<string>`${t.site}` : sql<null>`null::text`).as("site_key"),
  };
  const groupBy = [
    ...(byMonth ? [t.month] : []),
    ...(keyed === "agent" ? [t.agentId] : []),
    ...(keyed === "client" ? [t.clientId] : []),
    ...(keyed === "site" ? [t.site] : []),
  ];
  const from = cursor?.month && cursor.month > query.from ? cursor.month : query.from;
  return db
    .select({ ...keys, ...sums })
    .from(t)
    .where(and(between(t.month, firstDayOfMonth(from), lastDayOfMonth(query.to)), eq(t.kind, dimension)))
    .groupBy(...groupBy)
    .having(and(sql`sum(${t.n}) <> 0`, cursor ? afterCursor(keyed, cursor) : undefined))
    .$dynamic();
}

/**
 * The foot of the whole period in one read of the kept rows: each group's money rounded to the
 * kobo as its row shows it, then summed, so the foot is the sum of every row as shown whichever
 * page is on screen. `rows`: how many rows the report has.
 */
export async function profitTotals(db: Executor, query: ProfitQuery): Promise<{ totals: ProfitFigures; rows: number }> {
  const g = groupedSums(db, query, null).as("g");
  const money = (column: SQL.Aliased<string>) => sql<string>`coalesce(sum(round(${column}::numeric, 2)), 0)::text`;
  const tons = (column: SQL.Aliased<string>) => sql<string>`coalesce(sum(${column}::numeric), 0)::text`;
  const [found] = await db
    .select({
      rows: sql<number>`count(*)::int`,
      n: sql<number>`coalesce(sum(${g.n}), 0)::int`,
      nPriced: sql<number>`coalesce(sum(${g.nPriced}), 0)::int`,
      nReceived: sql<number>`coalesce(sum(${g.nReceived}), 0)::int`,
      loadedTons: tons(g.loadedTons),
      receivedTons: tons(g.receivedTons),
      acceptedTons: tons(g.acceptedTons),
      shortageTons: tons(g.shortageTons),
      deductionTons: tons(g.deductionTons),
      revenue: money(g.revenue),
      buyingCost: money(g.buyingCost),
      haulage: money(g.haulage),
      otherCosts: money(g.otherCosts),
    })
    .from(g);
  const { rows, ...s } = found;
  return { totals: figuresOf(s), rows };
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

/** A page of the report's rows (all of them when `limit` is null) and the cursor after it. */
export async function loadProfitRows(
  actor: Actor,
  query: ProfitQuery,
  page: ProfitPage = ALL_ROWS,
  db?: Executor,
): Promise<{ rows: ProfitRow[]; nextCursor: string | null }> {
  assertCan(actor, "report.profit", "reports/profit");
  db ??= await getDb();
  const read = (await profitSumsQuery(db, query, page)) as SumRow[];
  const more = page.limit !== null && read.length > page.limit;
  const found = more ? read.slice(0, page.limit!) : read;
  const names = await namesOf(db, found);
  const keyed = dimensionOf(query);
  const rows = found.map((r) => ({
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
  }));
  return { rows, nextCursor: more ? formatProfitCursor(query, rows[rows.length - 1]) : null };
}

/** The report: a page of its rows (or all) and, at the foot, the sum of every row of the period. */
export async function loadProfitReport(
  actor: Actor,
  query: ProfitQuery,
  page: ProfitPage = ALL_ROWS,
  db?: Executor,
): Promise<ProfitReport & { rowCount: number }> {
  assertCan(actor, "report.profit", "reports/profit");
  db ??= await getDb();
  const [{ rows, nextCursor }, foot] = await Promise.all([
    loadProfitRows(actor, query, page, db),
    profitTotals(db, query),
  ]);
  return { query, rows, totals: foot.totals, nextCursor, rowCount: foot.rows };
}

/** Batches of every row of the report, a keyset page at a time (the CSV and the full JSON call). */
export async function* profitRowBatches(actor: Actor, query: ProfitQuery, size = 500): AsyncGenerator<ProfitRow[]> {
  const db = await getDb();
  let cursor: ProfitCursor | null = null;
  for (;;) {
    const { rows, nextCursor } = await loadProfitRows(actor, query, { cursor, limit: size }, db);
    if (rows.length) yield rows;
    if (nextCursor === null) return;
    cursor = parseProfitCursor(query, nextCursor);
  }
}

/** The row's name as the table shows it: its agent, client or site, else its month. */
export const rowName = (row: ProfitRow) => row.agentName ?? row.clientName ?? row.site ?? row.month ?? "";

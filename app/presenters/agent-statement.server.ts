// An agent's statement for a period (docs/decisions/0980): what was owed at its start and end,
// the period's totals, and its deliveries (earned) and payouts (paid) in date order with what was
// owed after each, as pages of lines or, for a download, every line in batches. What an agent
// earns is the net payable of each counted delivery (app/rules/deliveries.server.ts), to the kobo
// per delivery as the deliveries list shows it, so a statement's columns add up. The opening and
// closing figures are index range sums over one agent's rows, like the client statement's.
import { eq, sql } from "drizzle-orm";
import { getDb, rowsOf, schema, type Executor, type PayBasis } from "~/db.server";
import { AGENT_NOT_FOUND } from "~/models/agent-settlement.server";
import { holdSnapshot, inSnapshot } from "~/models/statement.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { countedSql, kobo, netPaymentSql } from "~/rules/deliveries.server";
import {
  formatStatementCursor,
  parseStatementCursor,
  type StatementCursor,
  type StatementPeriod,
} from "~/schemas/statement-query.server";
import type { PayoutMethod } from "~/schemas/settlements";
import { advanceFigures } from "~/rules/advances";
import type { PayoutKind } from "~/schemas/settlements";
import type { PayoutStatus } from "~/utils/payout-methods";
import { add, sub, toFixed } from "~/utils/money";
import { fail, type Result } from "~/utils/result";

export const AGENT_STATEMENT_PAGE_SIZE = 100;

export type AgentStatementLine = {
  /** A reversal takes back a payout recorded in error (a negative `paid`). */
  kind: "delivery" | "payout" | "reversal";
  id: number;
  date: string;
  truckNo: string | null;
  location: string | null;
  /** A delivery's paid tons: the weight its pay basis names (docs/decisions/1220). */
  tons: string | null;
  buyingRate: string | null;
  gross: string | null;
  offloading: string | null;
  mobilization: string | null;
  /** Net payable of a delivery (what the agent earned by it). */
  earned: string | null;
  /** A payout's amount. */
  paid: string | null;
  method: PayoutMethod | null;
  reference: string | null;
  /** A payout: whether it has been reversed. */
  reversed: boolean;
  /** A reversal: the payout it takes back, and why. */
  reversesPayoutId: number | null;
  reason: string | null;
  /** A payout or reversal: settlement or advance (docs/decisions/1250). */
  payoutKind: PayoutKind | null;
  /** A payout: approved (counted in `paid`), pending (awaiting approval) or rejected; neither of the last two counts. */
  status: PayoutStatus | null;
  /** A pending or rejected payout's amount, which `paid` leaves out. */
  amount: string | null;
  /** What was owed to the agent after this line. */
  owed: string;
  cursor: string;
};

export type AgentStatement = {
  agent: {
    id: number;
    name: string;
    phone: string | null;
    bankName: string | null;
    bankAccountName: string | null;
    bankAccountNo: string | null;
    /** What the agent's deliveries recorded from now on are paid on; each delivery keeps its own (docs/decisions/1220). */
    payBasis: PayBasis;
  };
  period: StatementPeriod;
  openingOwed: string;
  closingOwed: string;
  /**
   * Advances (docs/decisions/1250): what was outstanding at the start (a balance below zero), the
   * advances paid in the period (net of their reversals), what of them earnings set off, and what
   * is outstanding at the end. Brought forward + paid − recovered = carried forward.
   */
  advanceBroughtForward: string;
  advancesPaid: string;
  advanceRecovered: string;
  advanceCarriedForward: string;
  /** Payouts of the period awaiting a second admin's approval: not counted as paid. */
  awaitingApproval: { count: number; amount: string };
  totals: {
    deliveries: number;
    tons: string;
    gross: string;
    offloading: string;
    mobilization: string;
    earned: string;
    paid: string;
  };
  lines: AgentStatementLine[];
  nextCursor: string | null;
  continued: boolean;
};

// Payouts and reversals are rows of one table (one id space): they share an order.
const KIND_ORDER = { delivery: 1, payout: 2, reversal: 2 } as const;

/**
 * What was owed to the agent at the start of `day`: what it is owed now (its agent_balances
 * row) less what was earned and paid from `day` on. Both read index ranges from `day`
 * (deliveries_agent_date_idx, agent_payouts_agent_date_idx), so a statement of recent months
 * costs the same however long the agent has delivered.
 */
async function owedBefore(ex: Executor, agentId: number, day: string): Promise<string> {
  const result = await ex.execute(sql`
    select (
      coalesce((select ab.earned - ab.paid from agent_balances ab where ab.agent_id = ${agentId}), 0)
      - coalesce((select sum(${kobo(netPaymentSql())}::numeric) from deliveries
        where deliveries.agent_id = ${agentId} and ${countedSql()} and deliveries.date >= ${day}::date), 0)
      + coalesce((select sum(ap.amount) from agent_payouts ap where ap.agent_id = ${agentId} and ap.payout_date >= ${day}::date
        and ap.status = 'approved'), 0)
    )::numeric(20,2)::text as owed`);
  return rowsOf<{ owed: string }>(result)[0].owed;
}

/** The period's lines as one SQL union ordered by (date, kind order, id). */
function periodLinesSql(agentId: number, period: StatementPeriod) {
  return sql`
    select 1 as ord, 'delivery' as kind, deliveries.id, deliveries.date as day, deliveries.truck_no, deliveries.location,
        deliveries.paid_tons as tons, deliveries.buying_rate,
        round(deliveries.paid_tons * coalesce(deliveries.buying_rate, 0), 2) as gross,
        coalesce(deliveries.offloading_cost, 0) as offloading, coalesce(deliveries.mobilization_payment, 0) as mobilization,
        ${kobo(netPaymentSql())}::numeric as earned, 0::numeric as paid, null::text as method, null::text as reference,
        false as reversed, null::int as reverses_payout_id, null::text as reason,
        null::text as payout_kind, null::text as status, null::numeric as amount
      from deliveries
      where deliveries.agent_id = ${agentId} and ${countedSql()}
        and deliveries.date between ${period.from}::date and ${period.to}::date
    union all
    select 2, case when ap.reverses_payout_id is null then 'payout' else 'reversal' end, ap.id, ap.payout_date,
        null, null, null, null, null, null, null, 0, case when ap.status = 'approved' then ap.amount else 0 end,
        ap.method, ap.reference,
        exists (select 1 from agent_payouts r where r.reverses_payout_id = ap.id), ap.reverses_payout_id,
        case when ap.reverses_payout_id is null then ap.decision_reason else ap.note end,
        ap.kind, ap.status, ap.amount
      from agent_payouts ap
      where ap.agent_id = ${agentId} and ap.payout_date between ${period.from}::date and ${period.to}::date`;
}

type LineRow = {
  kind: "delivery" | "payout" | "reversal";
  id: number;
  day: string;
  truck_no: string | null;
  location: string | null;
  tons: string | null;
  buying_rate: string | null;
  gross: string | null;
  offloading: string | null;
  mobilization: string | null;
  earned: string;
  paid: string;
  method: PayoutMethod | null;
  reference: string | null;
  reversed: boolean;
  reverses_payout_id: number | null;
  reason: string | null;
  payout_kind: PayoutKind | null;
  status: PayoutStatus | null;
  amount: string | null;
  owed: string;
};

/**
 * One keyset page of the period's lines after `after`, each with what was owed after it: the
 * opening figure plus the period's lines up to the cursor (one aggregate, or the caller's
 * running figure), plus the page's own lines in order.
 */
export async function agentStatementLinesPage(
  ex: Executor,
  agentId: number,
  period: StatementPeriod,
  openingOwed: string,
  after: StatementCursor | null,
  limit = AGENT_STATEMENT_PAGE_SIZE,
  owedAfterCursor?: string,
): Promise<{ lines: AgentStatementLine[]; nextCursor: string | null }> {
  const lines = periodLinesSql(agentId, period);
  const afterSql = after
    ? sql`where (l.day, l.ord, l.id) > (${after.date}::date, ${after.order}::int, ${after.id}::int)`
    : sql``;
  const start =
    owedAfterCursor !== undefined
      ? sql`${owedAfterCursor}::numeric`
      : after
        ? sql`${openingOwed}::numeric + (select coalesce(sum(l.earned - l.paid), 0) from (${lines}) l
            where (l.day, l.ord, l.id) <= (${after.date}::date, ${after.order}::int, ${after.id}::int))`
        : sql`${openingOwed}::numeric`;
  const result = await ex.execute(sql`
    with page as (
      select l.* from (${lines}) l ${afterSql}
      order by l.day, l.ord, l.id limit ${limit + 1}
    )
    select page.kind, page.id::int as id, page.day::text as day, page.truck_no, page.location,
        page.tons::text as tons, page.buying_rate::text as buying_rate,
        round(page.gross, 2)::text as gross, round(page.offloading, 2)::text as offloading,
        round(page.mobilization, 2)::text as mobilization,
        round(page.earned, 2)::text as earned, round(page.paid, 2)::text as paid, page.method, page.reference,
        page.reversed, page.reverses_payout_id, page.reason, page.payout_kind, page.status,
        round(page.amount, 2)::text as amount,
        round(${start} + sum(page.earned - page.paid) over (order by page.day, page.ord, page.id), 2)::text as owed
    from page order by page.day, page.ord, page.id`);
  const rows = rowsOf<LineRow>(result);
  const more = rows.length > limit;
  const items = (more ? rows.slice(0, limit) : rows).map((r): AgentStatementLine => {
    const delivery = r.kind === "delivery";
    return {
      kind: r.kind,
      id: r.id,
      date: r.day,
      truckNo: r.truck_no,
      location: r.location,
      tons: r.tons,
      buyingRate: r.buying_rate,
      gross: r.gross,
      offloading: r.offloading,
      mobilization: r.mobilization,
      earned: delivery ? r.earned : null,
      paid: delivery ? null : r.paid,
      method: r.method,
      reference: r.reference,
      reversed: r.reversed,
      reversesPayoutId: r.reverses_payout_id,
      reason: r.reason,
      payoutKind: r.payout_kind,
      status: r.status,
      amount: r.amount,
      owed: r.owed,
      cursor: formatStatementCursor({ date: r.day, order: KIND_ORDER[r.kind], id: r.id }),
    };
  });
  return { lines: items, nextCursor: more ? items[items.length - 1].cursor : null };
}

type PeriodTotals = AgentStatement["totals"] & { advances: string; pendingCount: number; pendingAmount: string };

/** The period's totals, one aggregate. */
async function periodTotals(ex: Executor, agentId: number, period: StatementPeriod): Promise<PeriodTotals> {
  const result = await ex.execute(sql`
    select count(*) filter (where l.kind = 'delivery')::int as deliveries,
      coalesce(sum(l.tons), 0)::numeric(20,3)::text as tons,
      coalesce(sum(l.gross), 0)::numeric(20,2)::text as gross,
      coalesce(sum(l.offloading), 0)::numeric(20,2)::text as offloading,
      coalesce(sum(l.mobilization), 0)::numeric(20,2)::text as mobilization,
      coalesce(sum(l.earned), 0)::numeric(20,2)::text as earned,
      coalesce(sum(l.paid), 0)::numeric(20,2)::text as paid,
      coalesce(sum(l.paid) filter (where l.payout_kind = 'advance'), 0)::numeric(20,2)::text as advances,
      count(*) filter (where l.status = 'pending')::int as "pendingCount",
      coalesce(sum(l.amount) filter (where l.status = 'pending'), 0)::numeric(20,2)::text as "pendingAmount"
    from (${periodLinesSql(agentId, period)}) l`);
  return rowsOf<PeriodTotals>(result)[0];
}

async function statementAgent(ex: Executor, agentId: number): Promise<AgentStatement["agent"] | null> {
  const a = schema.agents;
  const [agent] = await ex
    .select({
      id: a.id,
      name: a.name,
      phone: a.phone,
      bankName: a.bankName,
      bankAccountName: a.bankAccountName,
      bankAccountNo: a.bankAccountNo,
      payBasis: a.payBasis,
    })
    .from(a)
    .where(eq(a.id, agentId));
  return agent ?? null;
}

/** The agent a statement is of, for its heading when the period asked for is refused; null when there is none. */
export async function getStatementAgent(actor: Actor, agentId: number) {
  assertCan(actor, "agent.settle", `agent/${agentId}/statement`);
  return statementAgent(await getDb(), agentId);
}

type AgentStatementHead = Omit<AgentStatement, "lines" | "nextCursor" | "continued">;

/** The statement's figures: what was owed at the start and the end, and the period's totals. */
async function agentStatementFigures(
  ex: Executor,
  agent: AgentStatement["agent"],
  period: StatementPeriod,
): Promise<AgentStatementHead> {
  const [openingOwed, { advances, pendingCount, pendingAmount, ...totals }] = await Promise.all([
    owedBefore(ex, agent.id, period.from),
    periodTotals(ex, agent.id, period),
  ]);
  // Every line of the period is earned or paid out: what is owed at its end follows from them.
  const closingOwed = toFixed(sub(add(openingOwed, totals.earned), totals.paid));
  return {
    agent,
    period,
    openingOwed,
    closingOwed,
    ...advanceFigures(openingOwed, advances, closingOwed),
    awaitingApproval: { count: pendingCount, amount: pendingAmount },
    totals,
  };
}

/**
 * The statement of one agent for a period: its figures and one page of lines, from one snapshot
 * (decision 0980: a payout recorded meanwhile is in all of it or none).
 */
export async function agentStatement(
  actor: Actor,
  agentId: number,
  period: StatementPeriod,
  after: StatementCursor | null = null,
  limit = AGENT_STATEMENT_PAGE_SIZE,
): Promise<Result<{ statement: AgentStatement }>> {
  assertCan(actor, "agent.settle", `agent/${agentId}/statement`);
  return inSnapshot(async (tx): Promise<Result<{ statement: AgentStatement }>> => {
    const agent = await statementAgent(tx, agentId);
    if (!agent) return fail(404, AGENT_NOT_FOUND);
    if (after && (after.date < period.from || after.date > period.to)) {
      return fail(400, "The page of lines is outside the statement's dates");
    }
    const head = await agentStatementFigures(tx, agent, period);
    const page = await agentStatementLinesPage(tx, agentId, period, head.openingOwed, after, limit);
    return {
      ok: true,
      statement: { ...head, lines: page.lines, nextCursor: page.nextCursor, continued: after !== null },
    };
  });
}

/**
 * The whole statement for a download (CSV and PDF): its figures and every line in batches, read
 * in one snapshot held while the lines are sent (on PGlite the figures only: `holdSnapshot`).
 */
export async function agentStatementDownload(
  actor: Actor,
  agentId: number,
  period: StatementPeriod,
  batchSize = 1000,
): Promise<Result<{ statement: AgentStatementHead; batches: AsyncIterable<AgentStatementLine[]> }>> {
  assertCan(actor, "agent.settle", `agent/${agentId}/statement`);
  const held = await holdSnapshot(
    async (tx) => {
      const agent = await statementAgent(tx, agentId);
      return agent && agentStatementFigures(tx, agent, period);
    },
    (ex, head) => agentStatementLineBatches(ex, agentId, period, head.openingOwed, batchSize),
  );
  if (!held) return fail(404, AGENT_NOT_FOUND);
  return { ok: true, statement: held.head, batches: held.rows };
}

/** Every line of the period in batches: the server holds one batch at a time. */
async function* agentStatementLineBatches(
  ex: Executor,
  agentId: number,
  period: StatementPeriod,
  openingOwed: string,
  batchSize: number,
): AsyncGenerator<AgentStatementLine[]> {
  let after: StatementCursor | null = null;
  let owed = openingOwed;
  for (;;) {
    const page = await agentStatementLinesPage(ex, agentId, period, openingOwed, after, batchSize, owed);
    if (page.lines.length) yield page.lines;
    if (!page.nextCursor) return;
    const next = parseStatementCursor(page.nextCursor);
    if (next === null || next === "invalid") return;
    after = next;
    owed = page.lines[page.lines.length - 1].owed;
  }
}

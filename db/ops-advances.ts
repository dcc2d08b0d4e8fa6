// The advance invariants `db:check` adds (docs/decisions/1250). For every agent that has been
// advanced money, its history (counted deliveries' net payable and approved payouts, in the
// statement's order) is walked by the rule the app states (app/rules/advances.ts): no advance has
// had more recovered than was paid, nothing recovered is below zero, and the walk ends on the
// balance agent_balances keeps, with the advance outstanding that balance shows.
import { sql } from "drizzle-orm";
import { advanceWalk } from "../app/rules/advances";
import { compare } from "../app/utils/money";
import { rowsOf, type Db } from "./client.server";

type Breach = { check: string; detail: string };
type Line = { day: string; ord: number; id: number; amount: string; kind: string | null; reverses: number | null };

const CHECK = "advances recovered never more than paid";
const BATCH = 5000;
const AGENTS = 1000;

export async function checkAdvances(db: Db, breaches: Breach[]) {
  const agents = rowsOf<{ agent_id: number; balance: string }>(
    await db.execute(sql`select b.agent_id, (b.earned - b.paid)::numeric(20,2)::text as balance
      from agent_balances b
      where exists (select 1 from agent_payouts p where p.agent_id = b.agent_id and p.kind = 'advance')
      order by b.agent_id limit ${AGENTS}`),
  );
  for (const { agent_id: agentId, balance } of agents) {
    const walk = advanceWalk();
    let after: Line | null = null;
    for (;;) {
      const from = after
        ? sql`where (l.day, l.ord, l.id) > (${after.day}::date, ${after.ord}::int, ${after.id}::int)`
        : sql``;
      const lines: Line[] = rowsOf<Line>(
        await db.execute(sql`select l.day::text as day, l.ord, l.id, l.amount::text as amount, l.kind, l.reverses from (
            select d.date as day, 1 as ord, d.id, round(d.paid_tons * coalesce(d.buying_rate, 0)
              - coalesce(d.offloading_cost, 0) - coalesce(d.mobilization_payment, 0), 2) as amount,
              null::text as kind, null::int as reverses
            from deliveries d where d.agent_id = ${agentId} and d.status in ('confirmed', 'invoiced')
            union all
            select p.payout_date, 2, p.id, p.amount, p.kind, p.reverses_payout_id
            from agent_payouts p where p.agent_id = ${agentId} and p.status = 'approved'
          ) l ${from} order by l.day, l.ord, l.id limit ${BATCH}`),
      );
      for (const l of lines) {
        if (l.ord === 1) walk.step({ type: "earned", amount: l.amount });
        else if (l.reverses !== null) walk.step({ type: "reversal", of: l.reverses, amount: l.amount });
        else walk.step({ type: "payout", id: l.id, kind: l.kind as "settlement" | "advance", amount: l.amount });
      }
      if (lines.length < BATCH) break;
      after = lines[lines.length - 1];
    }
    const result = walk.result();
    for (const a of result.advances) {
      if (compare(a.recovered, a.amount) > 0 || compare(a.recovered, "0") < 0)
        breaches.push({
          check: CHECK,
          detail: `agent ${agentId}: advance ${a.id} of ${a.amount} recovered ${a.recovered}`,
        });
    }
    if (compare(result.balance, balance) !== 0)
      breaches.push({
        check: CHECK,
        detail: `agent ${agentId}: kept balance ${balance}, its history walks to ${result.balance}`,
      });
  }
}

// Agent settlements (docs/decisions/0980): agent payouts and statements on PGlite and PostgreSQL
// alike. What an agent is owed against hand-computed figures to the kobo, the running balance
// across keyset pages, the balances kept by triggers through delivery edits and deletes, the
// owed list read through its index, and bad input, over-payment and closed months refused
// with nothing written.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testDriver } from "../db/template";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { listAgentPayouts } from "../../app/models/agent-settlement.server";
import { agentBalanceTotals, listAgentBalances } from "../../app/presenters/agents-owed.server";
import { agentStatement, agentStatementDownload } from "../../app/presenters/agent-statement.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { deleteAgent } from "../../app/models/agent.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { deleteDelivery, updateDelivery } from "../../app/models/delivery-changes.server";
import { closeMonth } from "../../app/models/period.server";
import { parseStatementCursor } from "../../app/schemas/statement-query.server";
import { agentBalancesExport, agentStatementExport } from "../../app/presenters/statement-exports.server";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { add, toFixed } from "../../app/utils/money";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { statementOutcome } from "../money-entries";
import { expectEveryEventWorded } from "../audit-words";

const NOW = new Date("2026-06-01T10:00:00Z");
const MARCH = { from: "2026-03-01", to: "2026-03-31" };
let agentId: number;
let otherAgentId: number;
let admin: User;
let manager: User;
let staff: User;
let aprilDeliveryId: number;

async function payout(amount: string, payoutDate: string, extra: Record<string, unknown> = {}) {
  const made = await recordAgentPayout(admin, agentId, { amount, payoutDate, method: "bank_transfer", ...extra }, NOW);
  if (!made.ok) throw new Error(made.message);
  return made;
}

async function counts() {
  const db = await getDb();
  const n = async (table: typeof schema.agentPayouts | typeof schema.auditEvents) =>
    (await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  return { payouts: await n(schema.agentPayouts), events: await n(schema.auditEvents) };
}

/** The agent_balances row against a recount from the tables. */
async function balanceAndRecount(id: number) {
  const db = await getDb();
  const [row] = rowsOf<{ kept: string; recount: string }>(
    await db.execute(sql`
      select (b.earned - b.paid)::text as kept,
        ((select coalesce(sum(round(d.tons * coalesce(d.buying_rate, 0) - coalesce(d.offloading_cost, 0)
            - coalesce(d.mobilization_payment, 0), 2)), 0)
          from deliveries d where d.agent_id = ${id} and d.status in ('confirmed', 'invoiced'))
        - (select coalesce(sum(p.amount), 0) from agent_payouts p where p.agent_id = ${id}))::text as recount
      from agent_balances b where b.agent_id = ${id}`),
  );
  return row;
}

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  staff = await createUser({ role: "staff" });
  agentId = (await createAgent({ name: "Settlement Agent" })).id;
  otherAgentId = (await createAgent({ name: "Idle Agent" })).id;
  const base = { agentId, createdBy: admin.id, sellingRate: "70000.00" };
  // February: gross 30.55 x 65,000.50 = 1,985,765.275; net 1,985,765.275 - 15,000 - 20,000 = 1,950,765.275.
  await createDelivery({
    ...base,
    date: "2026-02-10",
    tons: "30.55",
    buyingRate: "65000.50",
    offloadingCost: "15000.00",
    mobilizationPayment: "20000.00",
    truckNo: "KJA-123-XY",
  });
  // March: net 10 x 52,000 - 5,000 = 515,000; and 12.35 x 51,000.25 - 10,000 = 619,853.0875.
  await createDelivery({
    ...base,
    date: "2026-03-05",
    tons: "10.00",
    buyingRate: "52000.00",
    offloadingCost: "5000.00",
  });
  await createDelivery({
    ...base,
    date: "2026-03-20",
    tons: "12.35",
    buyingRate: "51000.25",
    offloadingCost: null,
    mobilizationPayment: "10000.00",
  });
  // A draft earns nothing yet.
  await createDelivery({ ...base, date: "2026-03-21", tons: "99.00", buyingRate: "50000.00", status: "draft" });
  // April: net 5 x 50,000 = 250,000.
  aprilDeliveryId = (
    await createDelivery({ ...base, date: "2026-04-02", tons: "5.00", buyingRate: "50000.00", offloadingCost: "0" })
  ).id;
  await payout("1000000.00", "2026-02-20", { reference: "TRF-0001" });
  await payout("900000.00", "2026-03-10", { method: "cash" });
  await payout("100000.00", "2026-04-05");
});

describe("an agent's statement", () => {
  it("brings forward what was owed, runs every delivery and payout, and closes at the hand-computed figure", async () => {
    const result = await agentStatement(admin, agentId, MARCH);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.statement;
    // 1,950,765.28 earned in February (1,950,765.275 to the kobo) less 1,000,000.00 paid.
    expect(s.openingOwed).toBe("950765.28");
    expect(s.lines.map((l) => [l.kind, l.date, l.earned, l.paid, l.owed])).toEqual([
      ["delivery", "2026-03-05", "515000.00", null, "1465765.28"],
      ["payout", "2026-03-10", null, "900000.00", "565765.28"],
      ["delivery", "2026-03-20", "619853.09", null, "1185618.37"],
    ]);
    const [first, , third] = s.lines;
    expect(first).toMatchObject({ tons: "10.000", buyingRate: "52000.00", gross: "520000.00", offloading: "5000.00" });
    expect(third).toMatchObject({ gross: "629853.09", offloading: "0.00", mobilization: "10000.00" });
    expect(s.lines[1]).toMatchObject({ method: "cash" });
    expect(s.closingOwed).toBe("1185618.37");
    expect(s.totals).toEqual({
      deliveries: 2,
      tons: "22.350",
      gross: "1149853.09",
      offloading: "5000.00",
      mobilization: "10000.00",
      earned: "1134853.09",
      paid: "900000.00",
    });
    expect(s.nextCursor).toBeNull();
  });

  it("carries the running figure across keyset pages and batches", async () => {
    const period = { from: "2026-01-01", to: "2026-12-31" };
    const first = await agentStatement(admin, agentId, period, null, 2);
    if (!first.ok) throw new Error(first.message);
    expect(first.statement.openingOwed).toBe("0.00");
    expect(first.statement.lines).toHaveLength(2);
    const after = parseStatementCursor(first.statement.nextCursor);
    if (after === null || after === "invalid") throw new Error("no cursor");
    const second = await agentStatement(admin, agentId, period, after, 2);
    if (!second.ok) throw new Error(second.message);
    expect(second.statement.continued).toBe(true);
    expect(second.statement.lines.map((l) => l.owed)).toEqual(["1465765.28", "565765.28"]);
    const all = [];
    const download = await agentStatementDownload(admin, agentId, period, 2);
    if (!download.ok) throw new Error(download.message);
    expect(download.statement.openingOwed).toBe("0.00");
    for await (const batch of download.batches) all.push(...batch);
    expect(all.map((l) => l.owed)).toEqual([
      "1950765.28",
      "950765.28",
      "1465765.28",
      "565765.28",
      "1185618.37",
      "1435618.37",
      "1335618.37",
    ]);
    expect(all[all.length - 1].owed).toBe(first.statement.closingOwed);
  });

  it("exports the statement as CSV with the opening and closing figures", async () => {
    const result = await agentStatementExport(admin, agentId, new URLSearchParams("from=2026-03-01&to=2026-03-31"));
    if (!result || "invalid" in result) throw new Error("no export");
    const rows = [];
    for await (const batch of result.batches) rows.push(...batch);
    expect(rows[0]).toMatchObject({ type: "Owed at start", owed: "950765.28" });
    expect(rows[rows.length - 1]).toMatchObject({ type: "Owed at end", owed: "1185618.37" });
    expect(rows).toHaveLength(5);
    expect(result.filename).toBe("agent-statement-settlement-agent-2026-03-01-to-2026-03-31.csv");
  });

  it("refuses a bad period and an unknown agent", async () => {
    for (const query of ["from=2026-04-01&to=2026-03-01", "from=2026-02-30", "from=2020-01-01&to=2026-01-01"]) {
      const result = await agentStatementExport(admin, agentId, new URLSearchParams(query));
      expect(result, query).toMatchObject({ invalid: expect.any(String) });
    }
    expect(await agentStatement(admin, 2_000_000, MARCH)).toMatchObject({ ok: false, status: 404 });
  });
});

describe.runIf(testDriver() === "postgres")("an agent's statement in one snapshot (decision 0980)", () => {
  it("reads a download's figures and every line in one snapshot, while a payout lands between them", async () => {
    const agent = (await createAgent({})).id;
    await createDelivery({
      agentId: agent,
      createdBy: admin.id,
      date: "2026-05-20",
      tons: "1.00",
      offloadingCost: "0",
    });
    const period = { from: "2026-05-01", to: "2026-06-30" };
    const download = await agentStatementDownload(admin, agent, period);
    if (!download.ok) throw new Error(download.message);
    expect(download.statement.closingOwed).toBe("52000.00");
    // Committed after the figures were read and before the lines are; the whole amount, so the
    // other tests' totals over every agent stay as they were.
    const paid = await recordAgentPayout(admin, agent, { amount: "52000.00", method: "cash" }, NOW);
    expect(paid).toMatchObject({ ok: true });
    const lines = [];
    for await (const batch of download.batches) lines.push(...batch);
    expect(lines.map((l) => [l.kind, l.owed])).toEqual([["delivery", "52000.00"]]);
    // The next statement has it, in its lines and its figures alike.
    const after = await agentStatement(admin, agent, period);
    if (!after.ok) throw new Error(after.message);
    expect(after.statement.closingOwed).toBe("0.00");
    expect(after.statement.lines.map((l) => [l.kind, l.owed])).toEqual([
      ["delivery", "52000.00"],
      ["payout", "0.00"],
    ]);
  });
});

describe("payouts", () => {
  it("keeps what is owed to the kobo: earned by counted deliveries less payouts", async () => {
    // 1,950,765.28 + 515,000.00 + 619,853.09 + 250,000.00 - 2,000,000.00 (each delivery to the kobo)
    const page = await listAgentBalances(admin, { page: { cursor: null, direction: "older" } });
    const mine = page.items.find((r) => r.agentId === agentId);
    expect(mine).toMatchObject({
      earned: "3335618.37",
      paid: "2000000.00",
      owed: "1335618.37",
      deliveries: 4,
      payouts: 3,
      lastActivity: "2026-04-05",
    });
    expect(page.items.find((r) => r.agentId === otherAgentId)).toMatchObject({ owed: "0.00", deliveries: 0 });
    expect((await agentBalanceTotals(admin)).owed).toBe("1335618.37");
    const kept = await balanceAndRecount(agentId);
    expect(kept.kept).toBe(kept.recount);
  });

  it("records once under one idempotency key", async () => {
    const before = await counts();
    const key = "payout-key-0001";
    const first = await recordAgentPayout(admin, agentId, { amount: "10.00", method: "cash" }, NOW, {
      idempotencyKey: key,
    });
    const again = await recordAgentPayout(admin, agentId, { amount: "10.00", method: "cash" }, NOW, {
      idempotencyKey: key,
    });
    expect(first).toMatchObject({ ok: true, replayed: false, owed: "1335608.37" });
    expect(again).toMatchObject({ ok: true, replayed: true });
    if (!first.ok || !again.ok) return;
    expect(again.payout.id).toBe(first.payout.id);
    expect(await counts()).toEqual({ payouts: before.payouts + 1, events: before.events + 1 });
    const db = await getDb();
    const [event] = await db
      .select()
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.entityId, String(first.payout.id)));
    expect(event).toMatchObject({ action: "agent_payout.create", entityType: "agent_payout", actorId: admin.id });
    expect(event.after).toMatchObject({ amount: "10.00", owed: "1335608.37", agentName: "Settlement Agent" });
  });

  it("refuses bad input, over-payment and an unknown agent with a clear message, writing nothing", async () => {
    const before = await counts();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: "0", method: "cash" }, 400, "amount"],
      [{ amount: "-5.00", method: "cash" }, 400, "amount"],
      [{ amount: "1.234", method: "cash" }, 400, "amount"],
      [{ amount: "abc", method: "cash" }, 400, "amount"],
      [{ amount: "", method: "cash" }, 400, "amount"],
      [{ amount: "5.00", method: "bitcoin" }, 400, "method"],
      [{ amount: "5.00", method: "cash", payoutDate: "2026-02-30" }, 400, "payoutDate"],
      [{ amount: "5.00", method: "cash", payoutDate: "2026-06-02" }, 400, "payoutDate"],
      [{ amount: "1335608.38", method: "cash" }, 409, "amount"],
    ];
    for (const [input, status, field] of cases) {
      const result = await recordAgentPayout(admin, agentId, input, NOW);
      expect(result, JSON.stringify(input)).toMatchObject({ ok: false, status });
      if (result.ok) continue;
      expect(result.fieldErrors?.[field]?.[0], JSON.stringify(input)).toEqual(expect.any(String));
    }
    expect(await recordAgentPayout(admin, otherAgentId, { amount: "1.00", method: "cash" }, NOW)).toMatchObject({
      ok: false,
      status: 409,
      message: "Nothing is owed to this agent",
    });
    expect(await recordAgentPayout(admin, 2_000_000, { amount: "1.00", method: "cash" }, NOW)).toMatchObject({
      ok: false,
      status: 404,
    });
    for (const role of [staff, manager]) {
      expect(await recordAgentPayout(role, agentId, { amount: "1.00", method: "cash" }, NOW)).toMatchObject({
        ok: false,
        status: 403,
      });
    }
    expect(await counts()).toEqual(before);
  });

  it("lists an agent's payouts newest first in keyset pages", async () => {
    const first = await listAgentPayouts(admin, agentId, { limit: 2, page: { cursor: null, direction: "older" } });
    expect(first.items.map((p) => p.payoutDate)).toEqual(["2026-06-01", "2026-04-05"]);
    expect(first.olderCursor).not.toBeNull();
  });

  it("payouts are never updated or deleted, even by SQL", async () => {
    expect(await statementOutcome(`update agent_payouts set amount = 1 where agent_id = ${agentId}`)).toMatch(
      /append-only/,
    );
    expect(await statementOutcome(`delete from agent_payouts where agent_id = ${agentId}`)).toMatch(/append-only/);
    expect(await statementOutcome(`truncate agent_payouts`)).toMatch(/append-only/);
  });

  it("an agent who was paid cannot be deleted (409, not a database error)", async () => {
    expect(await deleteAgent(admin, agentId)).toMatchObject({ ok: false, status: 409 });
  });
});

describe("the balances kept by triggers", () => {
  it("date an agent with nothing counted yet by the business day it was added, not the UTC day", async () => {
    // 23:30 UTC on 9 March is 00:30 on 10 March in Lagos (APP_TIME_ZONE).
    const agent = await createAgent({ createdAt: new Date("2026-03-09T23:30:00Z") });
    const db = await getDb();
    const kept = async () =>
      (await db.select().from(schema.agentBalances).where(eq(schema.agentBalances.agentId, agent.id)))[0]?.lastActivity;
    expect(await kept()).toBe("2026-03-10");
    // The recount's rule (a delivery that leaves the agent, pks_rebuild_agent_balances) agrees.
    const [recount] = rowsOf<{ day: string }>(
      await db.execute(sql`select pks_agent_last_activity(${agent.id})::text as day`),
    );
    expect(recount.day).toBe("2026-03-10");
  });

  it("follow a delivery's edit and delete", async () => {
    const owed = async () =>
      (await listAgentBalances(admin, { page: { cursor: null, direction: "older" } })).items.find(
        (r) => r.agentId === agentId,
      )!;
    const start = await owed();
    const edited = await updateDelivery(admin, aprilDeliveryId, { tons: "6.00" });
    expect(edited).toMatchObject({ ok: true });
    // One more ton at 50,000.00.
    expect((await owed()).owed).toBe("1385608.37");
    expect(await deleteDelivery(admin, aprilDeliveryId)).toMatchObject({ ok: true });
    const after = await owed();
    expect(after.owed).toBe("1085608.37");
    expect(after.deliveries).toBe(start.deliveries - 1);
    // The latest activity is still the June payout.
    expect(after.lastActivity).toBe("2026-06-01");
    const kept = await balanceAndRecount(agentId);
    expect(kept.kept).toBe(kept.recount);
  });

  it("are not touched by invoicing or voiding, so a delivery for the agent never waits on an invoice", async () => {
    // An invoice's transaction moves its deliveries confirmed -> invoiced (a void moves them back):
    // nothing an agent is owed changes. Were the balance row written, it would stay locked until
    // the invoice committed, and a delivery recorded for that agent meanwhile would wait for it
    // (the two-instance load saw such a wait run past lock_timeout into a 503).
    const db = await getDb();
    const client = await createClient({ name: "Lock Client" });
    const agent = await createAgent({ name: "Invoiced Agent" });
    const delivery = await createDelivery({ agentId: agent.id, clientId: client.id, createdBy: admin.id });
    const version = async () =>
      rowsOf<{ v: string }>(
        await db.execute(sql`select xmin::text as v from agent_balances where agent_id = ${agent.id}`),
      )[0].v;
    const before = await version();
    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    expect(await version()).toBe(before);
    expect(await voidInvoice(admin, made.invoice.id, { reason: "Wrong client" })).toMatchObject({ ok: true });
    expect(await version()).toBe(before);
    const kept = await balanceAndRecount(agent.id);
    expect(kept.kept).toBe(kept.recount);
    // A real change to what the agent earned still writes the row.
    expect(await updateDelivery(admin, delivery.id, { tons: "31.00" })).toMatchObject({ ok: true });
    expect(await version()).not.toBe(before);
    const changed = await balanceAndRecount(agent.id);
    expect(changed.kept).toBe(changed.recount);
  });

  it("add up past a trillion naira without overflowing (the bench's 1,000,000 deliveries did)", async () => {
    // Every agent's earnings at 1,000,000 deliveries came to about 1.5 trillion naira, past the
    // 14 digits the totals were once cast to: Agent Balances answered an error.
    const db = await getDb();
    const before = await agentBalanceTotals(admin);
    await db.execute(
      sql`update agent_balances set earned = earned + 999999999999.99 where agent_id in (${agentId}, ${otherAgentId})`,
    );
    try {
      const after = await agentBalanceTotals(admin);
      expect(after.owed).toBe(toFixed(add(before.owed, "1999999999999.98")));
      const page = await listAgentBalances(admin, { page: { cursor: null, direction: "older" } });
      expect(page.items.find((r) => r.agentId === otherAgentId)?.earned).toBe("999999999999.99");
    } finally {
      await db.execute(sql`select pks_rebuild_agent_balances()`);
    }
  });

  it("the owed list and the statement's sums read their indexes, never a whole table", async () => {
    const db = await getDb();
    // A planner on a few rows prefers a scan; with scans priced out it must find the index.
    const planOf = (query: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf<Record<string, string>>(await tx.execute(sql`explain ${query}`))
          .map((r) => Object.values(r)[0])
          .join("\n");
      });
    const owedList = await planOf(sql`select agent_id from agent_balances
      where (last_activity, agent_id) < ('2026-04-01'::date, 5) order by last_activity desc, agent_id desc limit 51`);
    expect(owedList).toMatch(/Index (Only )?Scan Backward using agent_balances_activity_idx/);
    const opening = await planOf(sql`select sum(tons) from deliveries
      where agent_id = ${agentId} and status in ('confirmed', 'invoiced') and date < '2026-03-01'::date`);
    expect(opening).toMatch(/deliveries_agent_date_idx/);
    const payouts = await planOf(
      sql`select sum(amount) from agent_payouts where agent_id = ${agentId} and payout_date < '2026-03-01'::date`,
    );
    expect(payouts).toMatch(/agent_payouts_agent_date_idx/);
  });

  it("the owed list exports every agent", async () => {
    const result = await agentBalancesExport(admin, NOW);
    const rows = [];
    for await (const batch of result.batches) rows.push(...batch);
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(["Settlement Agent", "Idle Agent"]));
  });
});

describe("db:check", () => {
  it("finds an agent balance that no longer equals its deliveries and payouts, and none once rebuilt", async () => {
    const db = await getDb();
    const agentBreaches = async () =>
      (await findBreaches(db as unknown as Db)).filter((b) => b.check.startsWith("agent balances"));
    expect(await agentBreaches()).toEqual([]);
    await db.execute(sql`update agent_balances set earned = earned + 1 where agent_id = ${agentId}`);
    expect(await agentBreaches()).toEqual([
      expect.objectContaining({ detail: expect.stringContaining(`agent ${agentId} (Settlement Agent)`) }),
    ]);
    await db.execute(sql`select pks_rebuild_agent_balances()`);
    expect(await agentBreaches()).toEqual([]);
  });
});

describe("month close", () => {
  it("refuses a payout dated in a closed month, under the date field", async () => {
    expect(await closeMonth(admin, { month: "2026-01" }, NOW)).toMatchObject({ ok: true });
    const before = await counts();
    const result = await recordAgentPayout(
      admin,
      agentId,
      { amount: "1.00", method: "cash", payoutDate: "2026-01-15" },
      NOW,
    );
    expect(result).toMatchObject({ ok: false, status: 409 });
    if (!result.ok) expect(result.fieldErrors?.payoutDate?.[0]).toMatch(/closed/);
    expect(await counts()).toEqual(before);
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

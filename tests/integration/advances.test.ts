// Advances to agents (docs/decisions/1250), on both drivers: an advance may exceed what is owed
// and takes the balance below zero; later deliveries recover it; the statement's four advance
// figures, hand-computed over three statements; Agent Balances' advances outstanding; the bad
// inputs refused with nothing written; db:check's walk of every advance.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, type User } from "../../app/db.server";
import { agentBalanceTotals, listAgentBalances } from "../../app/presenters/agents-owed.server";
import { agentStatement } from "../../app/presenters/agent-statement.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import * as statementApi from "../../app/routes/api.agents.$id.statement";
import * as payoutsApi from "../../app/routes/api.agents.$id.payouts";
import { FIRST_PAGE } from "../../app/utils/keyset.server";
import { sub, toFixed } from "../../app/utils/money";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { expectEveryEventWorded } from "../audit-words";

const NOW = new Date("2026-06-01T10:00:00Z");
let admin: User;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
});

async function statementOf(agentId: number, from: string, to: string) {
  const result = await agentStatement(admin, agentId, { from, to });
  if (!result.ok) throw new Error(result.message);
  return result.statement;
}

const figures = (s: Awaited<ReturnType<typeof statementOf>>) => ({
  openingOwed: s.openingOwed,
  closingOwed: s.closingOwed,
  advanceBroughtForward: s.advanceBroughtForward,
  advancesPaid: s.advancesPaid,
  advanceRecovered: s.advanceRecovered,
  advanceCarriedForward: s.advanceCarriedForward,
});

async function balanceRow(agentId: number) {
  const page = await listAgentBalances(admin, { page: FIRST_PAGE, limit: 500 });
  return page.items.find((r) => r.agentId === agentId)!;
}

describe("an advance recovered by the deliveries that follow", () => {
  it("goes below zero, is recovered across three later deliveries, and the statements say so", async () => {
    const agentId = (await createAgent()).id;
    const advance = await recordAgentPayout(
      admin,
      agentId,
      { kind: "advance", amount: "2000000.00", payoutDate: "2026-03-02", method: "bank_transfer", reference: "ADV-1" },
      NOW,
    );
    expect(advance).toMatchObject({ ok: true, owed: "-2000000.00", payout: { kind: "advance", status: "approved" } });
    expect(await balanceRow(agentId)).toMatchObject({ owed: "-2000000.00", advanceOutstanding: "2000000.00" });

    // 20 t × 40,000 = 800,000 in March.
    await createDelivery({
      agentId,
      createdBy: admin.id,
      date: "2026-03-10",
      tons: "20.000",
      buyingRate: "40000.00",
      offloadingCost: "0",
    });
    expect(await balanceRow(agentId)).toMatchObject({ advanceOutstanding: "1200000.00" });
    // 25 t × 40,000 − 10,000 offloading = 990,000; 10 t × 40,000 − 50,000 mobilization = 350,000.
    await createDelivery({
      agentId,
      createdBy: admin.id,
      date: "2026-04-05",
      tons: "25.000",
      buyingRate: "40000.00",
      offloadingCost: "10000.00",
    });
    await createDelivery({
      agentId,
      createdBy: admin.id,
      date: "2026-04-20",
      tons: "10.000",
      buyingRate: "40000.00",
      offloadingCost: "0",
      mobilizationPayment: "50000.00",
    });

    expect(figures(await statementOf(agentId, "2026-03-01", "2026-03-31"))).toEqual({
      openingOwed: "0.00",
      closingOwed: "-1200000.00",
      advanceBroughtForward: "0.00",
      advancesPaid: "2000000.00",
      advanceRecovered: "800000.00",
      advanceCarriedForward: "1200000.00",
    });
    expect(figures(await statementOf(agentId, "2026-04-01", "2026-04-30"))).toEqual({
      openingOwed: "-1200000.00",
      closingOwed: "140000.00",
      advanceBroughtForward: "1200000.00",
      advancesPaid: "0.00",
      advanceRecovered: "1200000.00",
      advanceCarriedForward: "0.00",
    });
    const both = await statementOf(agentId, "2026-03-01", "2026-04-30");
    expect(figures(both)).toEqual({
      openingOwed: "0.00",
      closingOwed: "140000.00",
      advanceBroughtForward: "0.00",
      advancesPaid: "2000000.00",
      advanceRecovered: "2000000.00",
      advanceCarriedForward: "0.00",
    });
    expect(both.lines.map((l) => [l.kind, l.payoutKind, l.earned ?? l.paid, l.owed])).toEqual([
      ["payout", "advance", "2000000.00", "-2000000.00"],
      ["delivery", null, "800000.00", "-1200000.00"],
      ["delivery", null, "990000.00", "-210000.00"],
      ["delivery", null, "350000.00", "140000.00"],
    ]);
    expect(await balanceRow(agentId)).toMatchObject({ owed: "140000.00", advanceOutstanding: "0.00" });

    // The JSON names the four figures as decimal strings.
    const { cookie } = await loginAs("admin");
    const json = await call(
      statementApi.loader,
      makeRequest(`/api/agents/${agentId}/statement?from=2026-04-01&to=2026-04-30`, { cookie }),
      { id: String(agentId) },
    );
    expect(json).toMatchObject({
      status: 200,
      body: {
        advanceBroughtForward: "1200000.00",
        advancesPaid: "0.00",
        advanceRecovered: "1200000.00",
        advanceCarriedForward: "0.00",
      },
    });
    expect(await findBreaches((await getDb()) as unknown as Db)).toEqual([]);
  });

  it("Agent Balances totals what is owed apart from the advances outstanding", async () => {
    const before = await agentBalanceTotals(admin);
    const agentId = (await createAgent()).id;
    await createDelivery({
      agentId,
      createdBy: admin.id,
      date: "2026-05-02",
      tons: "1.000",
      buyingRate: "1000.00",
      offloadingCost: "0",
    });
    const owedAgent = (await createAgent()).id;
    await createDelivery({
      agentId: owedAgent,
      createdBy: admin.id,
      date: "2026-05-02",
      tons: "1.000",
      buyingRate: "700.00",
      offloadingCost: "0",
    });
    await recordAgentPayout(
      admin,
      agentId,
      { kind: "advance", amount: "1500.00", payoutDate: "2026-05-03", method: "cash" },
      NOW,
    );
    const after = await agentBalanceTotals(admin);
    const diff = (a: string, b: string) => toFixed(sub(a, b));
    expect(diff(after.owed, before.owed)).toBe("700.00");
    expect(diff(after.advancesOutstanding, before.advancesOutstanding)).toBe("500.00");
  });

  it("refuses a settlement above what is owed and a bad advance, writing nothing", async () => {
    const agentId = (await createAgent()).id;
    await createDelivery({
      agentId,
      createdBy: admin.id,
      date: "2026-05-02",
      tons: "1.000",
      buyingRate: "1000.00",
      offloadingCost: "0",
    });
    const pay = (input: Record<string, unknown>) =>
      recordAgentPayout(admin, agentId, { method: "cash", payoutDate: "2026-05-03", ...input }, NOW);
    expect(await pay({ amount: "1000.01" })).toMatchObject({
      status: 409,
      fieldErrors: { amount: [expect.stringContaining("exceeds")] },
    });
    expect(await pay({ amount: "1000.01", kind: "settlement" })).toMatchObject({ status: 409 });
    expect(await pay({ amount: "0", kind: "advance" })).toMatchObject({
      status: 400,
      fieldErrors: { amount: [expect.any(String)] },
    });
    expect(await pay({ amount: "-5", kind: "advance" })).toMatchObject({
      status: 400,
      fieldErrors: { amount: [expect.any(String)] },
    });
    expect(await pay({ amount: "5.001", kind: "advance" })).toMatchObject({
      status: 400,
      fieldErrors: { amount: [expect.any(String)] },
    });
    expect(await pay({ amount: "5", kind: "loan" })).toMatchObject({
      status: 400,
      fieldErrors: { kind: [expect.any(String)] },
    });
    const db = await getDb();
    const [{ n }] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from agent_payouts where agent_id = ${agentId}`),
    );
    expect(n).toBe(0);
  });

  it("POST /api/agents/{id}/payouts takes kind (settlement by default) and answers status", async () => {
    const { cookie } = await loginAs("admin");
    const agentId = (await createAgent()).id;
    const send = (json: unknown) =>
      call(payoutsApi.action, makeRequest(`/api/agents/${agentId}/payouts`, { method: "POST", cookie, json }), {
        id: String(agentId),
      });
    expect(await send({ amount: "10.00", method: "cash" })).toMatchObject({ status: 409 });
    const made = await send({ amount: "10.00", method: "cash", kind: "advance" });
    expect(made).toMatchObject({ status: 201, body: { kind: "advance", status: "approved", owed: "-10.00" } });
  });
});

describe("db:check walks every advance", () => {
  it("finds a kept balance its history does not walk to", async () => {
    const agentId = (await createAgent()).id;
    await recordAgentPayout(
      admin,
      agentId,
      { kind: "advance", amount: "300.00", payoutDate: "2026-05-03", method: "cash" },
      NOW,
    );
    const db = await getDb();
    await db.execute(sql`update agent_balances set paid = paid - 1 where agent_id = ${agentId}`);
    const breaches = await findBreaches(db as unknown as Db);
    expect(breaches.map((b) => b.check)).toEqual(
      expect.arrayContaining([
        "agent balances equal their deliveries and payouts",
        "advances recovered never more than paid",
      ]),
    );
    await db.execute(sql`update agent_balances set paid = paid + 1 where agent_id = ${agentId}`);
    expect(await findBreaches(db as unknown as Db)).toEqual([]);
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

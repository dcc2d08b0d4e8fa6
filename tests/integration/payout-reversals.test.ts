// Reversing a payout recorded in error (docs/decisions/0980), on both drivers: the
// payout stays, a negative row dated the day of the reversal names it, the agent is owed the
// amount again from that day, once and only once (also when two reversals race), with a reason,
// audited, idempotent, refused in a closed month and for anyone but an admin; the statement,
// its totals, its CSV and the kept balance all agree.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { getPayoutToReverse, listAgentPayouts } from "../../app/models/agent-settlement.server";
import { agentStatement } from "../../app/presenters/agent-statement.server";
import { REVERSAL_NOT_REVERSIBLE, reverseAgentPayout } from "../../app/services/agents/reverse-payout.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { closeMonth } from "../../app/models/period.server";
import { agentStatementExport } from "../../app/presenters/statement-exports.server";
import * as reverseDialog from "../../app/routes/_app.agents_.$id.statement.reverse.$payoutId";
import * as reversalApi from "../../app/routes/api.agents.$id.payouts.$payoutId.reversal";
import { FIRST_PAGE } from "../../app/utils/keyset.server";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { auditEvents } from "../money-entries";
import { expectEveryEventWorded } from "../audit-words";

const NOW = new Date("2026-06-01T10:00:00Z");
let admin: User;
let manager: User;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
});

/** An agent owed 500,000.00 (one delivery in March), with one payout of `amount`. */
async function agentWithPayout(amount = "120000.50") {
  const agentId = (await createAgent()).id;
  await createDelivery({
    agentId,
    createdBy: admin.id,
    date: "2026-03-05",
    tons: "10.00",
    buyingRate: "50000.00",
    offloadingCost: "0",
  });
  const made = await recordAgentPayout(
    admin,
    agentId,
    { amount, payoutDate: "2026-03-20", method: "cash", reference: "CASH-1" },
    NOW,
  );
  if (!made.ok) throw new Error(made.message);
  return { agentId, payout: made.payout };
}

async function keptAndRecount(agentId: number) {
  const db = await getDb();
  return rowsOf<{ kept: string; recount: string; n: number }>(
    await db.execute(sql`
      select round(b.earned - b.paid, 2)::text as kept, b.n_payouts as n,
        round(500000 - (select coalesce(sum(p.amount), 0) from agent_payouts p where p.agent_id = ${agentId}), 2)::text as recount
      from agent_balances b where b.agent_id = ${agentId}`),
  )[0];
}

describe("reversing a payout", () => {
  it("adds a negative row dated today that names the payout; the agent is owed the amount again", async () => {
    const { agentId, payout } = await agentWithPayout();
    expect(await keptAndRecount(agentId)).toMatchObject({ kept: "379999.50", recount: "379999.50" });
    const before = await auditEvents("agent_payout.reverse");

    const result = await reverseAgentPayout(admin, agentId, payout.id, { reason: "  Entered twice  " }, NOW);
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ owed: "500000.00", replayed: false, payout: { id: payout.id } });
    expect(result.reversal).toMatchObject({
      agentId,
      amount: "-120000.50",
      payoutDate: "2026-06-01",
      method: "cash",
      reference: "CASH-1",
      note: "Entered twice",
      reversesPayoutId: payout.id,
      createdBy: admin.id,
    });
    // The payout itself is unchanged.
    const db = await getDb();
    const [kept] = await db.select().from(schema.agentPayouts).where(eq(schema.agentPayouts.id, payout.id));
    expect(kept).toEqual(payout);
    expect(await keptAndRecount(agentId)).toMatchObject({ kept: "500000.00", recount: "500000.00", n: 2 });
    expect(await auditEvents("agent_payout.reverse")).toBe(before + 1);

    // The JSON list of payouts shows both rows, newest first.
    const listed = await listAgentPayouts(admin, agentId, { page: FIRST_PAGE });
    expect(listed.items.map((p) => [p.amount, p.reversesPayoutId])).toEqual([
      ["-120000.50", payout.id],
      ["120000.50", null],
    ]);
    expect(await getPayoutToReverse(admin, agentId, payout.id)).toMatchObject({ reversedOn: "2026-06-01" });
    expect(await getPayoutToReverse(admin, agentId, result.reversal.id)).toBeNull();
  });

  it("shows on the statement: the payout marked reversed, the reversal adding back, totals net", async () => {
    const { agentId, payout } = await agentWithPayout("100000.00");
    const reversed = await reverseAgentPayout(admin, agentId, payout.id, { reason: "Wrong agent" }, NOW);
    if (!reversed.ok) throw new Error(reversed.message);
    const period = { from: "2026-03-01", to: "2026-06-30" };
    const made = await agentStatement(admin, agentId, period);
    if (!made.ok) throw new Error(made.message);
    const { statement } = made;
    expect(statement.lines.map((l) => [l.kind, l.paid, l.owed, l.reversed, l.reversesPayoutId, l.reason])).toEqual([
      ["delivery", null, "500000.00", false, null, null],
      ["payout", "100000.00", "400000.00", true, null, null],
      ["reversal", "-100000.00", "500000.00", false, payout.id, "Wrong agent"],
    ]);
    expect(statement.totals.paid).toBe("0.00");
    expect(statement.closingOwed).toBe("500000.00");
    // A statement of March alone still shows the payout as made then (and reversed since).
    const march = await agentStatement(admin, agentId, { from: "2026-03-01", to: "2026-03-31" });
    if (!march.ok) throw new Error(march.message);
    expect(march.statement.closingOwed).toBe("400000.00");
    expect(march.statement.lines.at(-1)).toMatchObject({ kind: "payout", reversed: true });
    // The opening balance of June counts the reversal only from its day.
    const june = await agentStatement(admin, agentId, { from: "2026-06-01", to: "2026-06-30" });
    if (!june.ok) throw new Error(june.message);
    expect(june.statement).toMatchObject({ openingOwed: "400000.00", closingOwed: "500000.00" });

    const csv = await agentStatementExport(admin, agentId, new URLSearchParams(period), NOW);
    if (!csv || "invalid" in csv) throw new Error("no export");
    let text = "";
    for await (const batch of csv.batches) for (const row of batch) text += JSON.stringify(row) + "\n";
    expect(text).toContain('"type":"Payout reversal"');
    expect(text).toContain(`"note":"Reverses payout #${payout.id}: Wrong agent"`);
    expect(text).toContain('"note":"Reversed"');
  });

  it("refuses a second reversal, a reversal of a reversal, another agent's payout and no reason; writes nothing", async () => {
    const { agentId, payout } = await agentWithPayout();
    const first = await reverseAgentPayout(admin, agentId, payout.id, { reason: "Duplicate" }, NOW);
    if (!first.ok) throw new Error(first.message);
    const db = await getDb();
    const count = async () => (await db.select({ n: sql<number>`count(*)::int` }).from(schema.agentPayouts))[0].n;
    const rows = await count();
    const reverseEvents = await auditEvents("agent_payout.reverse");
    expect(await reverseAgentPayout(admin, agentId, payout.id, { reason: "Again" }, NOW)).toMatchObject({
      ok: false,
      status: 409,
      message: "This payout was already reversed on Jun 01, 2026",
    });
    expect(await reverseAgentPayout(admin, agentId, first.reversal.id, { reason: "Undo" }, NOW)).toMatchObject({
      ok: false,
      status: 409,
      message: REVERSAL_NOT_REVERSIBLE,
    });
    const other = await agentWithPayout();
    expect(await reverseAgentPayout(admin, agentId, other.payout.id, { reason: "x" }, NOW)).toMatchObject({
      status: 404,
    });
    expect(await reverseAgentPayout(admin, other.agentId, other.payout.id, { reason: "   " }, NOW)).toMatchObject({
      status: 400,
      fieldErrors: { reason: ["Reason is required"] },
    });
    expect(await reverseAgentPayout(manager, other.agentId, other.payout.id, { reason: "x" }, NOW)).toMatchObject({
      status: 403,
    });
    expect(await count()).toBe(rows + 1); // the second agent's payout only
    expect(await auditEvents("agent_payout.reverse")).toBe(reverseEvents);
  });

  it("two reversals of one payout at once: one lands, the other is refused", async () => {
    const { agentId, payout } = await agentWithPayout();
    const results = await Promise.all(
      ["Race one", "Race two", "Race three"].map((reason) =>
        reverseAgentPayout(admin, agentId, payout.id, { reason }, NOW),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.status))).toEqual([409, 409]);
    expect(await keptAndRecount(agentId)).toMatchObject({ kept: "500000.00", recount: "500000.00" });
  });

  it("is idempotent under one key, and refused while today's month is closed", async () => {
    const { agentId, payout } = await agentWithPayout();
    const key = `reverse-${agentId}`;
    const first = await reverseAgentPayout(admin, agentId, payout.id, { reason: "Keyed" }, NOW, {
      idempotencyKey: key,
    });
    const again = await reverseAgentPayout(admin, agentId, payout.id, { reason: "Keyed" }, NOW, {
      idempotencyKey: key,
    });
    if (!first.ok || !again.ok) throw new Error("not reversed");
    expect(again).toMatchObject({ replayed: true, reversal: { id: first.reversal.id }, owed: "500000.00" });

    // With February closed, a reversal made (by the clock) in February is refused; today it is not.
    // (Closing a month closes every month before it: March, the payouts' month, stays open.)
    const closedAgent = await agentWithPayout();
    expect(await closeMonth(admin, { month: "2026-02" }, NOW)).toMatchObject({ ok: true });
    const inFebruary = new Date("2026-02-15T10:00:00Z");
    expect(
      await reverseAgentPayout(admin, closedAgent.agentId, closedAgent.payout.id, { reason: "Late" }, inFebruary),
    ).toMatchObject({ ok: false, status: 409, message: expect.stringContaining("This month is closed") });
    expect(await keptAndRecount(closedAgent.agentId)).toMatchObject({ kept: "379999.50" });
    const today = await reverseAgentPayout(admin, closedAgent.agentId, closedAgent.payout.id, { reason: "Late" }, NOW);
    expect(today.ok).toBe(true);
  });
});

describe("the Reverse Payout form and its JSON twin", () => {
  it("the form redirects to the statement with its period, once per key; no reason is a 400", async () => {
    const { cookie } = await loginAs("admin");
    const { agentId, payout } = await agentWithPayout();
    const params = { id: String(agentId), payoutId: String(payout.id) };
    const path = `/agents/${agentId}/statement/reverse/${payout.id}?from=2026-03-01&to=2026-03-31`;
    const shown = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect(shown).toMatchObject({ status: 200, body: { payout: { id: payout.id }, reversedOn: null } });

    const empty = await call(
      reverseDialog.action,
      makeRequest(path, { method: "POST", cookie, form: { reason: "" } }),
      params,
    );
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain("Reason is required");

    const form = { reason: "Paid in cash, entered as a transfer too", idempotencyKey: `form-${agentId}` };
    const done = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe(`/agents/${agentId}/statement?from=2026-03-01&to=2026-03-31`);
    const twice = await call(reverseDialog.action, makeRequest(path, { method: "POST", cookie, form }), params);
    expect(twice.status).toBe(302);
    expect(await keptAndRecount(agentId)).toMatchObject({ kept: "500000.00" });

    const after = await call(reverseDialog.loader, makeRequest(path, { cookie }), params);
    expect((after.body as { reversedOn: string | null }).reversedOn).not.toBeNull();
    const missing = await call(
      reverseDialog.loader,
      makeRequest(`/agents/${agentId}/statement/reverse/999999`, { cookie }),
      { id: String(agentId), payoutId: "999999" },
    );
    expect(missing.status).toBe(404);
  });

  it("POST /api/agents/{id}/payouts/{payoutId}/reversal: 201, 200 on a replay, 409 after, 404 unknown", async () => {
    const { cookie } = await loginAs("admin");
    const { agentId, payout } = await agentWithPayout();
    const path = `/api/agents/${agentId}/payouts/${payout.id}/reversal`;
    const params = { id: String(agentId), payoutId: String(payout.id) };
    const headers = { "Idempotency-Key": `api-${agentId}` };
    const send = (json: unknown, h: Record<string, string> = headers) =>
      call(reversalApi.action, makeRequest(path, { method: "POST", cookie, json, headers: h }), params);
    expect((await send({})).status).toBe(400);
    const first = await send({ reason: "Typed the wrong amount" });
    expect(first).toMatchObject({
      status: 201,
      body: { amount: "-120000.50", reversesPayoutId: payout.id, note: "Typed the wrong amount", owed: "500000.00" },
    });
    const replay = await send({ reason: "Typed the wrong amount" });
    expect(replay.status).toBe(200);
    expect((replay.body as { id: number }).id).toBe((first.body as { id: number }).id);
    expect(await send({ reason: "Again" }, {})).toMatchObject({ status: 409 });
    const unknown = await call(
      reversalApi.action,
      makeRequest(`/api/agents/${agentId}/payouts/999999/reversal`, { method: "POST", cookie, json: { reason: "x" } }),
      { id: String(agentId), payoutId: "999999" },
    );
    expect(unknown.status).toBe(404);
    const get = await call(reversalApi.loader, makeRequest(path, { cookie }), params);
    expect(get.status).toBe(405);
  });
});

describe("the table keeps its own rules", () => {
  it("refuses a negative amount without a payout to reverse, and a second reversal of one payout", async () => {
    const { agentId, payout } = await agentWithPayout();
    const db = await getDb();
    const insert = (values: Partial<typeof schema.agentPayouts.$inferInsert>) =>
      db.insert(schema.agentPayouts).values({
        agentId,
        amount: "-1.00",
        payoutDate: "2026-06-01",
        method: "cash",
        ...values,
      });
    await expect(insert({})).rejects.toThrow();
    await expect(insert({ amount: "1.00", reversesPayoutId: payout.id })).rejects.toThrow();
    await insert({ reversesPayoutId: payout.id });
    await expect(insert({ reversesPayoutId: payout.id })).rejects.toThrow();
    // And a payout is still never removed.
    await expect(db.execute(sql`delete from agent_payouts where id = ${payout.id}`)).rejects.toThrow();
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

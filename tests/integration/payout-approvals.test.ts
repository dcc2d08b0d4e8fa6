// Two people for large payouts (docs/decisions/1250), on both drivers: above the approval limit a
// payout or advance is pending and counts for nothing until a different admin approves it; the
// database refuses the maker as approver even when the app is bypassed; two admins deciding at
// once give one decision and one refusal; rejecting needs a reason; every step is audited; the
// JSON calls and PATCH /api/settings.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testDriver } from "../db/template";
import { getDb, rowsOf, type User } from "../../app/db.server";
import { updateSettings } from "../../app/models/settings.server";
import { agentStatement } from "../../app/presenters/agent-statement.server";
import { listPendingPayouts, pendingPayoutCount } from "../../app/presenters/pending-payouts.server";
import { approveAgentPayout, OWN_PAYOUT, rejectAgentPayout } from "../../app/services/agents/decide-payout.server";
import { recordAgentPayout } from "../../app/services/agents/record-payout.server";
import { reverseAgentPayout } from "../../app/services/agents/reverse-payout.server";
import * as approveApi from "../../app/routes/api.agents.$id.payouts.$payoutId.approve";
import * as rejectApi from "../../app/routes/api.agents.$id.payouts.$payoutId.reject";
import * as payoutsApi from "../../app/routes/api.agents.$id.payouts";
import * as pendingApi from "../../app/routes/api.payouts";
import * as settingsApi from "../../app/routes/api.settings";
import * as pendingPage from "../../app/routes/_app.payouts.pending";
import * as decideDialog from "../../app/routes/_app.payouts.pending.$payoutId.$decision";
import * as payoutDialog from "../../app/routes/_app.agents_.$id.statement.payout";
import * as appLayout from "../../app/routes/_app";
import { describeAccess } from "../access";
import { FIRST_PAGE } from "../../app/utils/keyset.server";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { auditEvents } from "../money-entries";
import { expectEveryEventWorded } from "../audit-words";

const NOW = new Date("2026-06-01T10:00:00Z");
let maker: User;
let checker: User;
let third: User;

beforeAll(async () => {
  maker = await createUser({ role: "admin" });
  checker = await createUser({ role: "admin" });
  third = await createUser({ role: "admin" });
  expect(await updateSettings(maker, { payoutApprovalLimit: "1000000" })).toMatchObject({ ok: true, changed: true });
});

async function kept(agentId: number) {
  const db = await getDb();
  return rowsOf<{ balance: string }>(
    await db.execute(
      sql`select round(earned - paid, 2)::text as balance from agent_balances where agent_id = ${agentId}`,
    ),
  )[0].balance;
}

/** An agent owed 500,000.00 with one pending advance of 1,500,000.00 made by `maker`. */
async function pendingAdvance(amount = "1500000.00") {
  const agentId = (await createAgent()).id;
  await createDelivery({
    agentId,
    createdBy: maker.id,
    date: "2026-05-05",
    tons: "10.000",
    buyingRate: "50000.00",
    offloadingCost: "0",
  });
  const made = await recordAgentPayout(
    maker,
    agentId,
    { kind: "advance", amount, payoutDate: "2026-05-20", method: "bank_transfer" },
    NOW,
  );
  if (!made.ok) throw new Error(made.message);
  return { agentId, payout: made.payout };
}

describe("a payout above the approval limit", () => {
  it("is pending, counts for nothing, shows as awaiting approval, and a second admin approves it", async () => {
    const { agentId, payout } = await pendingAdvance();
    expect(payout).toMatchObject({ status: "pending", kind: "advance", decidedBy: null });
    expect(await kept(agentId)).toBe("500000.00");
    const statement = await agentStatement(maker, agentId, { from: "2026-05-01", to: "2026-05-31" });
    if (!statement.ok) throw new Error(statement.message);
    expect(statement.statement).toMatchObject({
      closingOwed: "500000.00",
      awaitingApproval: { count: 1, amount: "1500000.00" },
      advancesPaid: "0.00",
    });
    expect(statement.statement.lines.find((l) => l.kind === "payout")).toMatchObject({
      status: "pending",
      paid: "0.00",
      amount: "1500000.00",
    });
    const pending = await listPendingPayouts(checker, { page: FIRST_PAGE });
    expect(pending.items.find((p) => p.id === payout.id)).toMatchObject({
      agentId,
      balance: "500000.00",
      amount: "1500000.00",
    });
    const badge = await pendingPayoutCount(checker);
    expect(badge).toBeGreaterThan(0);
    expect(await pendingPayoutCount({ id: maker.id, role: "manager" })).toBeNull();

    // The maker may not approve their own; nothing changes.
    expect(await approveAgentPayout(maker, agentId, payout.id, {}, NOW)).toMatchObject({
      status: 403,
      message: OWN_PAYOUT,
    });
    const events = await auditEvents("agent_payout.approve");
    const approved = await approveAgentPayout(checker, agentId, payout.id, { reason: "Checked with the agent" }, NOW);
    expect(approved).toMatchObject({
      ok: true,
      owed: "-1000000.00",
      payout: { status: "approved", decidedBy: checker.id, decisionReason: "Checked with the agent" },
    });
    expect(await kept(agentId)).toBe("-1000000.00");
    expect(await auditEvents("agent_payout.approve")).toBe(events + 1);
    expect(await pendingPayoutCount(checker)).toBe(badge! - 1);
    // Once decided, it is decided: approving or rejecting again is refused.
    expect(await approveAgentPayout(third, agentId, payout.id, {}, NOW)).toMatchObject({
      status: 409,
      message: expect.stringContaining("already approved"),
    });
    expect(await rejectAgentPayout(third, agentId, payout.id, { reason: "Late" }, NOW)).toMatchObject({ status: 409 });
    // An approved payout is reversed as before; the reversal is neither approved nor rejected.
    const reversal = await reverseAgentPayout(third, agentId, payout.id, { reason: "Wrong agent" }, NOW);
    if (!reversal.ok) throw new Error(reversal.message);
    expect(await kept(agentId)).toBe("500000.00");
    expect(await approveAgentPayout(maker, agentId, reversal.reversal.id, {}, NOW)).toMatchObject({ status: 409 });
  });

  it("a payout at or below the limit is approved at once", async () => {
    const agentId = (await createAgent()).id;
    const made = await recordAgentPayout(
      maker,
      agentId,
      { kind: "advance", amount: "1000000.00", method: "cash" },
      NOW,
    );
    expect(made).toMatchObject({ ok: true, payout: { status: "approved" }, owed: "-1000000.00" });
  });

  it("rejecting needs a reason, keeps the payout visible, and counts it for nothing", async () => {
    const { agentId, payout } = await pendingAdvance();
    expect(await rejectAgentPayout(checker, agentId, payout.id, { reason: " " }, NOW)).toMatchObject({
      status: 400,
      fieldErrors: { reason: ["Reason is required"] },
    });
    expect(await rejectAgentPayout(maker, agentId, payout.id, { reason: "Mine" }, NOW)).toMatchObject({ status: 403 });
    const rejected = await rejectAgentPayout(checker, agentId, payout.id, { reason: "No such agreement" }, NOW);
    expect(rejected).toMatchObject({ ok: true, owed: "500000.00", payout: { status: "rejected" } });
    expect(await kept(agentId)).toBe("500000.00");
    expect(await approveAgentPayout(third, agentId, payout.id, {}, NOW)).toMatchObject({
      status: 409,
      message: expect.stringContaining("already rejected"),
    });
    expect(await reverseAgentPayout(third, agentId, payout.id, { reason: "x" }, NOW)).toMatchObject({ status: 409 });
    const statement = await agentStatement(maker, agentId, { from: "2026-05-01", to: "2026-05-31" });
    if (!statement.ok) throw new Error(statement.message);
    expect(statement.statement.lines.find((l) => l.kind === "payout")).toMatchObject({
      status: "rejected",
      paid: "0.00",
      reason: "No such agreement",
    });
  });

  it("a pending settlement is checked again against what is owed when it is approved", async () => {
    const agentId = (await createAgent()).id;
    await createDelivery({
      agentId,
      createdBy: maker.id,
      date: "2026-05-05",
      tons: "30.000",
      buyingRate: "50000.00",
      offloadingCost: "0",
    });
    const a = await recordAgentPayout(maker, agentId, { amount: "1400000.00", method: "cash" }, NOW);
    const b = await recordAgentPayout(maker, agentId, { amount: "1400000.00", method: "cash" }, NOW);
    if (!a.ok || !b.ok) throw new Error("not recorded");
    expect(await approveAgentPayout(checker, agentId, a.payout.id, {}, NOW)).toMatchObject({
      ok: true,
      owed: "100000.00",
    });
    expect(await approveAgentPayout(checker, agentId, b.payout.id, {}, NOW)).toMatchObject({
      status: 409,
      message: expect.stringContaining("exceeds what is owed"),
    });
  });
});

describe("the database keeps the rule itself", () => {
  it("refuses the maker as decider even when the app is bypassed, and any other change", async () => {
    const { agentId, payout } = await pendingAdvance();
    const db = await getDb();
    await expect(
      db.execute(sql`update agent_payouts set status = 'approved', decided_by = created_by, decided_at = now()
        where id = ${payout.id}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`update agent_payouts set amount = 1 where id = ${payout.id}`)).rejects.toThrow();
    await expect(
      db.execute(sql`update agent_payouts set status = 'rejected', decided_by = ${checker.id}, decided_at = now()
        where id = ${payout.id}`),
    ).rejects.toThrow(); // a rejection without its reason
    expect(await kept(agentId)).toBe("500000.00");
    await db.execute(sql`update agent_payouts set status = 'approved', decided_by = ${checker.id}, decided_at = now()
      where id = ${payout.id}`);
    expect(await kept(agentId)).toBe("-1000000.00");
    // Decided once: the table refuses a second decision too.
    await expect(
      db.execute(sql`update agent_payouts set status = 'rejected', decided_by = ${third.id}, decision_reason = 'x'
        where id = ${payout.id}`),
    ).rejects.toThrow();
  });
});

describe("two admins deciding one payout at once", () => {
  it("one decision lands, the other is refused, and the payout is counted once", async () => {
    const { agentId, payout } = await pendingAdvance();
    const results = await Promise.all([
      approveAgentPayout(checker, agentId, payout.id, {}, NOW),
      approveAgentPayout(third, agentId, payout.id, {}, NOW),
      rejectAgentPayout(third, agentId, payout.id, { reason: "Too much" }, NOW),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? 0 : r.status))).toEqual([409, 409]);
    const decided = results.find((r) => r.ok)!;
    expect(await kept(agentId)).toBe(decided.ok && decided.payout.status === "approved" ? "-1000000.00" : "500000.00");
  });

  it.runIf(testDriver() === "postgres")(
    "a decision waiting on another transaction's lock reads its decision and is refused",
    async () => {
      const { agentId, payout } = await pendingAdvance();
      const db = await getDb();
      let waiting: ReturnType<typeof approveAgentPayout> | undefined;
      await db.transaction(async (tx) => {
        // The app's order: the balance row, then the payout's.
        await tx.execute(sql`select 1 from agent_balances where agent_id = ${agentId} for update`);
        await tx.execute(sql`select 1 from agent_payouts where id = ${payout.id} for update`);
        waiting = approveAgentPayout(third, agentId, payout.id, {}, NOW);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`update agent_payouts set status = 'approved', decided_by = ${checker.id}, decided_at = now()
          where id = ${payout.id}`);
      });
      expect(await waiting).toMatchObject({ status: 409, message: expect.stringContaining("already approved") });
      expect(await kept(agentId)).toBe("-1000000.00");
    },
  );
});

describe("the JSON calls", () => {
  it("answer status, list the pending, approve and reject with {reason}", async () => {
    const first = await loginAs("admin");
    const second = await loginAs("admin");
    const agentId = (await createAgent()).id;
    const params = { id: String(agentId) };
    const made = await call(
      payoutsApi.action,
      makeRequest(`/api/agents/${agentId}/payouts`, {
        method: "POST",
        cookie: first.cookie,
        json: { kind: "advance", amount: "2000000.00", method: "cash" },
      }),
      params,
    );
    expect(made).toMatchObject({ status: 201, body: { status: "pending", kind: "advance", owed: "0.00" } });
    const payoutId = (made.body as { id: number }).id;

    const list = await call(
      pendingApi.loader,
      makeRequest("/api/payouts?status=pending&limit=500", { cookie: second.cookie }),
      {},
    );
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).find((p) => p.id === payoutId)).toMatchObject({
      agentId,
      amount: "2000000.00",
    });
    expect(
      (await call(pendingApi.loader, makeRequest("/api/payouts?status=paid", { cookie: second.cookie }), {})).status,
    ).toBe(400);
    const manager = await loginAs("manager");
    expect(
      (await call(pendingApi.loader, makeRequest("/api/payouts?status=pending", { cookie: manager.cookie }), {}))
        .status,
    ).toBe(403);

    const decide = (api: typeof approveApi, verb: string, cookie: string, json: unknown) =>
      call(
        api.action,
        makeRequest(`/api/agents/${agentId}/payouts/${payoutId}/${verb}`, { method: "POST", cookie, json }),
        { id: String(agentId), payoutId: String(payoutId) },
      );
    expect(await decide(approveApi, "approve", first.cookie, {})).toMatchObject({ status: 403 });
    expect(await decide(rejectApi, "reject", second.cookie, {})).toMatchObject({ status: 400 });
    expect(await decide(approveApi, "approve", second.cookie, {})).toMatchObject({
      status: 200,
      body: { status: "approved", owed: "-2000000.00" },
    });
    expect(await decide(rejectApi, "reject", second.cookie, { reason: "Late" })).toMatchObject({ status: 409 });
  });

  it("PATCH /api/settings takes payoutApprovalLimit: refused below zero, cleared by null", async () => {
    const { cookie } = await loginAs("admin");
    const patch = (json: unknown) =>
      call(settingsApi.action, makeRequest("/api/settings", { method: "PATCH", cookie, json }), {});
    expect(await patch({ payoutApprovalLimit: "-1" })).toMatchObject({
      status: 400,
      body: { errors: { payoutApprovalLimit: [expect.stringContaining("negative")] } },
    });
    expect(await patch({ payoutApprovalLimit: "12.345" })).toMatchObject({ status: 400 });
    expect(await patch({ payoutApprovalLimit: null })).toMatchObject({
      status: 200,
      body: { payoutApprovalLimit: null },
    });
    const agentId = (await createAgent()).id;
    const made = await recordAgentPayout(
      maker,
      agentId,
      { kind: "advance", amount: "9000000.00", method: "cash" },
      NOW,
    );
    expect(made).toMatchObject({ ok: true, payout: { status: "approved" } });
    expect(await patch({ payoutApprovalLimit: "1000000" })).toMatchObject({
      status: 200,
      body: { payoutApprovalLimit: "1000000.00" },
    });
  });
});

describeAccess("payout approvals", [
  {
    name: "pending approvals",
    handler: pendingPage.loader,
    method: "GET",
    path: "/payouts/pending",
    allowed: ["admin"],
    page: true,
  },
  {
    name: "approve dialog",
    handler: decideDialog.loader,
    method: "GET",
    path: "/payouts/pending/1/approve",
    params: { payoutId: "1", decision: "approve" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "reject payout",
    handler: decideDialog.action,
    method: "POST",
    path: "/payouts/pending/1/reject",
    params: { payoutId: "1", decision: "reject" },
    form: { reason: "" },
    allowed: ["admin"],
    page: true,
  },
  {
    name: "approve payout (JSON)",
    handler: approveApi.action,
    method: "POST",
    path: "/api/agents/1/payouts/1/approve",
    params: { id: "1", payoutId: "1" },
    json: {},
    allowed: ["admin"],
  },
  {
    name: "reject payout (JSON)",
    handler: rejectApi.action,
    method: "POST",
    path: "/api/agents/1/payouts/1/reject",
    params: { id: "1", payoutId: "1" },
    json: {},
    allowed: ["admin"],
  },
  {
    name: "payouts by status (JSON)",
    handler: pendingApi.loader,
    method: "GET",
    path: "/api/payouts?status=pending",
    allowed: ["admin"],
  },
]);

describe("the pages", () => {
  it("Record Payout takes the kind; Approve and Reject work as plain form posts; the badge counts", async () => {
    const first = await loginAs("admin");
    const second = await loginAs("admin");
    const agentId = (await createAgent()).id;
    const path = `/agents/${agentId}/statement/payout?from=2026-05-01&to=2026-05-31`;
    const form = {
      kind: "advance",
      amount: "1,200,000.00",
      method: "cash",
      payoutDate: "2026-05-10",
      idempotencyKey: `pf-${agentId}`,
    };
    const made = await call(payoutDialog.action, makeRequest(path, { method: "POST", cookie: first.cookie, form }), {
      id: String(agentId),
    });
    expect(made.status).toBe(302);
    const db = await getDb();
    const [{ id: payoutId }] = rowsOf<{ id: number }>(
      await db.execute(sql`select id from agent_payouts where agent_id = ${agentId} and status = 'pending'`),
    );
    const layout = await call(appLayout.loader, makeRequest("/", { cookie: second.cookie }), {});
    expect((layout.body as { pendingApprovals: number }).pendingApprovals).toBeGreaterThan(0);
    const managerLayout = await call(
      appLayout.loader,
      makeRequest("/", { cookie: (await loginAs("manager")).cookie }),
      {},
    );
    expect(managerLayout.body).toEqual({ pendingApprovals: null });

    const list = await call(pendingPage.loader, makeRequest("/payouts/pending", { cookie: first.cookie }), {});
    expect((list.body as { items: { id: number; own: boolean }[] }).items.find((p) => p.id === payoutId)).toMatchObject(
      { own: true },
    );
    const params = (decision: string) => ({ payoutId: String(payoutId), decision });
    const own = await call(
      decideDialog.loader,
      makeRequest(`/payouts/pending/${payoutId}/approve`, { cookie: first.cookie }),
      params("approve"),
    );
    expect(own.body).toMatchObject({ own: true, payout: { status: "pending", amount: "1200000.00" } });
    const noReason = await call(
      decideDialog.action,
      makeRequest(`/payouts/pending/${payoutId}/reject`, {
        method: "POST",
        cookie: second.cookie,
        form: { reason: "" },
      }),
      params("reject"),
    );
    expect(noReason.status).toBe(400);
    const approved = await call(
      decideDialog.action,
      makeRequest(`/payouts/pending/${payoutId}/approve`, {
        method: "POST",
        cookie: second.cookie,
        form: { reason: "", idempotencyKey: `ap-${payoutId}` },
      }),
      params("approve"),
    );
    expect(approved.status).toBe(302);
    expect(approved.headers.get("Location")).toBe("/payouts/pending");
    expect(await kept(agentId)).toBe("-1200000.00");
    const unknown = await call(
      decideDialog.loader,
      makeRequest(`/payouts/pending/${payoutId}/maybe`, { cookie: second.cookie }),
      params("maybe"),
    );
    expect(unknown.status).toBe(404);
  });
});

it("every event this file wrote reads in words (docs/decisions/0900)", async () => {
  await expectEveryEventWorded();
});

// Month close (docs/decisions/0901): closing is cumulative, only ended months close, reopening
// needs a reason, both are audited once, and `assertPeriodOpen` refuses anything dated on or
// before the closed-through day inside the writer's transaction.
import { desc, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import {
  assertPeriodOpen,
  checkPeriodOpen,
  closedMonthReason,
  closeMonth,
  getClosedThrough,
  getPeriodState,
  isInClosedMonth,
  isPeriodClosed,
  monthsBetween,
  monthsClosedBy,
  reopenMonth,
} from "../../app/models/period.server";
import { createAgent, createDelivery, createUser } from "../factories";

// "Now" is injected: 15 June 2026 in Lagos.
const NOW = new Date("2026-06-15T10:00:00Z");
let admin: User;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
});

async function auditCount() {
  const db = await getDb();
  return (await db.select({ n: sql<number>`count(*)::int` }).from(schema.auditEvents))[0].n;
}

async function lastEvent() {
  const db = await getDb();
  return (await db.select().from(schema.auditEvents).orderBy(desc(schema.auditEvents.id)).limit(1))[0];
}

describe("closing and reopening months", () => {
  it("refuses a month that has not ended, a malformed month, and records nothing", async () => {
    const before = await auditCount();
    for (const month of ["2026-06", "2026-07", "2026-13", "March", "", undefined]) {
      const result = await closeMonth(admin, { month }, NOW);
      expect(result, String(month)).toMatchObject({ ok: false, status: 400 });
    }
    expect(await auditCount()).toBe(before);
  });

  it("closes cumulatively: closing March closes February; closing January again changes nothing", async () => {
    const before = await auditCount();
    const closed = await closeMonth(admin, { month: "2026-03" }, NOW);
    expect(closed).toMatchObject({ ok: true, changed: true, state: { closedThroughMonth: "2026-03" } });
    expect(await auditCount()).toBe(before + 1);
    expect(await lastEvent()).toMatchObject({
      action: "period.close",
      entityType: "period",
      entityId: "2026-03",
      actorId: admin.id,
      after: { closedThrough: "2026-03-31" },
    });
    expect(await closeMonth(admin, { month: "2026-01" }, NOW)).toMatchObject({
      ok: true,
      changed: false,
      state: { closedThrough: "2026-03-31" },
    });
    expect(await auditCount()).toBe(before + 1);
  });

  it("assertPeriodOpen refuses a date in or before a closed month, inside the transaction, and allows the month after", async () => {
    const db = await getDb();
    for (const date of ["2026-03-31", "2026-02-01", "2019-12-31"]) {
      const refused = await db.transaction((tx) => assertPeriodOpen(tx, date)).catch((e: unknown) => e);
      expect(isPeriodClosed(refused), date).toBe(true);
      expect((refused as Error).message).toMatch(/^This month is closed/);
      expect(await db.transaction((tx) => checkPeriodOpen(tx, "2026-04-01", date))).toMatchObject({ status: 409 });
    }
    await expect(db.transaction((tx) => assertPeriodOpen(tx, "2026-04-01", null))).resolves.toBeUndefined();
    expect(await db.transaction((tx) => checkPeriodOpen(tx, "2026-04-01"))).toBeNull();
  });

  it("reopening needs a reason, reopens that month and every later one, and is recorded with the reason", async () => {
    const before = await auditCount();
    for (const reason of ["", "   ", undefined]) {
      expect(await reopenMonth(admin, { month: "2026-02", reason }, NOW)).toMatchObject({
        ok: false,
        status: 400,
        fieldErrors: { reason: ["A reason is required to reopen a month"] },
      });
    }
    expect(await reopenMonth(admin, { month: "2026-05", reason: "Not closed" }, NOW)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await auditCount()).toBe(before);
    const reopened = await reopenMonth(admin, { month: "2026-02", reason: "Weighbridge ticket corrected" }, NOW);
    expect(reopened).toMatchObject({ ok: true, state: { closedThrough: "2026-01-31", closedThroughMonth: "2026-01" } });
    expect(await auditCount()).toBe(before + 1);
    expect(await lastEvent()).toMatchObject({
      action: "period.reopen",
      entityId: "2026-02",
      before: { closedThrough: "2026-03-31" },
      after: { closedThrough: "2026-01-31", reason: "Weighbridge ticket corrected" },
    });
    const db = await getDb();
    await expect(db.transaction((tx) => assertPeriodOpen(tx, "2026-02-10"))).resolves.toBeUndefined();
    await expect(db.transaction((tx) => assertPeriodOpen(tx, "2026-01-31"))).rejects.toThrow(/This month is closed/);
  });

  it("offers the open, ended months and the closed ones as choices, and names what a close would take", async () => {
    // Closed through January 2026 (above); the first delivery is in November 2025.
    const agent = await createAgent();
    await createDelivery({ agentId: agent.id, createdBy: admin.id, date: "2025-11-20" });
    const state = await getPeriodState(admin, NOW);
    expect(state.closeChoices.map((c) => c.month)).toEqual(["2026-05", "2026-04", "2026-03", "2026-02"]);
    expect(state.closeChoices[0].label).toBe("May 2026");
    expect(state.reopenChoices.map((c) => c.month)).toEqual(["2026-01", "2025-12", "2025-11"]);
    expect(monthsClosedBy(state, "2026-04").map((c) => c.label)).toEqual(["February 2026", "March 2026", "April 2026"]);
    expect(monthsClosedBy(state, "2026-01")).toEqual([]);
    expect(monthsBetween("2025-11", "2026-02")).toEqual(["2026-02", "2026-01", "2025-12", "2025-11"]);
  });

  it("tells pages which dates are in a closed month, and why they cannot change", async () => {
    const through = await getClosedThrough();
    expect(through).toBe("2026-01-31");
    expect(isInClosedMonth("2026-01-31", through)).toBe(true);
    expect(isInClosedMonth("2026-01", through)).toBe(true);
    expect(isInClosedMonth("2026-02-01", through)).toBe(false);
    expect(isInClosedMonth("2026-02", through)).toBe(false);
    expect(isInClosedMonth("2020-01-01", null)).toBe(false);
    expect(closedMonthReason(through!)).toMatch(/^This month is closed: .* An admin can reopen the month/);
  });
});

import { describe, expect, it } from "vitest";
import { advanceFigures, outstandingOf, recoverAdvances, type AdvanceEvent } from "./advances";

const earned = (amount: string): AdvanceEvent => ({ type: "earned", amount });
const advance = (id: number, amount: string): AdvanceEvent => ({ type: "payout", id, kind: "advance", amount });
const settle = (id: number, amount: string): AdvanceEvent => ({ type: "payout", id, kind: "settlement", amount });
const reverse = (of: number, amount: string): AdvanceEvent => ({ type: "reversal", of, amount: `-${amount}` });

describe("recoverAdvances: later earnings recover the oldest advance first (decision 1250)", () => {
  it("recovers one advance across three deliveries, then owes the rest", () => {
    const walk = recoverAdvances([advance(1, "2000000"), earned("800000"), earned("900000"), earned("500000")]);
    expect(walk.advances).toEqual([
      { id: 1, amount: "2000000.00", recovered: "2000000.00", outstanding: "0.00", reversed: false },
    ]);
    expect(walk.outstanding).toBe("0.00");
    expect(walk.balance).toBe("200000.00");
  });

  it("takes several advances oldest first, with deliveries in between", () => {
    const walk = recoverAdvances([
      advance(1, "100.00"),
      earned("30.00"),
      advance(2, "50.00"),
      earned("90.00"), // 70 finishes advance 1, 20 goes to advance 2
      advance(3, "40.00"),
      earned("25.50"), // 25.50 more of advance 2
    ]);
    expect(walk.advances.map(({ id, recovered, outstanding }) => ({ id, recovered, outstanding }))).toEqual([
      { id: 1, recovered: "100.00", outstanding: "0.00" },
      { id: 2, recovered: "45.50", outstanding: "4.50" },
      { id: 3, recovered: "0.00", outstanding: "40.00" },
    ]);
    expect(walk.outstanding).toBe("44.50");
    expect(walk.balance).toBe("-44.50");
  });

  it("sets an advance first against what is already owed", () => {
    const walk = recoverAdvances([earned("100.00"), advance(1, "150.00"), earned("20.00")]);
    expect(walk.advances[0]).toMatchObject({ recovered: "120.00", outstanding: "30.00" });
    expect(walk.balance).toBe("-30.00");
  });

  it("a reversed advance stops being outstanding, and what it had recovered recovers the next one", () => {
    const walk = recoverAdvances([
      advance(1, "100.00"),
      advance(2, "100.00"),
      earned("60.00"), // all to advance 1
      reverse(1, "100.00"), // advance 1 gone: its 60 recovered goes to advance 2
    ]);
    expect(walk.advances).toEqual([
      { id: 1, amount: "100.00", recovered: "0.00", outstanding: "0.00", reversed: true },
      { id: 2, amount: "100.00", recovered: "60.00", outstanding: "40.00", reversed: false },
    ]);
    expect(walk.outstanding).toBe("40.00");
    expect(walk.balance).toBe("-40.00");
  });

  it("a reversed advance that was fully recovered leaves its earnings owed", () => {
    const walk = recoverAdvances([advance(1, "100.00"), earned("130.00"), reverse(1, "100.00")]);
    expect(walk.outstanding).toBe("0.00");
    expect(walk.balance).toBe("130.00");
  });

  it("a settlement within what is owed creates no outstanding", () => {
    const walk = recoverAdvances([earned("100.00"), settle(9, "100.00"), advance(1, "10.00"), earned("4.00")]);
    expect(walk.advances[0]).toMatchObject({ recovered: "4.00", outstanding: "6.00" });
    expect(walk.outstanding).toBe("6.00");
  });
});

describe("the statement's advance figures", () => {
  it("brought forward + paid − recovered = carried forward", () => {
    expect(advanceFigures("-500.00", "1000.00", "-300.00")).toEqual({
      advanceBroughtForward: "500.00",
      advancesPaid: "1000.00",
      advanceRecovered: "1200.00",
      advanceCarriedForward: "300.00",
    });
  });
  it("nothing outstanding when the balance is owed", () => {
    expect(advanceFigures("10.00", "0", "25.00")).toEqual({
      advanceBroughtForward: "0.00",
      advancesPaid: "0.00",
      advanceRecovered: "0.00",
      advanceCarriedForward: "0.00",
    });
    expect(outstandingOf("-0.01")).toBe("0.01");
    expect(outstandingOf("0.00")).toBe("0.00");
  });
});

import { describe, expect, it } from "vitest";
import { add, toFixed } from "~/utils/money";
import { ageingBucket, ageingOf, daysOverdue } from "./ageing";

const AS_OF = "2026-06-30";

describe("ageing by due date as of the statement's end date (docs/decisions/0970)", () => {
  it("puts each day overdue in exactly one bucket at the boundaries", () => {
    const cases: [string, number, string][] = [
      ["2026-07-15", -15, "current"], // not yet due
      ["2026-06-30", 0, "current"], // due today
      ["2026-06-29", 1, "d1_30"],
      ["2026-05-31", 30, "d1_30"],
      ["2026-05-30", 31, "d31_60"],
      ["2026-05-01", 60, "d31_60"],
      ["2026-04-30", 61, "d61_90"],
      ["2026-04-01", 90, "d61_90"],
      ["2026-03-31", 91, "over90"],
      ["2020-01-01", 2372, "over90"],
    ];
    for (const [due, days, bucket] of cases) {
      expect(daysOverdue(due, AS_OF), due).toBe(days);
      expect(ageingBucket(due, AS_OF, "10.00"), `${days} days overdue`).toBe(bucket);
    }
  });

  it("counts days across a leap day and a month end by the calendar", () => {
    expect(daysOverdue("2024-02-28", "2024-03-01")).toBe(2);
    expect(daysOverdue("2023-02-28", "2023-03-01")).toBe(1);
  });

  it("puts a credit beyond what was unpaid in Current as a negative, whatever its due date", () => {
    expect(ageingBucket("2020-01-01", AS_OF, "-25.00")).toBe("current");
  });

  it("adds up to the closing balance", () => {
    const invoices = [
      { due: "2026-06-30", outstanding: "100.00" }, // due today
      { due: "2026-06-29", outstanding: "200.10" }, // 1
      { due: "2026-05-31", outstanding: "300.20" }, // 30
      { due: "2026-05-30", outstanding: "400.30" }, // 31
      { due: "2026-05-01", outstanding: "500.40" }, // 60
      { due: "2026-04-30", outstanding: "600.50" }, // 61
      { due: "2026-04-01", outstanding: "700.60" }, // 90
      { due: "2026-03-31", outstanding: "800.70" }, // 91
      { due: "2026-02-01", outstanding: "-50.05" }, // an overpaid invoice: the client's credit
    ];
    const ageing = ageingOf(invoices, AS_OF);
    expect(ageing).toEqual({
      current: "49.95",
      d1_30: "500.30",
      d31_60: "900.70",
      d61_90: "1301.10",
      over90: "800.70",
      total: "3552.75",
    });
    // The closing balance is the sum of what every invoice still owes.
    const closing = toFixed(add(...invoices.map((i) => i.outstanding)));
    expect(ageing.total).toBe(closing);
    expect(toFixed(add(ageing.current, ageing.d1_30, ageing.d31_60, ageing.d61_90, ageing.over90))).toBe(closing);
  });
});

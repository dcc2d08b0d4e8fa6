import { describe, expect, it } from "vitest";
import { firstDayOfMonth, isYearMonth, lastDayOfMonth, nextMonth, previousMonth } from "./year-month";

describe("isYearMonth", () => {
  it("takes a month of a year from 1900 to 9999, as dates are", () => {
    expect(["2026-11", "1900-01", "9999-12"].map(isYearMonth)).toEqual([true, true, true]);
    expect(["0000-01", "1899-12", "2026-13", "2026-00", "2026-1", "x", null].map(isYearMonth)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("month arithmetic", () => {
  it("gives a month's first and last days, December 9999 included", () => {
    expect(firstDayOfMonth("2026-02")).toBe("2026-02-01");
    expect(
      [
        "2026-01",
        "2026-02",
        "2024-02",
        "2000-02",
        "1900-02",
        "2026-04",
        "2026-07",
        "2026-08",
        "2026-12",
        "9999-12",
      ].map(lastDayOfMonth),
    ).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2024-02-29",
      "2000-02-29",
      "1900-02-28",
      "2026-04-30",
      "2026-07-31",
      "2026-08-31",
      "2026-12-31",
      "9999-12-31",
    ]);
    expect(["2026-03", "2026-01", "1900-01"].map(previousMonth)).toEqual(["2026-02", "2025-12", "1899-12"]);
    expect(["2026-03", "2025-12", "9999-11", "9999-12"].map(nextMonth)).toEqual([
      "2026-04",
      "2026-01",
      "9999-12",
      null,
    ]);
  });
});

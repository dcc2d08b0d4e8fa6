import { describe, expect, it } from "vitest";
import { isYearMonth } from "./year-month";

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

import { describe, expect, it } from "vitest";
import { deductedPercent, plainDecimal, ruleOn, workedExample } from "./quality";

const rule = (validFrom: string, moistureThreshold = "16.00", deductionPerPoint = "1.00") => ({
  validFrom,
  moistureThreshold,
  deductionPerPoint,
});

describe("ruleOn: the rule with the greatest valid-from on or before the day", () => {
  const rules = [rule("2026-03-01"), rule("2026-01-01"), rule("2026-06-15")];

  it("is none before the first rule, and none without rules", () => {
    expect(ruleOn(rules, "2025-12-31")).toBeNull();
    expect(ruleOn([], "2026-03-01")).toBeNull();
  });

  it("holds from its own day until the day before the next one, whatever the order given", () => {
    expect(ruleOn(rules, "2026-01-01")?.validFrom).toBe("2026-01-01");
    expect(ruleOn(rules, "2026-02-28")?.validFrom).toBe("2026-01-01");
    expect(ruleOn(rules, "2026-03-01")?.validFrom).toBe("2026-03-01");
    expect(ruleOn(rules, "2026-06-14")?.validFrom).toBe("2026-03-01");
    expect(ruleOn(rules, "2026-06-15")?.validFrom).toBe("2026-06-15");
    expect(ruleOn([...rules].reverse(), "2030-01-01")?.validFrom).toBe("2026-06-15");
  });

  it("gives back the rule itself, with whatever else it carries", () => {
    const withId = [{ ...rule("2026-01-01"), id: 7 }];
    expect(ruleOn(withId, "2026-05-05")).toBe(withId[0]);
  });
});

describe("deductedPercent: points above the threshold times the deduction per point, exact", () => {
  it("reads the design's example: 18.5% against 16% and 1% deducts 2.5%", () => {
    expect(deductedPercent(rule("2026-01-01"), "18.5")).toBe("2.5");
  });

  it("deducts nothing at or below the threshold", () => {
    expect(deductedPercent(rule("2026-01-01"), "16")).toBe("0");
    expect(deductedPercent(rule("2026-01-01"), "12.25")).toBe("0");
  });

  it("never rounds through a float (0.1 + 0.2 points at 3% is 0.9 exactly)", () => {
    expect(deductedPercent(rule("2026-01-01", "16.1", "3"), "16.4")).toBe("0.9");
    expect(deductedPercent(rule("2026-01-01", "10", "0.01"), "10.03")).toBe("0.0003");
  });

  it("never takes more than the whole weight", () => {
    expect(deductedPercent(rule("2026-01-01", "0", "100"), "50")).toBe("100");
  });
});

describe("workedExample: a reading 2.5 points above the threshold", () => {
  it("says the reading, the multiplication and the share of the weight", () => {
    expect(workedExample(rule("2026-01-01"))).toBe(
      "A reading of 18.5% is 2.5 points above 16%: it deducts 2.5 × 1% = 2.5% of the received weight.",
    );
    expect(workedExample(rule("2026-01-01", "14.75", "1.20"))).toBe(
      "A reading of 17.25% is 2.5 points above 14.75%: it deducts 2.5 × 1.2% = 3% of the received weight.",
    );
  });

  it("says when the deduction would pass the whole weight", () => {
    expect(workedExample(rule("2026-01-01", "0", "50"))).toBe(
      "A reading of 2.5% is 2.5 points above 0%: it deducts 2.5 × 50% = 125%, that is the whole received weight.",
    );
  });
});

describe("plainDecimal", () => {
  it("drops trailing zeros and a bare point", () => {
    expect(plainDecimal("18.50")).toBe("18.5");
    expect(plainDecimal("2.00")).toBe("2");
    expect(plainDecimal("100")).toBe("100");
    expect(plainDecimal("0.05")).toBe("0.05");
  });
});

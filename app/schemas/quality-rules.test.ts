import { describe, expect, it } from "vitest";
import { fieldErrorsOf, safeParseFields } from "./fields";
import { QualityRuleFormSchema, QualityRuleSchema, qualityRuleFormConstraint } from "./quality-rules";

const good = { validFrom: "2026-03-01", moistureThreshold: "16", deductionPerPoint: "1" };

function errorsOf(input: Record<string, unknown>) {
  const parsed = safeParseFields(QualityRuleSchema, input);
  return parsed.success ? null : fieldErrorsOf(parsed.error).fieldErrors;
}

describe("QualityRuleSchema: the Add Rule dialog and the JSON call alike", () => {
  it("keeps the decimals as the strings typed", () => {
    expect(QualityRuleSchema.parse(good)).toEqual(good);
    expect(QualityRuleSchema.parse({ ...good, moistureThreshold: " 14.75 " }).moistureThreshold).toBe("14.75");
  });

  it("takes a threshold of 0 and of 100, and refuses 100.01 and negatives", () => {
    expect(errorsOf({ ...good, moistureThreshold: "0" })).toBeNull();
    expect(errorsOf({ ...good, moistureThreshold: "100" })).toBeNull();
    expect(errorsOf({ ...good, moistureThreshold: "100.01" })).toEqual({
      moistureThreshold: ["Moisture threshold must be between 0 and 100"],
    });
    expect(errorsOf({ ...good, moistureThreshold: "1000" })).toEqual({
      moistureThreshold: ["Moisture threshold must be between 0 and 100"],
    });
    expect(errorsOf({ ...good, moistureThreshold: "-1" })).toEqual({
      moistureThreshold: ["Moisture threshold cannot be negative"],
    });
  });

  it("wants a deduction above 0 and at most 100", () => {
    expect(errorsOf({ ...good, deductionPerPoint: "0" })).toEqual({
      deductionPerPoint: ["Deduction per point must be greater than 0"],
    });
    expect(errorsOf({ ...good, deductionPerPoint: "0.00" })).toEqual({
      deductionPerPoint: ["Deduction per point must be greater than 0"],
    });
    expect(errorsOf({ ...good, deductionPerPoint: "0.01" })).toBeNull();
    expect(errorsOf({ ...good, deductionPerPoint: "100" })).toBeNull();
    expect(errorsOf({ ...good, deductionPerPoint: "100.01" })).toEqual({
      deductionPerPoint: ["Deduction per point must be at most 100"],
    });
  });

  it("refuses three decimals rather than rounding them", () => {
    expect(errorsOf({ ...good, moistureThreshold: "16.125" })).toEqual({
      moistureThreshold: ["Moisture threshold can have at most 2 decimals"],
    });
  });

  it("reads a JSON number through its own digits: 16.1 is 16.1, and 0.1 + 0.2 is refused", () => {
    expect(QualityRuleSchema.parse({ ...good, moistureThreshold: 16.1, deductionPerPoint: 1.2 })).toEqual({
      ...good,
      moistureThreshold: "16.1",
      deductionPerPoint: "1.2",
    });
    expect(errorsOf({ ...good, deductionPerPoint: 0.1 + 0.2 })).toEqual({
      deductionPerPoint: ["Deduction per point can have at most 2 decimals"],
    });
    expect(errorsOf({ ...good, moistureThreshold: Number.NaN })).toEqual({
      moistureThreshold: ["Moisture threshold must be a number"],
    });
  });

  it("names every blank or missing field", () => {
    expect(errorsOf({ validFrom: " ", moistureThreshold: "", deductionPerPoint: null })).toEqual({
      validFrom: ["Valid from is required"],
      moistureThreshold: ["Moisture threshold is required"],
      deductionPerPoint: ["Deduction per point is required"],
    });
    expect(errorsOf({})).toEqual({
      validFrom: ["Valid from is required"],
      moistureThreshold: ["Moisture threshold is required"],
      deductionPerPoint: ["Deduction per point is required"],
    });
    expect(errorsOf({ ...good, moistureThreshold: true })).toEqual({
      moistureThreshold: ["Moisture threshold must be a number"],
    });
  });

  it("wants a real day on or after 1 January 2000", () => {
    expect(errorsOf({ ...good, validFrom: "2026-02-30" })).toEqual({
      validFrom: ["Valid from must be a real date (yyyy-mm-dd)"],
    });
    expect(errorsOf({ ...good, validFrom: "1999-12-31" })).toEqual({
      validFrom: ["Valid from must be on or after 1 January 2000"],
    });
    expect(errorsOf({ ...good, validFrom: "2000-01-01" })).toBeNull();
  });

  it("is the form's schema too, with the browser's checks read from it", () => {
    expect(QualityRuleFormSchema.safeParse({ validFrom: "2026-03-01" }).success).toBe(false);
    expect(qualityRuleFormConstraint("2026-11-28")).toEqual({
      validFrom: { required: true, min: "2000-01-01", max: "2027-11-29" },
      moistureThreshold: { required: true, min: 0, max: 100, step: "0.01" },
      deductionPerPoint: { required: true, min: "0.01", max: 100, step: "0.01" },
    });
  });
});

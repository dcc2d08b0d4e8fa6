import { describe, expect, it } from "vitest";
import { businessDateBounds, businessDateRefusal } from "./business-dates";

describe("businessDateRefusal (decision 0841)", () => {
  const today = "2026-03-31";
  it("takes a delivery from 1 January 2000 to tomorrow", () => {
    expect(businessDateRefusal("Date", "2000-01-01", today, 1)).toBeNull();
    expect(businessDateRefusal("Date", "2026-04-01", today, 1)).toBeNull();
    expect(businessDateRefusal("Date", "2026-04-02", today, 1)).toBe("Date must be no later than tomorrow");
    for (const far of ["9999-12-31", "2099-01-01"])
      expect(businessDateRefusal("Date", far, today, 1)).toBe("Date must be no later than tomorrow");
    for (const early of ["1999-12-31", "1969-12-31", "1900-01-01"])
      expect(businessDateRefusal("Date", early, today, 1)).toBe("Date must be on or after 1 January 2000");
  });

  it("takes money moved up to today only", () => {
    expect(businessDateRefusal("Payment date", today, today, 0)).toBeNull();
    expect(businessDateRefusal("Payment date", "2026-04-01", today, 0)).toBe("Payment date cannot be in the future");
    expect(businessDateRefusal("Payout date", "1969-12-31", today, 0)).toBe(
      "Payout date must be on or after 1 January 2000",
    );
  });

  it("gives the browser the same bounds", () => {
    expect(businessDateBounds(today, 1)).toEqual({ min: "2000-01-01", max: "2026-04-01" });
  });
});

// The weight arithmetic of docs/decisions/1220: kilograms to tons, the quality deduction rounded
// once to the kilogram, the three weights and the shortage.
import { describe, expect, it } from "vitest";
import { formatTons } from "~/utils/money";
import { deductedPercent } from "./quality";
import {
  acceptedTonsOf,
  deductionKg,
  invoicedTonsOf,
  kgToTons,
  paidTonsOf,
  shortageTonsOf,
  tonsToKg,
  type Weights,
} from "./weights";

describe("kilograms and tons", () => {
  it("turns whole kilograms into exact tons and back", () => {
    expect(kgToTons(30120)).toBe("30.120");
    expect(kgToTons(1)).toBe("0.001");
    expect(kgToTons(200000)).toBe("200.000");
    expect(tonsToKg("30.12")).toBe(30120);
    expect(tonsToKg("30.1205")).toBeNull();
  });

  it("shows tons with two decimals, three when a kilogram digit is there", () => {
    expect(formatTons("30.550")).toBe("30.55");
    expect(formatTons("30.123")).toBe("30.123");
    expect(formatTons("1234.5")).toBe("1,234.50");
  });
});

describe("the quality deduction", () => {
  it("takes the rule's percent of the received kilograms, rounded half away from zero to the kilogram", () => {
    // 18.5% against 16% and 1%: 2.5% of 30,120 kg = 753 kg exactly.
    expect(deductionKg(30120, deductedPercent({ moistureThreshold: "16", deductionPerPoint: "1" }, "18.5"))).toBe(753);
    // 2.5% of 30,110 kg = 752.75 → 753; 2.5% of 30,090 = 752.25 → 752; 2.5% of 30,100 = 752.5 → 753 (half up).
    expect(deductionKg(30110, "2.5")).toBe(753);
    expect(deductionKg(30090, "2.5")).toBe(752);
    expect(deductionKg(30100, "2.5")).toBe(753);
    // Four-decimal percents (0.33 points x 1.5% = 0.495%) stay exact until the one rounding.
    expect(deductionKg(10000, deductedPercent({ moistureThreshold: "16", deductionPerPoint: "1.5" }, "16.33"))).toBe(
      50,
    );
    expect(deductionKg(30120, "0")).toBe(0);
    expect(deductionKg(30120, "100")).toBe(30120);
  });
});

describe("the three weights", () => {
  const base: Weights = { tons: "30.500", receivedTons: null, qualityDeductionTons: null, payBasis: "loaded" };
  const received: Weights = { ...base, receivedTons: "30.120", qualityDeductionTons: "0.753" };

  it("invoices the loaded tons until the client's ticket, then the accepted tons", () => {
    expect(acceptedTonsOf(base)).toBeNull();
    expect(invoicedTonsOf(base)).toBe("30.500");
    expect(acceptedTonsOf(received)).toBe("29.367");
    expect(invoicedTonsOf(received)).toBe("29.367");
    expect(shortageTonsOf(base)).toBeNull();
    expect(shortageTonsOf(received)).toBe("0.380");
    // A client that weighs more than was loaded: a negative shortage, shown as it is.
    expect(shortageTonsOf({ tons: "30", receivedTons: "30.250" })).toBe("-0.250");
  });

  it("pays the agent on its basis, on the loaded tons while that weight is not known", () => {
    expect(paidTonsOf(received)).toBe("30.500");
    expect(paidTonsOf({ ...received, payBasis: "received" })).toBe("30.120");
    expect(paidTonsOf({ ...received, payBasis: "accepted" })).toBe("29.367");
    expect(paidTonsOf({ ...base, payBasis: "received" })).toBe("30.500");
    expect(paidTonsOf({ ...base, payBasis: "accepted" })).toBe("30.500");
  });
});

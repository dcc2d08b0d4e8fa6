import { describe, expect, it } from "vitest";
import { deliveryProfit, deliveryRevenue, netPaymentToAgent } from "./deliveries.server";

describe("delivery formulas", () => {
  const delivery = {
    tons: "30.55",
    buyingRate: "52000.75",
    sellingRate: "65000.50",
    logisticsCost: "150000.10",
    otherCosts: "12500.05",
    offloadingCost: "15000.00",
    mobilizationPayment: "200000.00",
  };

  it("computes revenue, profit and net payment by hand-checked values", () => {
    // 30.55 x 65,000.50 = 1,985,765.275
    expect(deliveryRevenue(delivery)).toBe("1985765.28");
    // cost = 30.55 x 52,000.75 (1,588,622.9125) + 150,000.10 + 12,500.05 = 1,751,123.0625
    // profit = 1,985,765.275 - 1,751,123.0625 = 234,642.2125
    expect(deliveryProfit(delivery)).toBe("234642.21");
    // net = 1,588,622.9125 - 15,000 - 200,000 = 1,373,622.9125
    expect(netPaymentToAgent(delivery)).toBe("1373622.91");
  });

  it("shows no profit while the selling rate is missing and counts missing costs as 0", () => {
    expect(deliveryProfit({ tons: "10", buyingRate: "100", sellingRate: null })).toBeNull();
    expect(deliveryRevenue({ tons: "10", sellingRate: "" })).toBeNull();
    expect(deliveryProfit({ tons: "10", sellingRate: "150" })).toBe("1500.00");
    expect(netPaymentToAgent({ tons: "0.01", buyingRate: "0.5" })).toBe("0.01"); // 0.005 rounds half-up
  });
});

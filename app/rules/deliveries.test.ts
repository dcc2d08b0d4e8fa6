import { describe, expect, it } from "vitest";
import { deliveryProfit, deliveryRevenue, netPaymentToAgent } from "./deliveries.server";

describe("delivery formulas", () => {
  const delivery = {
    invoicedTons: "30.55",
    paidTons: "30.55",
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
    expect(deliveryProfit({ invoicedTons: "10", paidTons: "10", buyingRate: "100", sellingRate: null })).toBeNull();
    expect(deliveryRevenue({ invoicedTons: "10", paidTons: "10", sellingRate: "" })).toBeNull();
    expect(deliveryProfit({ invoicedTons: "10", paidTons: "10", sellingRate: "150" })).toBe("1500.00");
    expect(netPaymentToAgent({ invoicedTons: "0.01", paidTons: "0.01", buyingRate: "0.5" })).toBe("0.01"); // 0.005 rounds half-up
  });

  it("invoices the invoiced tons and pays and costs the paid tons (docs/decisions/1220)", () => {
    // Client accepted 29.367 t at 60,000 = 1,762,020; the agent is paid on 30.120 t at 40,000 = 1,204,800.
    const trip = { invoicedTons: "29.367", paidTons: "30.120", sellingRate: "60000", buyingRate: "40000" };
    expect(deliveryRevenue(trip)).toBe("1762020.00");
    expect(netPaymentToAgent(trip)).toBe("1204800.00");
    expect(deliveryProfit(trip)).toBe("557220.00");
    // Three-decimal tons times a two-decimal rate: 0.005 t x 0.99 = 0.00495, rounds to 0.00.
    expect(deliveryRevenue({ invoicedTons: "0.005", paidTons: "0.005", sellingRate: "0.99" })).toBe("0.00");
    expect(deliveryRevenue({ invoicedTons: "0.005", paidTons: "0.005", sellingRate: "1.00" })).toBe("0.01");
  });
});

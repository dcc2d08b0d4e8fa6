// Margin from totals, never an average of the rows' percentages (decision 1270).
import { describe, expect, it } from "vitest";
import { figuresOf, marginOf, totalsOf, type ProfitSums } from "./profit-figures";

const sums = (revenue: string, buyingCost: string, extra: Partial<ProfitSums> = {}): ProfitSums => ({
  n: 1,
  nPriced: 1,
  nReceived: 0,
  loadedTons: "10.000",
  receivedTons: "0",
  acceptedTons: "0",
  shortageTons: "0",
  deductionTons: "0",
  revenue,
  buyingCost,
  haulage: "0",
  otherCosts: "0",
  ...extra,
});

describe("profit figures (decision 1270)", () => {
  it("takes the margin from the totals", () => {
    // 50% on 100 and 10% on 1,000: the average is 30%, the business made 14.5%.
    const rows = [figuresOf(sums("100", "50")), figuresOf(sums("1000", "900"))];
    expect(rows.map((r) => r.margin)).toEqual(["50", "10"]);
    expect(totalsOf(rows)).toMatchObject({ revenue: "1100.00", profit: "150.00", margin: "13.6" });
  });

  it("has no margin without revenue, and a negative one for a loss", () => {
    expect(marginOf("0.00", "0.00")).toBeNull();
    expect(figuresOf(sums("1000", "1200.004")).margin).toBe("-20");
  });

  it("rounds each money column once and takes profit from them, so a row adds up as shown", () => {
    const row = figuresOf(sums("1000.005", "333.334", { haulage: "10.10", otherCosts: "0.005" }));
    expect(row).toMatchObject({ revenue: "1000.01", buyingCost: "333.33", haulage: "10.10", otherCosts: "0.01" });
    expect(row.profit).toBe("656.57");
  });

  it("counts the deliveries without a selling rate apart, and sums tons to the kilogram", () => {
    const totals = totalsOf([
      figuresOf(sums("0", "0", { n: 3, nPriced: 1, loadedTons: "1.001" })),
      figuresOf(sums("0", "0", { loadedTons: "2.002" })),
    ]);
    expect(totals).toMatchObject({ deliveries: 4, unpricedDeliveries: 2, loadedTons: "3.003", margin: null });
  });
});

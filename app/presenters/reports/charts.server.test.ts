// The chart scales of decision 1270: zero always on the axis, a loss below it, one month, a
// million-ton axis, and labels in the app's number format.
import { describe, expect, it } from "vitest";
import { formatTick, horizontalBars, valueScale, verticalBars } from "./charts.server";

const oneSeries = (values: string[]) =>
  verticalBars({
    id: "t",
    title: "T",
    unit: "naira",
    series: [{ name: "Profit", tone: "orange" }],
    categories: values.map((v, i) => ({ key: String(i), label: `M${i}`, values: [v] })),
    categoryAxisLabel: "Month",
    valueAxisLabel: "Naira (₦)",
  });

describe("chart scales (decision 1270)", () => {
  it("with nothing but zeros, draws an axis from 0 to 1 and flat bars at zero", () => {
    const chart = oneSeries(["0", "0"]);
    expect(chart.valueTicks[0].label).toBe("₦0");
    expect(chart.bars.every((b) => b.height === 0 && b.y === chart.zero)).toBe(true);
    expect(chart.zero).toBe(chart.plot.bottom);
  });

  it("puts a loss below zero, and zero inside the axis", () => {
    const chart = oneSeries(["150000.00", "-50000.00"]);
    const [gain, loss] = chart.bars;
    expect(gain.y + gain.height).toBeCloseTo(chart.zero, 0);
    expect(loss.y).toBeCloseTo(chart.zero, 0);
    expect(chart.zero).toBeGreaterThan(chart.plot.top);
    expect(chart.zero).toBeLessThan(chart.plot.bottom);
    expect(chart.valueTicks.map((t) => t.label)).toContain("-₦50,000");
    expect(loss.label).toBe("M1, Profit: -₦50,000.00");
  });

  it("draws one month as one band across the plot", () => {
    const chart = oneSeries(["1234.56"]);
    expect(chart.bars).toHaveLength(1);
    expect(chart.categoryTicks).toEqual([{ at: expect.any(Number), label: "M0" }]);
    expect(chart.table.rows).toEqual([["M0", "₦1,234.56"]]);
  });

  it("labels a million-ton axis with separators and naira from a million compactly", () => {
    const { ticks, step } = valueScale(["1000000.000"], [200, 0]);
    expect(ticks.at(-1)).toBe(1_000_000);
    expect(ticks.map((t) => formatTick(t, "tons", step))).toEqual([
      "0",
      "200,000",
      "400,000",
      "600,000",
      "800,000",
      "1,000,000",
    ]);
    expect(formatTick(2_500_000, "naira", 500_000)).toBe("₦2.5M");
    expect(formatTick(0.5, "tons", 0.1)).toBe("0.5");
  });

  it("shows every n-th month when there are many, every bar still drawn", () => {
    const chart = oneSeries(Array.from({ length: 120 }, (_, i) => String(i * 1000)));
    expect(chart.bars).toHaveLength(120);
    expect(chart.categoryTicks.length).toBeLessThanOrEqual(12);
  });

  it("draws the top ten as horizontal bars from zero, a loss to its left", () => {
    const chart = horizontalBars({
      id: "top",
      title: "Top",
      unit: "naira",
      seriesName: "Profit",
      categories: [
        { key: "a", label: "A very long agent name that will not fit", value: "90000" },
        { key: "b", label: "B", value: "-10000" },
      ],
      categoryAxisLabel: "Agent",
      valueAxisLabel: "Profit (₦)",
    });
    expect(chart.bars[0].x).toBeCloseTo(chart.zero, 0);
    expect(chart.bars[1].x + chart.bars[1].width).toBeCloseTo(chart.zero, 0);
    expect(chart.categoryTicks[0].label).toHaveLength(20);
  });
});

import { describe, expect, it } from "vitest";
import { taxIncluded } from "./invoices.server";

describe("tax contained in a tax-inclusive amount", () => {
  it.each([
    // 107.50 at 7.5%: 107.50 x 7.5 / 107.5 = 7.50 exactly
    ["107.50", "7.5", "7.50"],
    // 1,000,000 at 7.5%: 69,767.4418... -> 69,767.44
    ["1000000.00", "7.50", "69767.44"],
    // 1.00 at 7.5%: 0.0697... -> 0.07
    ["1.00", "7.50", "0.07"],
    // half a kobo rounds up: 0.21 at 100% = 0.105 -> 0.11
    ["0.21", "100", "0.11"],
    ["5000.00", "0", "0.00"],
    ["1985765.28", "10", "180524.12"],
  ])("%s at %s%% holds %s of tax", (amount, rate, tax) => {
    expect(taxIncluded(amount, rate)).toBe(tax);
  });
});

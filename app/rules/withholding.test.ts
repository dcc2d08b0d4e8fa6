// The withholding arithmetic of decision 1240, by hand-checked values and the kobo rounding rule.
import { describe, expect, it } from "vitest";
import { add, compare, sub, toFixed } from "~/utils/money";
import { grossUp, settle, settleFromCash, whtOf } from "./withholding";

const rates = (vatRate: string, whtRate: string, withholdsVat = false) => ({ vatRate, whtRate, withholdsVat });

describe("settling an invoice: WHT on the VAT-exclusive amount, S × w / (100 + v)", () => {
  it("settles a whole invoice at VAT 7.5 and WHT 5 or 2", () => {
    expect(settle("107500.00", rates("7.50", "5.00"))).toEqual({
      settled: "107500.00",
      cash: "102500.00",
      wht: "5000.00",
      vatWithheld: "0.00",
    });
    expect(settle("107500.00", rates("7.50", "2.00"))).toMatchObject({ cash: "105500.00", wht: "2000.00" });
  });

  it("settles at VAT 0: the whole amount is VAT-exclusive", () => {
    expect(settle("100000.00", rates("0", "5.00"))).toMatchObject({ cash: "95000.00", wht: "5000.00" });
    expect(settle("100000.00", rates("0.00", "2.00"))).toMatchObject({ cash: "98000.00", wht: "2000.00" });
  });

  it("withholds nothing at WHT 0", () => {
    expect(settle("107500.00", rates("7.50", "0"))).toEqual({
      settled: "107500.00",
      cash: "107500.00",
      wht: "0.00",
      vatWithheld: "0.00",
    });
  });

  it("withholds the VAT the amount contains too for a client that withholds VAT", () => {
    expect(settle("107500.00", rates("7.50", "5.00", true))).toEqual({
      settled: "107500.00",
      cash: "95000.00",
      wht: "5000.00",
      vatWithheld: "7500.00",
    });
    // VAT 0: nothing to withhold but the WHT.
    expect(settle("50000.00", rates("0", "5.00", true))).toMatchObject({ cash: "47500.00", vatWithheld: "0.00" });
  });

  it("settles part of an invoice by the same formula, to the kobo", () => {
    // 1,000 × 5 / 107.5 = 46.5116…
    expect(settle("1000.00", rates("7.50", "5.00"))).toMatchObject({ cash: "953.49", wht: "46.51" });
    // 1,000 × 7.5 / 107.5 = 69.7674…; 1,000 × 2 / 107.5 = 18.6046…
    expect(settle("1000.00", rates("7.50", "2.00", true))).toEqual({
      settled: "1000.00",
      cash: "911.63",
      wht: "18.60",
      vatWithheld: "69.77",
    });
  });

  it("rounds once, half away from zero, at the kobo (not to even)", () => {
    expect(whtOf("0.10", rates("0", "5.00"))).toBe("0.01"); // 0.005
    expect(whtOf("0.30", rates("0", "5.00"))).toBe("0.02"); // 0.015
    expect(whtOf("0.50", rates("0", "5.00"))).toBe("0.03"); // 0.025: to even would be 0.02
    expect(whtOf("0.70", rates("0", "5.00"))).toBe("0.04"); // 0.035
    expect(whtOf("0.09", rates("0", "5.00"))).toBe("0.00"); // 0.0045
    expect(whtOf("537.50", rates("7.50", "2.00"))).toBe("10.00"); // exact
  });

  it("keeps cash + WHT + VAT equal to the amount settled", () => {
    for (const s of ["0.01", "0.99", "1.00", "333.33", "12345.67", "99999999.99"]) {
      for (const r of [rates("7.50", "5.00"), rates("7.50", "2.00", true), rates("0", "5.00", true)]) {
        const x = settle(s, r);
        expect(toFixed(add(x.cash, x.wht, x.vatWithheld))).toBe(toFixed(s));
      }
    }
  });
});

describe("the gross-up: what a short transfer settles", () => {
  it("finds the invoice a transfer short by the client's withholding pays", () => {
    expect(grossUp("102500.00", rates("7.50", "5.00"))).toEqual({
      settled: "107500.00",
      cash: "102500.00",
      wht: "5000.00",
      vatWithheld: "0.00",
    });
    expect(grossUp("95000.00", rates("7.50", "5.00", true))).toMatchObject({
      settled: "107500.00",
      wht: "5000.00",
      vatWithheld: "7500.00",
    });
    expect(grossUp("98000.00", rates("0", "2.00"))).toMatchObject({ settled: "100000.00", wht: "2000.00" });
    expect(grossUp("500.00", rates("7.50", "0"))).toMatchObject({ settled: "500.00", wht: "0.00" });
  });

  it("adds up exactly, and its WHT is never more than a kobo from the formula's", () => {
    for (const r of [
      rates("7.50", "5.00"),
      rates("7.50", "2.00", true),
      rates("0", "5.00"),
      rates("7.50", "5.00", true),
    ]) {
      for (let kobo = 1; kobo < 3000; kobo += 7) {
        const cash = toFixed({ units: BigInt(kobo * 37), scale: 2 });
        const x = grossUp(cash, r);
        expect(toFixed(add(x.cash, x.wht, x.vatWithheld))).toBe(x.settled);
        expect(compare(x.wht, "0")).toBeGreaterThanOrEqual(0);
        const off = sub(x.wht, whtOf(x.settled, r));
        expect(compare(off, "0.01")).toBeLessThanOrEqual(0);
        expect(compare(off, "-0.01")).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it("settles the whole balance when the cash covers it, otherwise the gross-up, never past the balance", () => {
    const r = rates("7.50", "5.00");
    expect(settleFromCash("200000.00", "107500.00", r)).toMatchObject({ settled: "107500.00", cash: "102500.00" });
    expect(settleFromCash("51250.00", "107500.00", r)).toMatchObject({ settled: "53750.00", wht: "2500.00" });
    // A kobo short of the whole: still never past the balance.
    const x = settleFromCash("102499.99", "107500.00", r);
    expect(compare(x.settled, "107500.00")).toBeLessThanOrEqual(0);
    expect(toFixed(add(x.cash, x.wht, x.vatWithheld))).toBe(x.settled);
  });
});

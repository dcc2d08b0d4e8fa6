import { describe, expect, it } from "vitest";
import {
  percentOf,
  add,
  compare,
  dec,
  formatMoneyWhileTyping,
  formatNaira,
  formatNairaCompact,
  mul,
  parseDecimalInput,
  round,
  sub,
  sum,
  toFixed,
} from "./money";

describe("exact decimals", () => {
  it("adds what floats get wrong", () => {
    expect(toFixed(add("0.1", "0.2"))).toBe("0.30");
    expect(0.1 + 0.2).not.toBe(0.3); // the reason this module exists
    expect(toFixed(sub("1000000.10", "999999.99"))).toBe("0.11");
  });

  it("multiplies tons by rates exactly and rounds half-up once at the end", () => {
    // 30.55 x 65,000.50 = 1,985,765.275 -> 1,985,765.28
    expect(toFixed(mul("30.55", "65000.50"), 3)).toBe("1985765.275");
    expect(toFixed(mul("30.55", "65000.50"))).toBe("1985765.28");
    expect(toFixed(mul("0.05", "0.5"))).toBe("0.03"); // 0.025 rounds up
    expect(toFixed(mul("-0.05", "0.5"))).toBe("-0.03"); // half away from zero
    expect(toFixed("2.344")).toBe("2.34");
    expect(toFixed("2.345")).toBe("2.35");
    expect(round("99999999.995").units).toBe(10000000000n);
  });

  it("sums many awkward values to the kobo", () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `${i % 97}.${String((i * 37) % 100).padStart(2, "0")}`);
    let kobo = 0n;
    for (const v of values) kobo += BigInt(v.replace(".", ""));
    const expected = `${kobo / 100n}.${String(kobo % 100n).padStart(2, "0")}`;
    expect(toFixed(sum(values))).toBe(expected);
  });

  it("refuses floats and garbage", () => {
    expect(() => dec(0.1)).toThrow();
    expect(() => dec("1e5")).toThrow();
    expect(() => dec("12.3.4")).toThrow();
    expect(compare("10.00", "10")).toBe(0);
    expect(compare("9.99", "10")).toBe(-1);
  });
});

describe("formatting", () => {
  it("formats naira with separators and the million style", () => {
    expect(formatNaira("1234.5")).toBe("₦1,234.50");
    expect(formatNaira("0")).toBe("₦0.00");
    expect(formatNaira("-1500")).toBe("-₦1,500.00");
    expect(formatNairaCompact("999999.99")).toBe("₦999,999.99");
    expect(formatNairaCompact("1000000")).toBe("₦1.0M");
    expect(formatNairaCompact("1250000")).toBe("₦1.3M");
    expect(formatNairaCompact("1985765.28")).toBe("₦2.0M");
    expect(formatNairaCompact("12340000")).toBe("₦12.3M");
  });

  it("formats money while typing: digits, one dot, commas, two decimals", () => {
    expect(formatMoneyWhileTyping("1234567")).toBe("1,234,567");
    expect(formatMoneyWhileTyping("1234.567")).toBe("1,234.56");
    expect(formatMoneyWhileTyping("12a3.4.5")).toBe("123.45");
    expect(formatMoneyWhileTyping("0001")).toBe("1");
    expect(formatMoneyWhileTyping("12.")).toBe("12.");
  });
});

describe("parsing what people type", () => {
  it("accepts grouped input and returns a plain decimal", () => {
    expect(parseDecimalInput("1,234.50")).toEqual({ ok: true, value: "1234.50" });
    expect(parseDecimalInput(" 65000 ")).toEqual({ ok: true, value: "65000" });
    expect(parseDecimalInput(".5")).toEqual({ ok: true, value: "0.5" });
  });

  it("refuses negatives, extra decimals, non-numbers and values beyond the column", () => {
    expect(parseDecimalInput("-5")).toMatchObject({ ok: false, message: "Amount cannot be negative" });
    expect(parseDecimalInput("1.234")).toMatchObject({ ok: false, message: "Amount can have at most 2 decimals" });
    expect(parseDecimalInput("abc")).toMatchObject({ ok: false, message: "Amount must be a number" });
    expect(parseDecimalInput("")).toMatchObject({ ok: false, message: "Amount is required" });
    expect(parseDecimalInput("9999999999.99")).toEqual({ ok: true, value: "9999999999.99" });
    expect(parseDecimalInput("10000000000")).toMatchObject({ ok: false, message: "Amount is too large" });
    expect(parseDecimalInput("100000000", { precision: 10, label: "Tons" })).toMatchObject({
      ok: false,
      message: "Tons is too large",
    });
  });
});

describe("percentOf", () => {
  it("rounds to one decimal, half up, instead of truncating", () => {
    expect(percentOf("16.90", "1000")).toBe("1.7");
    expect(percentOf("1.69", "100")).toBe("1.7");
    expect(percentOf("1.649", "100")).toBe("1.6");
    expect(percentOf("1.65", "100")).toBe("1.7");
    expect(percentOf("2", "3")).toBe("66.7");
  });
  it("drops a trailing zero and answers 0 for nothing invoiced", () => {
    expect(percentOf("500", "1000")).toBe("50");
    expect(percentOf("1000.00", "1000.00")).toBe("100");
    expect(percentOf("0", "0")).toBe("0");
    expect(percentOf("0.01", "1000000")).toBe("0");
  });
});

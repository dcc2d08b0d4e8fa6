import { describe, expect, it } from "vitest";
import { amountInWords } from "./amount-words.server";

describe("amount in words (naira and kobo)", () => {
  it.each([
    ["0.50", "Fifty Kobo Only"],
    ["1.00", "One Naira Only"],
    ["1000000.05", "One Million Naira and Five Kobo Only"],
    [
      "999999999.99",
      "Nine Hundred Ninety Nine Million Nine Hundred Ninety Nine Thousand Nine Hundred Ninety Nine Naira and Ninety Nine Kobo Only",
    ],
    ["0.00", "Zero Naira Only"],
    ["0", "Zero Naira Only"],
    ["21.5", "Twenty One Naira and Fifty Kobo Only"],
    [
      "1985625.75",
      "One Million Nine Hundred Eighty Five Thousand Six Hundred Twenty Five Naira and Seventy Five Kobo Only",
    ],
    // Exact decimals past the kobo round half-up, once.
    ["0.005", "One Kobo Only"],
    ["12.345", "Twelve Naira and Thirty Five Kobo Only"],
    ["-3.10", "Minus Three Naira and Ten Kobo Only"],
  ])("%s", (amount, expected) => {
    expect(amountInWords(amount)).toBe(expected);
  });

  it("spells amounts past a float's exact range without loss", () => {
    expect(amountInWords("90071992547409.93")).toBe(
      "Ninety Trillion Seventy One Billion Nine Hundred Ninety Two Million Five Hundred Forty Seven Thousand Four Hundred Nine Naira and Ninety Three Kobo Only",
    );
  });
});

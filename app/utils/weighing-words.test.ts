import { describe, expect, it } from "vitest";
import { percentText, weighingText } from "./weighing-words";

describe("an invoice line's weighing words (decision 1220)", () => {
  it("says what was received, the reading and what was deducted", () => {
    expect(weighingText({ receivedTons: "30.120", moisture: "18.50", qualityDeductionTons: "0.753" })).toBe(
      "Received 30.12 t · moisture 18.5% · deducted 0.753 t",
    );
  });

  it("says nothing was deducted, with or without a reading, and nothing at all without the client's ticket", () => {
    expect(weighingText({ receivedTons: "30.000", moisture: "15.00", qualityDeductionTons: "0.000" })).toBe(
      "Received 30.00 t · moisture 15% · nothing deducted",
    );
    expect(weighingText({ receivedTons: "29.995", moisture: null, qualityDeductionTons: "0.000" })).toBe(
      "Received 29.995 t · nothing deducted",
    );
    expect(weighingText({ receivedTons: null, moisture: null, qualityDeductionTons: null })).toBeNull();
  });

  it("reads a percent without its trailing zeros", () => {
    expect(["18.50", "16.00", "0.25", "7"].map(percentText)).toEqual(["18.5", "16", "0.25", "7"]);
  });
});

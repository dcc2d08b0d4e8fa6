import { describe, expect, it } from "vitest";
import { choiceMatches } from "./choice-search";

describe("choiceMatches: what the search box of a long select finds", () => {
  it("finds a part of the name, ignoring case", () => {
    expect(choiceMatches("Musa Ibrahim", "ibra")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "MUSA")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "Chinedu")).toBe(false);
  });

  it("needs every word typed, in any order", () => {
    expect(choiceMatches("Musa Ibrahim", "ibrahim musa")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "musa okafor")).toBe(false);
  });

  it("ignores spacing, in the name and in what is typed", () => {
    expect(choiceMatches("Musa   Ibrahim", "  musa ibrahim ")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "a i")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "sa ib")).toBe(true);
  });

  it("matches every name when nothing is typed", () => {
    expect(choiceMatches("Musa Ibrahim", "")).toBe(true);
    expect(choiceMatches("Musa Ibrahim", "   ")).toBe(true);
  });

  it("takes the characters of a pattern as plain text", () => {
    expect(choiceMatches("A.B. Traders (Aba)", "(aba)")).toBe(true);
    expect(choiceMatches("AB Traders", "a.b")).toBe(false);
    expect(choiceMatches("Ade & Sons", ".*")).toBe(false);
  });
});

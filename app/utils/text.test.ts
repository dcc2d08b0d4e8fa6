import { describe, expect, it } from "vitest";
import { hasInvisibleCharacters, isWellFormedText, textRefusal } from "./text";

describe("textRefusal (decision 0706)", () => {
  it("refuses direction controls and invisible characters in one-line text", () => {
    const hidden = ["\u202E", "\u202A", "\u2066", "\u2069", "\u200E", "\u061C", "\u200B", "\u200D", "\u2060", "\uFEFF"];
    for (const c of [...hidden, "\u00AD", "\u3164", "\u{E0041}"]) {
      expect(hasInvisibleCharacters(`Yard${c}7`), JSON.stringify(c)).toBe(true);
      expect(textRefusal("Location", `Yard${c}7`)).toBe(
        "Location must not contain invisible or text-direction characters",
      );
    }
  });

  it("takes ordinary text in any script, and emoji", () => {
    for (const text of ["Ikeja yard", "Ìbàdàn", "أبوجا", "北京", "Kano 😀", "O'Neil & Sons, No. 5"]) {
      expect(textRefusal("Name", text)).toBeNull();
    }
  });

  it("refuses a lone surrogate in any field, and keeps the control-character rules", () => {
    expect(isWellFormedText("a\uD800")).toBe(false);
    expect(isWellFormedText("a\uDC00b")).toBe(false);
    expect(isWellFormedText("a\uD83D\uDE00")).toBe(true);
    expect(textRefusal("Remarks", "a\uD800", { multiline: true })).toBe(
      "Remarks contains a broken character; please type it again",
    );
    expect(textRefusal("Name", "a\nb")).toBe("Name must be one line of text without control characters");
    expect(textRefusal("Remarks", "a\nb", { multiline: true })).toBeNull();
    // Multi-line text (a remark, an address) may mix scripts and their marks.
    expect(textRefusal("Remarks", "a\u200Fb", { multiline: true })).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { plateKey, plateKeyPrefix, plateShown, readPlate } from "./plates";

describe("truck plates (docs/decisions/1200)", () => {
  it("shows a plate trimmed, upper-cased, with runs of spaces made one", () => {
    expect(plateShown("  lag 123   xy ")).toBe("LAG 123 XY");
    expect(plateShown("kja-456-ab")).toBe("KJA-456-AB");
    expect(plateShown("Abc  -  12")).toBe("ABC - 12");
  });

  it("keys a plate without its spaces and dashes, upper-cased", () => {
    expect(plateKey("LAG 123 XY")).toBe("LAG123XY");
    expect(plateKey("kja-456-ab")).toBe("KJA456AB");
    expect(plateKey("a - b")).toBe("AB");
  });

  it("gives one key to every way of typing one plate", () => {
    const typings = ["LAG 123 XY", "lag123xy", " Lag-123-Xy ", "LAG  123  XY", "L-A-G 1 2 3 X-Y"];
    expect(new Set(typings.map((t) => readPlate(t)?.key))).toEqual(new Set(["LAG123XY"]));
  });

  it("reads 2 to 20 letters, digits, spaces and dashes, and nothing else", () => {
    expect(readPlate("ab")).toEqual({ plate: "AB", key: "AB" });
    expect(readPlate("A".repeat(20))).toEqual({ plate: "A".repeat(20), key: "A".repeat(20) });
    // Length counts the plate as shown: surrounding spaces and doubled inner ones do not count.
    expect(readPlate(`  ${"A".repeat(10)}   ${"B".repeat(9)}  `)?.plate).toBe(`${"A".repeat(10)} ${"B".repeat(9)}`);
    for (const bad of [
      "A",
      " a ",
      "A".repeat(21),
      "LAG_123",
      "LAG/123",
      "LAG.123",
      "ÀBC 12",
      "AB\t12",
      "--",
      "- -",
      "",
    ]) {
      expect(readPlate(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it("reads a search as the start of a key", () => {
    expect(plateKeyPrefix(" kja 4")).toBe("KJA4");
    expect(plateKeyPrefix("kja-")).toBe("KJA");
    expect(plateKeyPrefix("a%")).toBeNull();
    expect(plateKeyPrefix(" - ")).toBeNull();
    expect(plateKeyPrefix("A".repeat(21))).toBeNull();
  });
});

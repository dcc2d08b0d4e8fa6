import { describe, expect, it } from "vitest";
import { formatCursor, MAX_ID, parseCursor, parseId, readPageRequest } from "./params";

describe("parseId", () => {
  it("reads positive integer ids from numbers and digit strings", () => {
    expect(parseId("42")).toBe(42);
    expect(parseId(" 7 ")).toBe(7);
    expect(parseId(9)).toBe(9);
    expect(parseId(String(MAX_ID))).toBe(MAX_ID);
  });

  it("refuses what the database would choke on", () => {
    for (const bad of [
      "0",
      "-1",
      "1.5",
      "1e3",
      "abc",
      "",
      "99999999999",
      String(MAX_ID + 1),
      "0x10",
      null,
      undefined,
      1.5,
      {},
      [],
    ]) {
      expect(parseId(bad), String(bad)).toBeNull();
    }
  });
});

describe("cursors", () => {
  it("reads date cursors only on real calendar dates and valid ids", () => {
    expect(parseCursor("2026-03-01_418", "date")).toEqual({ key: "2026-03-01", id: 418 });
    expect(parseCursor("2025-02-30_1", "date")).toBeNull();
    expect(parseCursor("2026-03-01_99999999999", "date")).toBeNull();
    expect(parseCursor("2026-03-01", "date")).toBeNull();
    expect(parseCursor("2026-03-01_1;drop", "date")).toBeNull();
  });

  it("reads id cursors", () => {
    expect(parseCursor("418", "id")).toEqual({ key: null, id: 418 });
    expect(parseCursor("2026-03-01_418", "id")).toBeNull();
  });

  it("writes what it reads", () => {
    for (const c of [
      { key: "2026-03-01", id: 5 },
      { key: null, id: 5 },
    ]) {
      expect(parseCursor(formatCursor(c), c.key ? "date" : "id")).toEqual(c);
    }
  });

  it("reads the page request of a query string, flagging a refused cursor", () => {
    expect(readPageRequest(new URLSearchParams(""), "date")).toEqual({
      cursor: null,
      direction: "older",
      invalid: false,
    });
    expect(readPageRequest(new URLSearchParams("cursor=2026-03-01_4"), "date")).toMatchObject({
      direction: "older",
      invalid: false,
    });
    expect(readPageRequest(new URLSearchParams("before=2026-03-01_4"), "date")).toMatchObject({
      direction: "newer",
      invalid: false,
    });
    expect(readPageRequest(new URLSearchParams("cursor=2025-02-30_1"), "date")).toEqual({
      cursor: null,
      direction: "older",
      invalid: true,
    });
  });
});

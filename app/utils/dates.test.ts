import { describe, expect, it } from "vitest";
import {
  addDays,
  formatDayMonthYear,
  formatDeliveryDate,
  formatMonth,
  formatShortDate,
  isValidDate,
  startOfWeek,
  todayIn,
} from "./dates";

describe("business dates", () => {
  it("knows today in Lagos when UTC is still yesterday", () => {
    // 23:30 UTC on 14 March is 00:30 on 15 March in Lagos (UTC+1).
    const now = new Date("2026-03-14T23:30:00Z");
    expect(todayIn("Africa/Lagos", now)).toBe("2026-03-15");
    expect(todayIn("UTC", now)).toBe("2026-03-14");
  });

  it("starts the week on Sunday", () => {
    expect(startOfWeek("2026-11-22")).toBe("2026-11-22"); // a Sunday
    expect(startOfWeek("2026-11-28")).toBe("2026-11-22"); // Saturday
    expect(startOfWeek("2026-11-23")).toBe("2026-11-22");
  });

  it("rejects impossible dates", () => {
    expect(isValidDate("2026-02-29")).toBe(false);
    expect(isValidDate("2024-02-29")).toBe(true);
    expect(isValidDate("2026-13-01")).toBe(false);
    expect(isValidDate("26-01-01")).toBe(false);
  });

  it("adds days across months and formats the spec's three ways", () => {
    expect(addDays("2026-01-31", 30)).toBe("2026-03-02");
    expect(formatDeliveryDate("2026-03-05")).toBe("Mar 05, 2026");
    expect(formatShortDate("2026-03-05")).toBe("Mar 5, 2026");
    expect(formatDayMonthYear("2026-03-05")).toBe("05/03/2026");
    expect(formatMonth("2026-03")).toBe("March 2026");
  });
});

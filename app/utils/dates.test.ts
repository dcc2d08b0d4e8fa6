import { describe, expect, it } from "vitest";
import { addDays, dayIn, formatDate, formatDateTime, formatMonth, isValidDate, startOfWeek, todayIn } from "./dates";

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

  it("adds days across months; one format for a date, one for a moment", () => {
    expect(addDays("2026-01-31", 30)).toBe("2026-03-02");
    expect(formatDate("2026-03-05")).toBe("Mar 05, 2026");
    expect(formatDate("2026-12-31")).toBe("Dec 31, 2026");
    expect(formatDateTime("2026-03-05T14:02:09.123Z")).toBe("Mar 05, 2026 14:02 UTC");
    expect(formatDateTime("2026-03-05T09:07")).toBe("Mar 05, 2026 09:07");
    expect(() => formatDateTime("2026-03-05")).not.toThrow();
    expect(formatMonth("2026-03")).toBe("March 2026");
  });

  it("gives a timestamp's day in Lagos, which starts at 23:00 UTC the day before", () => {
    expect(dayIn("Africa/Lagos", "2026-02-28T22:59:59.999Z")).toBe("2026-02-28");
    expect(dayIn("Africa/Lagos", "2026-02-28T23:00:00.000Z")).toBe("2026-03-01");
    expect(dayIn("Africa/Lagos", "2026-02-28T23:30:00.000Z")).toBe("2026-03-01");
    expect(dayIn("Africa/Lagos", new Date("2026-12-31T23:59:59.999Z"))).toBe("2027-01-01");
    expect(dayIn("UTC", "2026-02-28T23:30:00.000Z")).toBe("2026-02-28");
    // A calendar date is already a day: it is not read as UTC midnight and moved.
    expect(dayIn("America/Los_Angeles", "2026-03-01")).toBe("2026-03-01");
    expect(() => dayIn("Africa/Lagos", "yesterday")).toThrow(RangeError);
  });

  it("shows the day the loader worked out, and refuses a UTC timestamp", () => {
    // A user added at 00:30 Lagos time on 15 March: 23:30 UTC on the 14th.
    const added = "2026-03-14T23:30:00.000Z";
    expect(formatDate(dayIn("Africa/Lagos", added))).toBe("Mar 15, 2026");
    expect(() => formatDate(added)).toThrow(TypeError);
  });
});

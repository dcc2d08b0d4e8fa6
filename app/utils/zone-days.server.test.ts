import { describe, expect, it } from "vitest";
import { instantOfWallClock, startOfDayIn, wallClockOf, zoneLabel } from "./zone-days.server";

describe("startOfDayIn", () => {
  it("a Lagos day starts at 23:00 UTC the day before", () => {
    expect(startOfDayIn("Africa/Lagos", "2026-03-05").toISOString()).toBe("2026-03-04T23:00:00.000Z");
    expect(startOfDayIn("Africa/Lagos", "2026-01-01").toISOString()).toBe("2025-12-31T23:00:00.000Z");
  });
  it("UTC days are UTC midnights, and a zone with clock changes uses the offset of that day", () => {
    expect(startOfDayIn("UTC", "2026-03-05").toISOString()).toBe("2026-03-05T00:00:00.000Z");
    expect(startOfDayIn("America/New_York", "2026-07-01").toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(startOfDayIn("America/New_York", "2026-01-15").toISOString()).toBe("2026-01-15T05:00:00.000Z");
    expect(startOfDayIn("America/New_York", "2026-03-08").toISOString()).toBe("2026-03-08T05:00:00.000Z");
  });
  it("names the zone", () => {
    expect(zoneLabel("Africa/Lagos")).toBe("Lagos time");
    expect(zoneLabel("America/New_York")).toBe("New York time");
    expect(zoneLabel("UTC")).toBe("UTC");
  });
});

describe("wallClockOf", () => {
  it("reads an instant as the zone's wall clock, to the minute, across midnight", () => {
    expect(wallClockOf("Africa/Lagos", "2026-03-03T13:30:00.000Z")).toBe("2026-03-03T14:30");
    expect(wallClockOf("Africa/Lagos", "2026-12-31T23:15:59.999Z")).toBe("2027-01-01T00:15");
    expect(wallClockOf("UTC", "2026-03-03T00:00:00Z")).toBe("2026-03-03T00:00");
    expect(wallClockOf("America/New_York", "2026-07-01T03:05:00Z")).toBe("2026-06-30T23:05");
  });
});

describe("instantOfWallClock", () => {
  it("reads a datetime box's local time in the zone, with or without seconds", () => {
    expect(instantOfWallClock("Africa/Lagos", "2026-11-28T14:30").toISOString()).toBe("2026-11-28T13:30:00.000Z");
    expect(instantOfWallClock("Africa/Lagos", "2026-11-28T00:00:05").toISOString()).toBe("2026-11-27T23:00:05.000Z");
    expect(instantOfWallClock("UTC", "2026-11-28T14:30").toISOString()).toBe("2026-11-28T14:30:00.000Z");
  });
});

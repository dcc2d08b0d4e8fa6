import { afterAll, describe, expect, it } from "vitest";
import { addDays, isValidDate, startOfWeek } from "./dates";

// The date math moved from UTC arithmetic to date-fns on the process's local calendar
// (decision 0841). The UTC versions it replaced are the reference: same answers in any time
// zone the server may run in, across DST changes, month ends and leap years.
const utc = (value: string) => {
  const [y, m, d] = value.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d));
};
const referenceAddDays = (value: string, days: number) => {
  const date = utc(value);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};
const referenceStartOfWeek = (value: string) => referenceAddDays(value, -utc(value).getUTCDay());
const referenceIsValid = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return (
    date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1900 && y <= 9999
  );
};

const ZONES = [
  "Africa/Lagos",
  "UTC",
  "America/Sao_Paulo",
  "America/Los_Angeles",
  "Europe/London",
  "Pacific/Kiritimati",
  "Australia/Lord_Howe",
];
const originalTz = process.env.TZ;
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe.each(ZONES)("date math with the server in %s", (zone) => {
  it("matches the UTC reference day by day over several years", () => {
    process.env.TZ = zone;
    // Two years and a bit, through a leap day and each zone's DST changes; one comparison of
    // all answers keeps it quick on a busy machine.
    const got: string[] = [];
    const want: string[] = [];
    let day = "2023-12-25";
    for (let i = 0; i < 800; i++) {
      for (const n of [-120, -1, 0, 1, 6, 30]) {
        got.push(`${day}${n}:${addDays(day, n)}`);
        want.push(`${day}${n}:${referenceAddDays(day, n)}`);
      }
      got.push(`${day}w:${startOfWeek(day)}`);
      want.push(`${day}w:${referenceStartOfWeek(day)}`);
      day = referenceAddDays(day, 1);
    }
    expect(got).toEqual(want);
  }, 30_000);

  it("accepts and refuses the same dates", () => {
    process.env.TZ = zone;
    const samples = [
      "1899-12-31",
      "1900-01-01",
      "9999-12-31",
      "2024-02-29",
      "2026-02-29",
      "2026-02-28",
      "2026-04-31",
      "2026-00-10",
      "2026-13-01",
      "2026-01-00",
      "2026-01-32",
      "2026-1-01",
      "x2026-01-01",
      "2100-02-29",
      "2000-02-29",
    ];
    for (const value of samples) expect(isValidDate(value), value).toBe(referenceIsValid(value));
  });
});

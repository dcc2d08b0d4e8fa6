// Calendar days of the business time zone as instants, for filters on timestamps: a day in
// Lagos starts at 23:00 UTC the day before. Server-only (the browser does not know APP_TIME_ZONE).

// One formatter per time zone, kept (building one costs far more than using one): the wall clock
// of an instant, and the zone's short name ("WAT"; en-NG names West Africa Time, elsewhere it
// gives the zone's short name or offset). Digits are Latin in en-NG.
const formats = new Map<string, Intl.DateTimeFormat>();

type ZonedParts = Record<"year" | "month" | "day" | "hour" | "minute" | "second" | "timeZoneName", string>;

/** The wall clock of instant `t` (ms since epoch) in `timeZone`: 2-digit fields, a 4-digit year. */
export function zonedParts(timeZone: string, t: number): ZonedParts {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-NG", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    });
    formats.set(timeZone, format);
  }
  return Object.fromEntries(format.formatToParts(new Date(t)).map((p) => [p.type, p.value])) as ZonedParts;
}

/** How far `timeZone`'s wall clock is ahead of UTC at instant `t` (ms since epoch), in ms. */
function offsetAt(timeZone: string, t: number): number {
  const parts = zonedParts(timeZone, t);
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(t / 1000) * 1000;
}

/** The instant `timeZone`'s wall clock reads `local` ("yyyy-MM-ddTHH:mm" or with seconds). */
export function instantOfWallClock(timeZone: string, local: string): Date {
  const wall = Date.parse(`${local.length === 16 ? `${local}:00` : local}Z`);
  // Twice: the offset at the first guess may differ from the offset at the answer (a clock change).
  const guess = wall - offsetAt(timeZone, wall);
  return new Date(wall - offsetAt(timeZone, guess));
}

/** The instant `day` (yyyy-MM-dd) begins in `timeZone`. */
export const startOfDayIn = (timeZone: string, day: string): Date => instantOfWallClock(timeZone, `${day}T00:00`);

/** "Africa/Lagos" → "Lagos time": how a page names the zone its times are in. */
export function zoneLabel(timeZone: string): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  return `${timeZone.split("/").pop()!.replace(/_/g, " ")} time`;
}

/**
 * Instant `iso` as the wall clock of `timeZone`, "yyyy-MM-ddTHH:mm" without an offset: what a
 * datetime-local box holds and `formatDateTime` shows as local time (the browser does not know
 * APP_TIME_ZONE, so the loader converts).
 */
export function wallClockOf(timeZone: string, iso: string): string {
  const p = zonedParts(timeZone, Date.parse(iso));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

// Calendar days of the business time zone as instants, for filters on timestamps: a day in
// Lagos starts at 23:00 UTC the day before. Server-only (the browser does not know APP_TIME_ZONE).

const formats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at instant `t` (ms since epoch), in ms. */
function offsetAt(timeZone: string, t: number): number {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(t)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
  return wall - Math.floor(t / 1000) * 1000;
}

/** The instant `day` (yyyy-MM-dd) begins in `timeZone`. */
export function startOfDayIn(timeZone: string, day: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  // Twice: the offset at the first guess may differ from the offset at the answer (a clock change).
  const guess = midnight - offsetAt(timeZone, midnight);
  return new Date(midnight - offsetAt(timeZone, guess));
}

/** "Africa/Lagos" → "Lagos time": how a page names the zone its times are in. */
export function zoneLabel(timeZone: string): string {
  if (timeZone === "UTC" || timeZone === "Etc/UTC") return "UTC";
  return `${timeZone.split("/").pop()!.replace(/_/g, " ")} time`;
}

// Rows that only ever expire (decisions 0003 and 0600): sessions past their limits and sign-in
// throttle counters whose window has passed. Sign-ins delete expired sessions as they go, but a
// throttle counter is only ever read by its own key, so without this hourly sweep every address
// that ever failed a sign-in or asked for an unknown share link stayed in the table for good.
// Each instance sweeps; the deletes are idempotent, so two at once cost a little and break nothing.
import { logEvent, safeError } from "~/utils/logger.server";
import { deleteExpiredSessions } from "~/utils/session.server";
import { pruneThrottle } from "~/utils/throttle.server";

export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;

let timer: NodeJS.Timeout | null = null;

/** One sweep; a database that is down is logged and tried again at the next hour. */
export async function runHousekeeping(now = new Date()): Promise<void> {
  try {
    await deleteExpiredSessions(now);
    await pruneThrottle(now);
  } catch (error) {
    logEvent("warn", { event: "housekeeping.failed", error: safeError(error) });
  }
}

export function startHousekeeping() {
  if (timer) return;
  timer = setInterval(() => void runHousekeeping(), HOUSEKEEPING_INTERVAL_MS);
  timer.unref();
  void runHousekeeping();
}

export function stopHousekeeping() {
  if (timer) clearInterval(timer);
  timer = null;
}

// The daily reminder e-mails (docs/decisions/1260), REMINDERS_AUTO_EMAIL=1: every instance looks
// every quarter of an hour; from SEND_FROM_HOUR in the business's zone the first to claim the day
// sends (runDailyReminderEmails), the others find the day taken. The links in the e-mails need the
// public origin, so APP_ORIGIN must be set.
import { env } from "~/utils/env.server";
import { logEvent, safeError } from "~/utils/logger.server";
import { zonedParts } from "~/utils/zone-days.server";
import { autoEmailOn, runDailyReminderEmails } from "./reminders.server";

export const REMINDER_CHECK_INTERVAL_MS = 15 * 60 * 1000;
/** Reminders arrive in the working day, not at midnight. */
export const SEND_FROM_HOUR = 9;

let timer: NodeJS.Timeout | null = null;

export function startReminderTimer() {
  if (timer || !autoEmailOn()) return;
  const origin = env().APP_ORIGIN?.trim().replace(/\/+$/, "");
  if (!origin) {
    logEvent("warn", { event: "reminders.auto_email_off", reason: "APP_ORIGIN is not set" });
    return;
  }
  const tick = async () => {
    const now = new Date();
    if (Number(zonedParts(env().APP_TIME_ZONE, now.getTime()).hour) < SEND_FROM_HOUR) return;
    try {
      const run = await runDailyReminderEmails({ origin, now });
      if (run.claimed) logEvent("info", { event: "reminders.auto_email", sent: run.sent });
    } catch (error) {
      logEvent("error", { event: "reminders.auto_email_failed", error: safeError(error) });
    }
  };
  timer = setInterval(() => void tick(), REMINDER_CHECK_INTERVAL_MS);
  timer.unref();
  void tick();
}

export function stopReminderTimer() {
  if (timer) clearInterval(timer);
  timer = null;
}

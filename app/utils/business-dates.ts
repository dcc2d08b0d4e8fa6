// The days a business record may carry (decision 0841). A date far out of range was accepted
// (9999-12-31, 2099, 1969): stored, it broke the month views and exports, and no such day of
// business can be true. The business began after 2000; a delivery may carry tomorrow's date
// (a yard working past midnight, a phone a little ahead), money moved may not be in the future.
import { addDays } from "./dates";

export const EARLIEST_BUSINESS_DATE = "2000-01-01";
const EARLIEST_AS_WORDS = "1 January 2000";

/**
 * Why `date` is before any day of business, or null: for dates that may also lie ahead (a client's
 * quality rule from next month, decision 1210).
 */
export function tooEarlyRefusal(label: string, date: string): string | null {
  return date < EARLIEST_BUSINESS_DATE ? `${label} must be on or after ${EARLIEST_AS_WORDS}` : null;
}

/**
 * Why `date` cannot be the date of a delivery (`daysAhead` 1) or of money received or paid out
 * (`daysAhead` 0), or null. `today` is the business time zone's (`todayIn(APP_TIME_ZONE)`).
 */
export function businessDateRefusal(label: string, date: string, today: string, daysAhead: 0 | 1): string | null {
  const early = tooEarlyRefusal(label, date);
  if (early) return early;
  if (date > addDays(today, daysAhead))
    return daysAhead === 0 ? `${label} cannot be in the future` : `${label} must be no later than tomorrow`;
  return null;
}

/** The browser's `min` and `max` of such a date's input, as the loader sends them. */
export const businessDateBounds = (today: string, daysAhead: 0 | 1) => ({
  min: EARLIEST_BUSINESS_DATE,
  max: addDays(today, daysAhead),
});

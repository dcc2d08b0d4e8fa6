// A month as the pages and the JSON calls take it. A module of its own: utils/dates is in
// New Delivery's bundle, and what it exports there costs that page bytes (tests/e2e/budget.spec.ts).

/** "YYYY-MM" of a year from 1900 to 9999, as dates are (PostgreSQL has no year 0). A pattern only. */
export const isYearMonth = (value: unknown): value is string =>
  typeof value === "string" && /^(19|[2-9]\d)\d{2}-(0[1-9]|1[0-2])$/.test(value);

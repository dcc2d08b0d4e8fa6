// The bcrypt cost of new password hashes. Production always uses the full cost; only a test
// run may lower it, to spare hundreds of ~110 ms hashes (decision 0840). A hash carries its own
// cost, so a server comparing against a test's cheap hash never needs the setting itself.

/** Cost 10 is ~110 ms on these machines (STACK.md): slow for guessing, fine for a sign-in. */
export const BCRYPT_COST = 10;
// bcryptjs accepts 4 to 31; the lowest is enough for tests, which check behaviour, not strength.
const LOWEST_COST = 4;

/**
 * `TEST_BCRYPT_COST` (4 to 10) is honoured only when `NODE_ENV` is exactly "test"; under any
 * other NODE_ENV, production above all, it is ignored and the full cost is used.
 */
export function bcryptCost(environment: Record<string, string | undefined> = process.env): number {
  const raw = environment.TEST_BCRYPT_COST;
  if (environment.NODE_ENV !== "test" || raw === undefined || raw === "") return BCRYPT_COST;
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < LOWEST_COST || cost > BCRYPT_COST) {
    throw new Error(`TEST_BCRYPT_COST must be a whole number from ${LOWEST_COST} to ${BCRYPT_COST}, not "${raw}"`);
  }
  return cost;
}

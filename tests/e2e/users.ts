// The people the end-to-end tests sign in as, created before the server starts.
export const E2E_PASSWORD = "e2e-password-123";
export const BOOTSTRAP_ADMIN = { email: "boss@e2e.test", password: "first-admin-temp-1" };

export const FIXTURE_USERS = {
  admin: { email: "admin@e2e.test", role: "admin", firstName: "Ada", lastName: "Admin" },
  manager: { email: "manager@e2e.test", role: "manager", firstName: "Musa", lastName: "Manager" },
  staff: { email: "staff@e2e.test", role: "staff", firstName: "Sade", lastName: "Staff" },
  staff2: { email: "staff2@e2e.test", role: "staff", firstName: "Obi", lastName: "Yardman" },
} as const;

export type FixtureRole = keyof typeof FIXTURE_USERS;

/** Admins who must change their password, one per project so the journeys don't collide. */
export const FRESH_ADMINS = {
  "js-desktop": BOOTSTRAP_ADMIN,
  "js-phone": { email: "fresh-admin-js-phone@e2e.test", password: "fresh-admin-temp-2" },
  "nojs-desktop": { email: "fresh-admin-nojs-desktop@e2e.test", password: "fresh-admin-temp-3" },
  "nojs-phone": { email: "fresh-admin-nojs-phone@e2e.test", password: "fresh-admin-temp-4" },
} as const;

export const DELIVERY_CLIENT = "Kodan Industries";

/** Where tests/e2e/start-server.ts copies the server's log for scripts/check-e2e-log.ts. */
export function e2eLogFile(port: string | number) {
  return process.env.E2E_LOG_FILE ?? `${process.env.TMPDIR ?? "/tmp"}/pks-e2e-server-${port}.log`;
}

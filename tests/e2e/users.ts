// The people the end-to-end tests sign in as, created before the server starts.
export const E2E_PASSWORD = "e2e-password-123";
export const BOOTSTRAP_ADMIN = { email: "boss@e2e.test", password: "first-admin-temp-1" };

export const FIXTURE_USERS = {
  admin: { email: "admin@e2e.test", role: "admin", firstName: "Ada", lastName: "Admin" },
  manager: { email: "manager@e2e.test", role: "manager", firstName: "Musa", lastName: "Manager" },
  staff: { email: "staff@e2e.test", role: "staff", firstName: "Sade", lastName: "Staff" },
  staff2: { email: "staff2@e2e.test", role: "staff", firstName: "Obi", lastName: "Yardman" },
  // The offline journeys' own staff member: their deliveries never move a counter another test reads.
  staff3: { email: "staff3@e2e.test", role: "staff", firstName: "Efe", lastName: "Courier" },
} as const;

export type FixtureRole = keyof typeof FIXTURE_USERS;
export type FixtureUser = { email: string; role: "admin" | "manager" | "staff"; firstName: string; lastName: string };

/**
 * The people of the "nojs" project. The two browser projects run at the same time, so each has
 * its own users: one project's deliveries never move the other's counters. Names differ too
 * (neither contains the other), so a row found by name is the project's own.
 */
const NOJS_USERS: Record<FixtureRole, FixtureUser> = {
  admin: { email: "admin-nojs@e2e.test", role: "admin", firstName: "Bola", lastName: "Admin" },
  manager: { email: "manager-nojs@e2e.test", role: "manager", firstName: "Kemi", lastName: "Manager" },
  staff: { email: "staff-nojs@e2e.test", role: "staff", firstName: "Tayo", lastName: "Staff" },
  staff2: { email: "staff2-nojs@e2e.test", role: "staff", firstName: "Uche", lastName: "Yardman" },
  staff3: { email: "staff3-nojs@e2e.test", role: "staff", firstName: "Ify", lastName: "Courier" },
};

export const PROJECTS = ["js", "nojs"] as const;

/** The fixture users of a browser project (testInfo.project.name). */
export function fixtureUsers(project: string): Record<FixtureRole, FixtureUser> {
  if (project === "js") return FIXTURE_USERS;
  if (project === "nojs") return NOJS_USERS;
  throw new Error(`No fixture users for the browser project "${project}"`);
}

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

/**
 * Sessions made for the fixture users before the server starts (tests/e2e/start-server.ts), so a
 * test can sign in without a bcrypt compare and a round trip: the signed cookie value of each,
 * by project and role. Each is handed to one test only (claimed with an exclusive file create
 * in `claims`), so a test that signs out ends no one else's session.
 */
export type SessionPool = {
  cookieName: string;
  claims: string;
  sessions: Record<string, Record<FixtureRole, string[]>>;
  /**
   * The business day (Africa/Lagos) the seeded deliveries and invoices count back from. A run
   * that crosses midnight in Lagos has a later "today" than its seed.
   */
  seededOn: string;
};

export function e2eSessionFile(port: string | number) {
  return `${process.env.TMPDIR ?? "/tmp"}/pks-e2e-sessions-${port}.json`;
}

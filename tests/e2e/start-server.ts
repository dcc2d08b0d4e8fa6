// Starts the built app on a fresh embedded database for the end-to-end tests. The data
// directory is prepared first (migrations, first admin, fixture users), then handed to the
// server: PGlite allows one process per directory.
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, setConnection } from "../../db/client.server";
import { ensureFirstAdmin } from "../../app/models/user.server";
import { eq } from "drizzle-orm";
import { schema } from "../../app/db.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { SESSION_COOKIE_NAME } from "../../app/utils/cookies.server";
import { createSession } from "../../app/utils/session.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordTicket } from "../../app/services/deliveries/record-ticket.server";
import { createAgent, createClient, createDelivery, createQualityRule, createUser } from "../factories";
import {
  BOOTSTRAP_ADMIN,
  DELIVERY_CLIENT,
  E2E_PASSWORD,
  FRESH_ADMINS,
  PROJECTS,
  e2eLogFile,
  e2eSessionFile,
  fixtureUsers,
  type FixtureRole,
  type SessionPool,
} from "./users";

const port = process.env.PORT ?? "3210";
// What the server runs with. This process signs the fixture sessions' cookies with the same
// secret and origin, so it reads them too.
const serverEnv = {
  SESSION_SECRET: "e2e-session-secret",
  TOTP_ENCRYPTION_KEY: "e2e-totp-encryption-key",
  APP_ORIGIN: `http://localhost:${port}`,
  DELIVERY_CLIENT_NAME: DELIVERY_CLIENT,
  OWNER_EMAIL: "",
  // Each browser context sends an address of its own (desk() in fixtures.ts), as people behind
  // the office's proxy would; requests without one fall back to the socket's address.
  TRUSTED_PROXY_HEADER: "X-Forwarded-For",
};
Object.assign(process.env, serverEnv);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "pks-e2e-"));
const connection = connect({ driver: "pglite", dataDir });
setConnection(connection);
const { db, close } = await connection;
await ensureFirstAdmin({ ...BOOTSTRAP_ADMIN, log: () => {} }, db);
for (const project of PROJECTS) {
  for (const user of Object.values(fixtureUsers(project))) await createUser({ ...user, password: E2E_PASSWORD }, db);
}
for (const admin of Object.values(FRESH_ADMINS)) {
  if (admin === BOOTSTRAP_ADMIN) continue;
  await createUser({ email: admin.email, password: admin.password, role: "admin", mustChangePassword: true }, db);
}
const kodan = await createClient({ name: DELIVERY_CLIENT, taxRate: "7.50", paymentTermsDays: 30 }, db);
await createAgent({ name: "Musa Ibrahim", contact: "08031234567" }, db);
await createAgent({ name: "Chinedu Okafor", contact: "08087654321" }, db);

// Invoices: each project invoices its own deliveries, a recent one and one long overdue.
const staffUser = (
  await db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, fixtureUsers("js").staff.email))
)[0];
const today = todayIn("Africa/Lagos");
for (const project of ["js", "nojs"]) {
  const agent = await createAgent({ name: `Invoice Agent ${project}` }, db);
  const old = await createAgent({ name: `Overdue Agent ${project}` }, db);
  const common = {
    clientId: kodan.id,
    createdBy: staffUser.id,
    buyingRate: "52000.00",
    sellingRate: "65000.00",
    offloadingCost: "0",
  };
  await createDelivery({ ...common, agentId: agent.id, date: addDays(today, -2), tons: "20.00" }, db);
  // Overdue: invoiced the day it was delivered, 120 days ago, so due 90 days ago (decision 0300,
  // "Due date": the due date counts from the issue date).
  const overdue = await createDelivery({ ...common, agentId: old.id, date: addDays(today, -120), tons: "5.00" }, db);
  const [manager] = await db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, fixtureUsers(project).manager.email));
  const issued = await createInvoiceForDelivery(
    manager,
    { deliveryId: overdue.id },
    { now: new Date(`${addDays(today, -120)}T12:00:00Z`) },
  );
  if (!issued.ok) throw new Error(issued.message);
  // Weighed at the client's gate (tests/e2e/invoicing-weights.spec.ts, decision 1220): a client
  // that invoices only on its own ticket, one delivery per viewport with that ticket recorded
  // (30,120 kg at 18.5% moisture, 753 kg deducted) and one still waiting for it. Recorded through
  // the app's own recordTicket, as the office would; in 2004, a month no journey invoices whole.
  const weighedClient = await createClient(
    { name: `Weighed Client ${project}`, taxRate: "7.50", paymentTermsDays: 30, requiresReceivedTicket: true },
    db,
  );
  await createQualityRule(
    { clientId: weighedClient.id, validFrom: "2004-01-01", moistureThreshold: "16", deductionPerPoint: "1" },
    db,
  );
  for (const [n, who] of ["Desk", "Phone", "Waiting"].entries()) {
    const weighedAgent = await createAgent({ name: `Weighed ${who} Agent ${project}` }, db);
    const weighed = await createDelivery(
      {
        ...common,
        clientId: weighedClient.id,
        agentId: weighedAgent.id,
        date: "2004-05-10",
        tons: "30.00",
        sellingRate: "60000.00",
        buyingRate: "40000.00",
        location: "Weighed yard",
      },
      db,
    );
    if (who === "Waiting") continue;
    const ticket = { kind: "received", ticketNo: `KD-${project}-${n}`, truckNo: `LAG ${n}${n}${n} KD` };
    const recorded = await recordTicket(
      manager,
      weighed.id,
      { ...ticket, grossKg: 45120, tareKg: 15000, moisture: "18.5" },
      null,
    );
    if (!recorded.ok) throw new Error(recorded.message);
  }
  // Invoiced late (tests/e2e/defects-invoices.spec.ts): delivered five months ago, not invoiced yet.
  const late = await createAgent({ name: `Late Agent ${project}` }, db);
  await createDelivery({ ...common, agentId: late.id, date: addDays(today, -150), tons: "5.00" }, db);
  // Corrections (tests/e2e/corrections.spec.ts): one delivery to invoice and void, one to credit.
  const voidAgent = await createAgent({ name: `Void Agent ${project}` }, db);
  const creditAgent = await createAgent({ name: `Credit Agent ${project}` }, db);
  await createDelivery({ ...common, agentId: voidAgent.id, date: addDays(today, -3), tons: "10.00" }, db);
  await createDelivery({ ...common, agentId: creditAgent.id, date: addDays(today, -3), tons: "4.00" }, db);
}

// Sessions for the Playwright fixture's loginAs (tests/e2e/fixtures.ts): more per role and
// project than the tests sign in; when they run out the fixture signs in through the API.
const SESSIONS_PER_ROLE = 80;
const pool: SessionPool = {
  cookieName: SESSION_COOKIE_NAME,
  claims: `${e2eSessionFile(port)}.claims`,
  sessions: {},
  seededOn: today,
};
for (const project of PROJECTS) {
  const byRole = {} as Record<FixtureRole, string[]>;
  for (const [role, user] of Object.entries(fixtureUsers(project)) as [FixtureRole, { email: string }][]) {
    const [row] = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, user.email));
    byRole[role] = [];
    for (let i = 0; i < SESSIONS_PER_ROLE; i++) {
      const { cookie } = await createSession(new Request(serverEnv.APP_ORIGIN), row.id);
      byRole[role].push(cookie.split(";")[0].slice(SESSION_COOKIE_NAME.length + 1));
    }
  }
  pool.sessions[project] = byRole;
}
rmSync(pool.claims, { recursive: true, force: true });
mkdirSync(pool.claims, { recursive: true });
writeFileSync(e2eSessionFile(port), JSON.stringify(pool));

await close();
setConnection(undefined);

// Everything the server logs also goes to a file, which scripts/check-e2e-log.ts searches for
// secrets after a run (decision 0600).
const logFile = e2eLogFile(port);
writeFileSync(logFile, "");
const log = createWriteStream(logFile, { flags: "a" });
const child = spawn("node", ["server.js"], {
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    DRAIN_DELAY_MS: "0",
    PORT: port,
    PGLITE_DIR: dataDir,
    DATABASE_URL: "",
    ...serverEnv,
  },
});
child.stdout!.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  log.write(chunk);
});
child.stderr!.on("data", (chunk: Buffer) => {
  process.stderr.write(chunk);
  log.write(chunk);
});
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));

// Starts the built app on a fresh embedded database for the end-to-end tests. The data
// directory is prepared first (migrations, first admin, fixture users), then handed to the
// server: PGlite allows one process per directory.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect, setConnection } from "../../db/client.server";
import { ensureFirstAdmin } from "../../app/models/user.server";
import { eq } from "drizzle-orm";
import { schema } from "../../app/db.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { BOOTSTRAP_ADMIN, DELIVERY_CLIENT, E2E_PASSWORD, FIXTURE_USERS, FRESH_ADMINS, e2eLogFile } from "./users";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "pks-e2e-"));
const connection = connect({ driver: "pglite", dataDir });
setConnection(connection);
const { db, close } = await connection;
await ensureFirstAdmin({ ...BOOTSTRAP_ADMIN, log: () => {} }, db);
for (const user of Object.values(FIXTURE_USERS)) {
  await createUser({ ...user, password: E2E_PASSWORD }, db);
}
for (const admin of Object.values(FRESH_ADMINS)) {
  if (admin === BOOTSTRAP_ADMIN) continue;
  await createUser({ email: admin.email, password: admin.password, role: "admin", mustChangePassword: true }, db);
}
const kodan = await createClient({ name: DELIVERY_CLIENT, taxRate: "7.50", paymentTermsDays: 30 }, db);
await createAgent({ name: "Musa Ibrahim", contact: "08031234567" }, db);
await createAgent({ name: "Chinedu Okafor", contact: "08087654321" }, db);

// Invoices: each project invoices its own deliveries, a recent one and one long overdue.
const staffUser = (await db.select().from(schema.users).where(eq(schema.users.email, FIXTURE_USERS.staff.email)))[0];
const today = todayIn("Africa/Lagos");
for (const project of ["js", "nojs"]) {
  const agent = await createAgent({ name: `Invoice Agent ${project}` }, db);
  const old = await createAgent({ name: `Overdue Agent ${project}` }, db);
  const common = { clientId: kodan.id, createdBy: staffUser.id, buyingRate: "52000.00", sellingRate: "65000.00", offloadingCost: "0" };
  await createDelivery({ ...common, agentId: agent.id, date: addDays(today, -2), tons: "20.00" }, db);
  await createDelivery({ ...common, agentId: old.id, date: addDays(today, -120), tons: "5.00" }, db);
}
await close();
setConnection(undefined);

const port = process.env.PORT ?? "3210";
// Everything the server logs also goes to a file, which scripts/check-e2e-log.ts searches for
// secrets after a run (issue 11).
const logFile = e2eLogFile(port);
writeFileSync(logFile, "");
const log = createWriteStream(logFile, { flags: "a" });
const child = spawn("node", ["server.js"], {
  stdio: ["ignore", "pipe", "pipe"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: port,
    PGLITE_DIR: dataDir,
    DATABASE_URL: "",
    SESSION_SECRET: "e2e-session-secret",
    TOTP_ENCRYPTION_KEY: "e2e-totp-encryption-key",
    APP_ORIGIN: `http://localhost:${port}`,
    DELIVERY_CLIENT_NAME: DELIVERY_CLIENT,
    OWNER_EMAIL: "",
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

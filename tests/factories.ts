// Factories for tests and for the demo seed (db/seed.ts): believable records, written through
// the same model code the app uses where there is one.
import { randomBytes } from "node:crypto";
import { getDb, schema, type Executor, type Role, type User } from "../app/db.server";
import { insertUser } from "../app/models/user.server";
import { createSession } from "../app/utils/session.server";

export const TEST_PASSWORD = "correct-horse-battery";

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString("hex")}`;

export async function createUser(
  overrides: Partial<{
    email: string;
    role: Role;
    password: string;
    firstName: string;
    lastName: string;
    mustChangePassword: boolean;
    status: User["status"];
  }> = {},
  db?: Executor,
): Promise<User & { plainPassword: string }> {
  const role = overrides.role ?? "staff";
  const password = overrides.password ?? TEST_PASSWORD;
  const user = await insertUser(
    {
      email: overrides.email ?? `${role}-${unique()}@example.test`,
      role,
      password,
      firstName: overrides.firstName ?? role[0].toUpperCase() + role.slice(1),
      lastName: overrides.lastName ?? "Tester",
      mustChangePassword: overrides.mustChangePassword ?? false,
      status: overrides.status,
    },
    db,
  );
  return { ...user, plainPassword: password };
}

/** A signed-in user and the Cookie header that carries their session. */
export async function loginAs(role: Role, overrides: Parameters<typeof createUser>[0] = {}) {
  const user = await createUser({ role, ...overrides });
  const { cookie } = await createSession(new Request("http://localhost/"), user.id);
  return { user, cookie: cookie.split(";")[0] };
}

const AGENT_NAMES = [
  "Musa Ibrahim",
  "Chinedu Okafor",
  "Adebayo Ogunleye",
  "Emeka Nwosu",
  "Aisha Bello",
  "Tunde Bakare",
  "Ngozi Eze",
  "Yakubu Danjuma",
];
const LOCATIONS = [
  "Ikorodu yard",
  "Sagamu",
  "Ijebu-Ode",
  "Okitipupa",
  "Ore junction",
  "Benin bypass",
  "Aba road",
  "Owerri",
];

export async function createAgent(overrides: Partial<typeof schema.agents.$inferInsert> = {}, db?: Executor) {
  db ??= await getDb();
  const [agent] = await db
    .insert(schema.agents)
    // Agent names are unique (ignoring case): the default adds a short tag to a believable name.
    .values({
      name: `${AGENT_NAMES[counter % AGENT_NAMES.length]} ${unique().slice(-6)}`,
      contact: `080${String(10000000 + counter).slice(-8)}`,
      ...overrides,
    })
    .returning();
  return agent;
}

export async function createClient(overrides: Partial<typeof schema.clients.$inferInsert> = {}, db?: Executor) {
  db ??= await getDb();
  const [client] = await db
    .insert(schema.clients)
    .values({ name: `Client ${unique()}`, taxRate: "7.50", paymentTermsDays: 30, ...overrides })
    .returning();
  return client;
}

/** A client's quality rule (decision 1210), written as it is: no audit event, as the other factories. */
export async function createQualityRule(
  values: Pick<typeof schema.clientQualityRules.$inferInsert, "clientId" | "validFrom"> &
    Partial<typeof schema.clientQualityRules.$inferInsert>,
  db?: Executor,
) {
  db ??= await getDb();
  const [rule] = await db
    .insert(schema.clientQualityRules)
    .values({ moistureThreshold: "16.00", deductionPerPoint: "1.00", ...values })
    .returning();
  return rule;
}

export async function createDelivery(
  values: Pick<typeof schema.deliveries.$inferInsert, "agentId" | "createdBy"> &
    Partial<typeof schema.deliveries.$inferInsert>,
  db?: Executor,
) {
  db ??= await getDb();
  const [delivery] = await db
    .insert(schema.deliveries)
    .values({
      date: "2026-01-15",
      tons: "30.55",
      location: LOCATIONS[counter++ % LOCATIONS.length],
      truckNo: null,
      status: "confirmed",
      buyingRate: "52000.00",
      sellingRate: "65000.50",
      offloadingCost: "15000.00",
      ...values,
    })
    .returning();
  return delivery;
}

export { AGENT_NAMES, LOCATIONS };

// Fills an empty database with a believable demo: agents, the delivery client, one user per
// role and six months of deliveries, from the same factories the tests use.
// Usage: npm run db:seed   (uses DATABASE_URL, else the PGlite directory; stop the app first
// when on PGlite: one process per data directory; the script refuses a directory another
// process holds, before opening it).
import { sql } from "drizzle-orm";
import { connect, optionsFromEnv, setConnection } from "./client.server";
import * as schema from "./schema";
import { ensureFirstAdmin, generateTemporaryPassword } from "../app/models/user.server";
import { getSettings } from "../app/models/settings.server";
import { addDays, todayIn } from "../app/utils/dates";
import {
  AGENT_NAMES,
  LOCATIONS,
  createAgent,
  createClient,
  createDelivery,
  createQualityRule,
  createUser,
} from "../tests/factories";

const timeZone = process.env.APP_TIME_ZONE ?? "Africa/Lagos";
const clientName = process.env.DELIVERY_CLIENT_NAME ?? "Kodan";

const connection = connect(optionsFromEnv());
setConnection(connection);
const { db, close } = await connection;

try {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(schema.deliveries);
  if (count > 0) {
    console.log(`The database already has ${count} deliveries: nothing seeded.`);
  } else {
    await seed();
  }
} finally {
  await close();
}

async function seed() {
  await ensureFirstAdmin({ email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD });
  const people = [
    { role: "manager" as const, email: "manager@example.com", firstName: "Musa", lastName: "Abubakar" },
    { role: "staff" as const, email: "staff@example.com", firstName: "Sade", lastName: "Adeyemi" },
  ];
  const created: { id: string }[] = [];
  for (const person of people) {
    const existing = await db
      .select()
      .from(schema.users)
      .where(sql`${schema.users.email} = ${person.email}`);
    if (existing.length) {
      created.push(existing[0]);
      continue;
    }
    const password = generateTemporaryPassword();
    created.push(await createUser({ ...person, password, mustChangePassword: true }, db));
    console.log(`  ${person.role}: ${person.email} / temporary password ${password}`);
  }

  await db
    .update(schema.settings)
    .set({ buyingRate: "52000.00", sellingRate: "65000.00", taxRate: "7.50", offloadingCost: "15000.00" })
    .where(sql`${schema.settings.id} = ${(await getSettings(db)).id}`);
  const settings = await getSettings(db);
  const client = await createClient({ name: clientName, taxRate: "7.50", paymentTermsDays: 30 }, db);
  await createClient({ name: "Lafarge Ewekoro", taxRate: "7.50", paymentTermsDays: 45 }, db);
  const today = todayIn(timeZone);
  // The client's moisture terms (decision 1210): 16% and 1% a point since the demo's first day,
  // tightened to 15% and 1.5% a point two months ago.
  await createQualityRule({ clientId: client.id, validFrom: addDays(today, -180) }, db);
  await createQualityRule(
    { clientId: client.id, validFrom: addDays(today, -60), moistureThreshold: "15.00", deductionPerPoint: "1.50" },
    db,
  );
  const agents: { id: number }[] = [];
  for (const name of AGENT_NAMES.slice(0, 6)) agents.push(await createAgent({ name }, db));

  // Deterministic "randomness" so every newcomer sees the same demo.
  let state = 42;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  let made = 0;
  await db.transaction(async (tx) => {
    for (let day = 180; day >= 0; day--) {
      const perDay = next() < 0.35 ? 0 : 1 + Math.floor(next() * 2);
      for (let i = 0; i < perDay; i++) {
        const tonsKobo = 1800 + Math.floor(next() * 2400); // 18.00 to 41.99 tons
        await createDelivery(
          {
            date: addDays(today, -day),
            agentId: agents[Math.floor(next() * agents.length)].id,
            clientId: client.id,
            createdBy: created[1].id,
            tons: `${Math.floor(tonsKobo / 100)}.${String(tonsKobo % 100).padStart(2, "0")}`,
            location: LOCATIONS[Math.floor(next() * LOCATIONS.length)],
            truckNo: null,
            status: "confirmed",
            buyingRate: settings.buyingRate,
            sellingRate: settings.sellingRate,
            offloadingCost: settings.offloadingCost,
            logisticsCost: next() < 0.5 ? "45000.00" : null,
          },
          tx,
        );
        made++;
      }
    }
  });
  console.log(`Seeded ${agents.length} agents, 2 clients and ${made} deliveries over the last six months.`);
}

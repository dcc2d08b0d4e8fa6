// The people and reference data the load needs, written straight to the database before the
// app starts (PGlite allows one process per directory).
import { connect, setConnection, type ConnectOptions } from "../../../db/client.server";
import { schema } from "../../../app/db.server";
import { createAgent, createClient, createUser, TEST_PASSWORD } from "../../factories";

export type Seeded = {
  password: string;
  staff: string[];
  managers: string[];
  admins: string[];
  agentIds: number[];
};

export async function seed(options: ConnectOptions, { staff = 4, managers = 2, admins = 0 } = {}): Promise<Seeded> {
  const connection = connect(options);
  setConnection(connection);
  const { db, close } = await connection;
  try {
    await db
      .insert(schema.settings)
      .values({ id: 1, buyingRate: "52000.00", sellingRate: "65000.00", taxRate: "7.50", offloadingCost: "0" })
      .onConflictDoUpdate({ target: schema.settings.id, set: { buyingRate: "52000.00", sellingRate: "65000.00" } });
    await createClient({ name: "Kodan", taxRate: "7.50", paymentTermsDays: 30 }, db);
    const agentIds: number[] = [];
    for (let i = 0; i < 3; i++) agentIds.push((await createAgent({}, db)).id);
    const result: Seeded = { password: TEST_PASSWORD, staff: [], managers: [], admins: [], agentIds };
    for (let i = 0; i < staff; i++)
      result.staff.push((await createUser({ role: "staff", email: `ops-staff-${i}@example.test` }, db)).email);
    for (let i = 0; i < managers; i++)
      result.managers.push((await createUser({ role: "manager", email: `ops-manager-${i}@example.test` }, db)).email);
    for (let i = 0; i < admins; i++)
      result.admins.push((await createUser({ role: "admin", email: `ops-admin-${i}@example.test` }, db)).email);
    // A ticket's photo (docs/decisions/1220): bytea, which a backup must carry byte for byte.
    const photo = new Uint8Array(4096);
    photo.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (let i = 8; i < photo.length; i++) photo[i] = (i * 131) % 256;
    const [owner] = await db.select({ id: schema.users.id }).from(schema.users).limit(1);
    await db
      .insert(schema.attachments)
      .values({ contentType: "image/png", bytes: photo, sizeBytes: photo.length, createdBy: owner.id });
    return result;
  } finally {
    await close();
    setConnection(undefined);
  }
}

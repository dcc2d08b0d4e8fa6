import { asc, eq, sql } from "drizzle-orm";
import { getDb, schema, type Client, type Executor } from "~/db.server";

export async function listClients(db?: Executor): Promise<Client[]> {
  db ??= await getDb();
  return db.select().from(schema.clients).orderBy(asc(schema.clients.name), asc(schema.clients.id));
}

export async function getClient(id: number, db?: Executor): Promise<Client | null> {
  db ??= await getDb();
  const [client] = await db.select().from(schema.clients).where(eq(schema.clients.id, id));
  return client ?? null;
}

/** Case-insensitive name match (the New Delivery form's fixed client). */
export async function findClientByName(name: string, db?: Executor): Promise<Client | null> {
  db ??= await getDb();
  const [client] = await db
    .select()
    .from(schema.clients)
    .where(sql`lower(${schema.clients.name}) = lower(${name.trim()})`)
    .orderBy(asc(schema.clients.id))
    .limit(1);
  return client ?? null;
}

import { asc, eq } from "drizzle-orm";
import { getDb, schema, type Agent, type Executor } from "~/db.server";

export async function listAgents(db?: Executor): Promise<Agent[]> {
  db ??= await getDb();
  return db.select().from(schema.agents).orderBy(asc(schema.agents.name), asc(schema.agents.id));
}

export async function getAgent(id: number, db?: Executor): Promise<Agent | null> {
  db ??= await getDb();
  const [agent] = await db.select().from(schema.agents).where(eq(schema.agents.id, id));
  return agent ?? null;
}

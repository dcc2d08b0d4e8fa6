// Agents and clients as JSON lists: alphabetical (ignoring case), read through the unique
// index on lower(name) a page at a time. The cursor is the last name seen, base64url-encoded.
import { asc, sql } from "drizzle-orm";
import { getDb, schema, type Agent, type Client } from "~/db.server";

type Table = typeof schema.agents | typeof schema.clients;

export function encodeNameCursor(name: string) {
  return Buffer.from(name.toLowerCase(), "utf8").toString("base64url");
}

/** The name a cursor stands for, or null when it is not one of ours. */
export function decodeNameCursor(cursor: string | null): string | null | "invalid" {
  if (cursor === null || cursor === "") return null;
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return "invalid";
  const name = Buffer.from(cursor, "base64url").toString("utf8");
  return name && encodeNameCursor(name) === cursor ? name : "invalid";
}

async function page<T extends Agent | Client>(table: Table, after: string | null, limit: number) {
  const db = await getDb();
  const rows = (await db
    .select()
    .from(table)
    .where(after === null ? undefined : sql`lower(${table.name}) > ${after}`)
    .orderBy(asc(sql`lower(${table.name})`))
    .limit(limit + 1)) as T[];
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  return { items, nextCursor: more && items.length ? encodeNameCursor(items[items.length - 1].name) : null };
}

export const agentsPage = (after: string | null, limit: number) => page<Agent>(schema.agents, after, limit);
export const clientsPage = (after: string | null, limit: number) => page<Client>(schema.clients, after, limit);

export async function* directoryBatches<T extends Agent | Client>(
  read: (after: string | null, limit: number) => Promise<{ items: T[]; nextCursor: string | null }>,
  batchSize = 1000,
) {
  let after: string | null = null;
  for (;;) {
    const { items, nextCursor } = await read(after, batchSize);
    if (items.length) yield items;
    if (!nextCursor) return;
    after = items[items.length - 1].name.toLowerCase();
  }
}

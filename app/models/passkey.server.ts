import { and, desc, eq } from "drizzle-orm";
import { getDb, schema } from "~/db.server";

export type PasskeyRow = { id: number; deviceName: string; createdAt: string; lastUsedAt: string | null };

export async function listPasskeys(userId: string): Promise<PasskeyRow[]> {
  const db = await getDb();
  const rows = await db
    .select({ id: schema.passkeys.id, deviceName: schema.passkeys.deviceName, createdAt: schema.passkeys.createdAt, lastUsedAt: schema.passkeys.lastUsedAt })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, userId))
    .orderBy(desc(schema.passkeys.createdAt));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt?.toISOString() ?? null }));
}

export async function getPasskey(userId: string, id: number) {
  const db = await getDb();
  const [row] = await db
    .select({ id: schema.passkeys.id, deviceName: schema.passkeys.deviceName })
    .from(schema.passkeys)
    .where(and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, id)));
  return row ?? null;
}

/** Deletes one of the user's own passkeys; false when there is no such passkey of theirs. */
export async function deletePasskey(userId: string, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const db = await getDb();
  const rows = await db
    .delete(schema.passkeys)
    .where(and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, id)))
    .returning({ id: schema.passkeys.id });
  return rows.length > 0;
}

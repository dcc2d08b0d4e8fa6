import { eq } from "drizzle-orm";
import { getDb, schema, type Executor, type Settings } from "~/db.server";
import { env } from "~/utils/env.server";

const SETTINGS_ID = 1;

/** The one settings record; created with the spec's defaults ("0") the first time it is read. */
export async function getSettings(db?: Executor): Promise<Settings> {
  db ??= await getDb();
  const [row] = await db.select().from(schema.settings).where(eq(schema.settings.id, SETTINGS_ID));
  if (row) return row;
  await db.insert(schema.settings).values({ id: SETTINGS_ID }).onConflictDoNothing();
  const [created] = await db.select().from(schema.settings).where(eq(schema.settings.id, SETTINGS_ID));
  return created;
}

/** The client the New Delivery form is fixed to: the admin's setting, else DELIVERY_CLIENT_NAME. */
export function deliveryClientName(settings: Pick<Settings, "deliveryClientName">) {
  return settings.deliveryClientName?.trim() || env().DELIVERY_CLIENT_NAME;
}

/** What the admin's System Settings page shows (issue 4). */
export async function loadSystemSettings() {
  const settings = await getSettings();
  return {
    buyingRate: settings.buyingRate,
    sellingRate: settings.sellingRate,
    taxRate: settings.taxRate,
    offloadingCost: settings.offloadingCost,
    deliveryClientName: deliveryClientName(settings),
  };
}

export type SystemSettingsData = Awaited<ReturnType<typeof loadSystemSettings>>;

import { eq } from "drizzle-orm";
import { reminderLevelsField } from "~/schemas/settings";
import * as z from "zod";
import { optionalTaxRate } from "~/schemas/directory";
import { optionalDecimal, optionalText } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import { compare } from "~/utils/money";
import { fail, Refusal, type Failure, type Result } from "~/utils/result";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { getDb, schema, type Executor, type Settings } from "~/db.server";
import { env } from "~/utils/env.server";
import { recordAudit } from "./audit.server";

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

/** What the admin's System Settings page shows. */
export async function loadSystemSettings(actor: Actor) {
  assertCan(actor, "settings.manage", "settings");
  const settings = await getSettings();
  return {
    buyingRate: settings.buyingRate,
    sellingRate: settings.sellingRate,
    taxRate: settings.taxRate,
    offloadingCost: settings.offloadingCost,
    deliveryClientName: deliveryClientName(settings),
    /** A payout above this waits for a second admin; null: none does (docs/decisions/1250). */
    payoutApprovalLimit: settings.payoutApprovalLimit,
    reminderLevels: settings.reminderLevels.join(", "),
    /** The saved settings' version: the form sends it back, so a save over someone else's is refused. */
    version: settingsVersion(settings),
  };
}

const settingsVersion = (settings: Pick<Settings, "updatedAt">) => settings.updatedAt.toISOString();

export const SETTINGS_CHANGED_MEANWHILE =
  "Someone else saved these settings after you opened them. The form now shows what is saved: check it and make your change again.";

export type SystemSettingsData = Awaited<ReturnType<typeof loadSystemSettings>>;

const SettingsSchema = z.object({
  buyingRate: optionalDecimal({ label: "Buying rate", precision: 12 }),
  sellingRate: optionalDecimal({ label: "Selling rate", precision: 12 }),
  offloadingCost: optionalDecimal({ label: "Offloading cost", precision: 12 }),
  taxRate: optionalTaxRate,
  deliveryClientName: optionalText("Delivery client name", 200),
  payoutApprovalLimit: optionalDecimal({ label: "Payout approval limit", precision: 12 }),
  reminderLevels: reminderLevelsField,
});

export type SettingsUpdate = Result<{ settings: SystemSettingsData; changed: boolean }, 400 | 403 | 409>;

const RATE_FIELDS = ["buyingRate", "sellingRate", "offloadingCost", "taxRate", "payoutApprovalLimit"] as const;

/**
 * Saves the default rates (only the fields given). Deliveries copy rates when they are created,
 * so a change here never rewrites an existing delivery. `input.version`, when given (the System
 * Settings form always sends it), must be the version the caller read: a save over someone
 * else's newer one is refused (409) and changes nothing. A save that changes no value writes
 * nothing, not even an audit event.
 */
export async function updateSettings(actor: Actor, input: Record<string, unknown>): Promise<SettingsUpdate> {
  const refused = refuse(actor, "settings.manage", "settings");
  if (refused) return refused;
  const parsed = SettingsSchema.safeParse(
    Object.fromEntries(Object.keys(SettingsSchema.shape).map((k) => [k, input[k]])),
  );
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const given: Record<string, unknown> = Object.fromEntries(
    Object.entries(parsed.data).filter(([, v]) => v !== undefined && v !== null),
  );
  // The approval limit is the one setting that may be empty (no approval needed): JSON null or an
  // emptied form box clears it (docs/decisions/1250).
  if ("payoutApprovalLimit" in input && parsed.data.payoutApprovalLimit == null) given.payoutApprovalLimit = null;
  const db = await getDb();
  await getSettings(db);
  let changed = false;
  try {
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(schema.settings).where(eq(schema.settings.id, SETTINGS_ID)).for("update");
      if (input.version != null && input.version !== settingsVersion(before)) {
        throw new Refusal(fail(409, SETTINGS_CHANGED_MEANWHILE));
      }
      const changes = Object.fromEntries(
        Object.entries(given).filter(([key, value]) => {
          if ((RATE_FIELDS as readonly string[]).includes(key)) {
            const old = before[key as keyof Settings];
            if (value === null || old === null) return value !== old;
            return compare(String(value), String(old)) !== 0;
          }
          // The form shows the name in effect (the setting, else DELIVERY_CLIENT_NAME): sent back
          // untouched, it is no change, and the environment's default stays a default.
          if (key === "deliveryClientName") return value !== deliveryClientName(before);
          if (key === "reminderLevels") return JSON.stringify(value) !== JSON.stringify(before.reminderLevels);
          return value !== before[key as keyof Settings];
        }),
      );
      if (Object.keys(changes).length === 0) return;
      changed = true;
      const [after] = await tx
        .update(schema.settings)
        .set({ ...changes, updatedAt: new Date(), updatedBy: actor.id })
        .where(eq(schema.settings.id, SETTINGS_ID))
        .returning();
      await recordAudit(tx, {
        actor,
        action: "settings.update",
        entityType: "settings",
        entityId: SETTINGS_ID,
        before,
        after,
      });
    });
  } catch (error) {
    if (error instanceof Refusal) return error.failure as Failure<409>;
    throw error;
  }
  return { ok: true, changed, settings: await loadSystemSettings(actor) };
}

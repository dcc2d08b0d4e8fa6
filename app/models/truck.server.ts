// The truck register (docs/decisions/1200): a row per plate, unique by its key (the plate without
// spaces or dashes). Managers and admins add and edit trucks (`truck.manage`); New Delivery adds
// an unknown plate on the fly inside its own transaction (`registerPlate`) and suggests the plates
// most recently added or changed (`recentPlates`).
import { and, asc, desc, eq, gt, like, lt, ne, sql } from "drizzle-orm";
import { getDb, schema, type Executor, type Truck } from "~/db.server";
import { refuse, type Actor } from "~/rules/capabilities.server";
import { plateKey, plateKeyPrefix } from "~/rules/plates";
import { TruckSchema } from "~/schemas/trucks";
import { safeParseFields } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import type { Failure } from "~/utils/result";
import { shapePage } from "~/utils/keyset.server";
import { recordAudit } from "./audit.server";
import { isUniqueViolation } from "./directory-errors";

const t = schema.trucks;

/** What the JSON calls and the list show of a truck. */
export type TruckView = Pick<Truck, "id" | "plate" | "transporter" | "phone" | "usualTareKg">;
export const truckView = ({ id, plate, transporter, phone, usualTareKg }: TruckView): TruckView => ({
  id,
  plate,
  transporter,
  phone,
  usualTareKg,
});
const VIEW_COLUMNS = {
  id: t.id,
  plate: t.plate,
  transporter: t.transporter,
  phone: t.phone,
  usualTareKg: t.usualTareKg,
};

/** A plate already registered: 409, said under the plate field, naming the truck that has it. */
export type DuplicatePlate = Failure<409> & { truckId: number };
export type TruckResult = { ok: true; truck: Truck } | Failure<400 | 403 | 404> | DuplicatePlate;

export const duplicatePlateMessage = (plate: string) => `A truck with plate ${plate} is already registered`;

function duplicatePlate(existing: { id: number; plate: string }): DuplicatePlate {
  const message = duplicatePlateMessage(existing.plate);
  return { ok: false, status: 409, message, fieldErrors: { plate: [message] }, truckId: existing.id };
}

/** The truck holding this plate's key (another than `exceptId`), if any. */
async function holderOf(plate: string, exceptId: number | null, db: Executor) {
  const same = eq(t.plateKey, plateKey(plate));
  const [row] = await db
    .select({ id: t.id, plate: t.plate })
    .from(t)
    .where(exceptId === null ? same : and(same, ne(t.id, exceptId)))
    .limit(1);
  return row ?? null;
}

/** Two people registering one plate at once: the unique index decides, and the loser is told who won. */
async function duplicateAfterRace(error: unknown, plate: string, exceptId: number | null): Promise<DuplicatePlate> {
  const holder = isUniqueViolation(error) ? await holderOf(plate, exceptId, await getDb()) : null;
  if (!holder) throw error;
  return duplicatePlate(holder);
}

export async function getTruck(id: number, db?: Executor): Promise<Truck | null> {
  db ??= await getDb();
  const [truck] = await db.select().from(t).where(eq(t.id, id));
  return truck ?? null;
}

export async function createTruck(actor: Actor, input: Record<string, unknown>): Promise<TruckResult> {
  const refused = refuse(actor, "truck.manage", "trucks");
  if (refused) return refused;
  const parsed = safeParseFields(TruckSchema, input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const { plate, transporter, phone, usualTareKg } = parsed.data;
  const db = await getDb();
  const holder = await holderOf(plate, null, db);
  if (holder) return duplicatePlate(holder);
  try {
    const truck = await db.transaction(async (tx) => {
      const [created] = await tx
        .insert(t)
        .values({
          plate,
          plateKey: plateKey(plate),
          transporter: transporter ?? null,
          phone: phone ?? null,
          usualTareKg: usualTareKg ?? null,
          createdBy: actor.id,
        })
        .returning();
      await recordAudit(tx, {
        actor,
        action: "truck.create",
        entityType: "truck",
        entityId: created.id,
        after: created,
      });
      return created;
    });
    return { ok: true, truck };
  } catch (error) {
    return duplicateAfterRace(error, plate, null);
  }
}

/**
 * Changes the fields `input` names and leaves the others: the Edit Truck form posts every field
 * (a blank box clears it), a JSON PATCH may send only the ones it changes.
 */
export async function updateTruck(actor: Actor, id: number, input: Record<string, unknown>): Promise<TruckResult> {
  const refused = refuse(actor, "truck.manage", `truck/${id}`);
  if (refused) return refused;
  const keys = Object.keys(TruckSchema.shape) as (keyof typeof TruckSchema.shape)[];
  const given = Object.fromEntries(keys.filter((k) => k in input).map((k) => [k, true as const])) as Partial<
    Record<(typeof keys)[number], true>
  >;
  const parsed = safeParseFields(TruckSchema.pick(given), input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const data = parsed.data as Partial<Record<keyof typeof TruckSchema.shape, string | number | null | undefined>>;
  const changes: Partial<typeof t.$inferInsert> = {};
  if (typeof data.plate === "string") Object.assign(changes, { plate: data.plate, plateKey: plateKey(data.plate) });
  for (const key of ["transporter", "phone", "usualTareKg"] as const) {
    if (key in data) Object.assign(changes, { [key]: data[key] ?? null });
  }
  const db = await getDb();
  if (changes.plate) {
    const holder = await holderOf(changes.plate, id, db);
    if (holder) return duplicatePlate(holder);
  }
  try {
    const truck = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(t).where(eq(t.id, id)).for("update");
      if (!before) return null;
      const unchanged = Object.entries(changes).every(([k, v]) => before[k as keyof Truck] === v);
      if (unchanged) return before;
      const [after] = await tx
        .update(t)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(t.id, id))
        .returning();
      await recordAudit(tx, { actor, action: "truck.update", entityType: "truck", entityId: id, before, after });
      return after;
    });
    return truck ? { ok: true, truck } : { ok: false, status: 404, message: "Truck not found" };
  } catch (error) {
    return duplicateAfterRace(error, changes.plate ?? "", id);
  }
}

/**
 * A delivery's plate in the register, inside the delivery's transaction: an unknown plate is
 * added (and `created` is the new row, for the delivery's audit events); a known one is read
 * back. Two deliveries naming one new plate at once both land: the second's insert waits for the
 * first and then does nothing.
 */
export async function registerPlate(
  tx: Executor,
  plate: string,
  createdBy: string,
): Promise<{ truck: Pick<Truck, "id" | "plate">; created: Truck | null }> {
  const key = plateKey(plate);
  const [created] = await tx
    .insert(t)
    .values({ plate, plateKey: key, createdBy })
    .onConflictDoNothing({ target: t.plateKey })
    .returning();
  if (created) return { truck: created, created };
  const [known] = await tx.select({ id: t.id, plate: t.plate }).from(t).where(eq(t.plateKey, key));
  return { truck: known, created: null };
}

/** New Delivery's suggestions: the plates most recently added or changed, plates only. */
export async function recentPlates(limit = 200, db?: Executor): Promise<string[]> {
  db ??= await getDb();
  const rows = await db.select({ plate: t.plate }).from(t).orderBy(desc(t.updatedAt), desc(t.id)).limit(limit);
  return rows.map((r) => r.plate);
}

/** A cursor of the trucks list: the plate key it continues after (or before). */
const KEY_CURSOR = /^[A-Z0-9]{1,20}$/;
export const readTruckCursor = (value: string | null): string | null | "invalid" =>
  value === null || value === "" ? null : KEY_CURSOR.test(value) ? value : "invalid";

export type TruckPageRequest = { search: string | null; after: string | null; direction: "next" | "previous" };
export type TruckPage = { items: TruckView[]; nextCursor: string | null; previousCursor: string | null };

/** The query of one page of trucks, by plate key (exported for the plan tests). */
export function truckPageQuery(db: Executor, prefix: string | null, request: TruckPageRequest, limit: number) {
  const forward = request.direction === "next";
  const from =
    request.after === null ? undefined : forward ? gt(t.plateKey, request.after) : lt(t.plateKey, request.after);
  // The key holds A-Z and 0-9 only, so the prefix has nothing LIKE would read as a wildcard.
  const starts = prefix === null ? undefined : like(t.plateKey, `${prefix}%`);
  return db
    .select(VIEW_COLUMNS)
    .from(t)
    .where(and(from, starts))
    .orderBy(forward ? asc(t.plateKey) : desc(t.plateKey))
    .limit(limit + 1);
}

/**
 * One page of the register in plate order, from after (or, going back, before) a plate key; a
 * search keeps the plates whose key starts with the search's ("kja 4" finds KJA-456-AB).
 */
export async function trucksPage(request: TruckPageRequest, limit: number): Promise<TruckPage> {
  const prefix = request.search === null ? null : plateKeyPrefix(request.search);
  if (request.search !== null && prefix === null) return { items: [], nextCursor: null, previousCursor: null };
  const rows = await truckPageQuery(await getDb(), prefix, request, limit);
  const page = shapePage(
    rows,
    limit,
    { backward: request.direction === "previous", continued: request.after !== null },
    (row) => plateKey(row.plate),
  );
  return { items: page.items, previousCursor: page.previous, nextCursor: page.next };
}

/** Every truck in plate order (the JSON list without `limit`), a batch at a time. */
export async function* truckBatches(search: string | null, batchSize = 1000) {
  let after: string | null = null;
  for (;;) {
    const page = await trucksPage({ search, after, direction: "next" }, batchSize);
    if (page.items.length) yield page.items;
    if (!page.nextCursor) return;
    after = page.nextCursor;
  }
}

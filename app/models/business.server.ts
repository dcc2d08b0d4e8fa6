// The company's own details, printed on its invoices (docs/decisions/0953): one row,
// the logo's bytes beside the details but read only by the logo route.
import { eq } from "drizzle-orm";
import { getDb, schema, type Executor } from "~/db.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { recordAudit } from "~/models/audit.server";
import { BusinessDetailsSchema, BUSINESS_TEXT_FIELDS, type BusinessDetailsInput } from "~/schemas/business";
import { safeParseFields } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import { checkLogo, type LogoType } from "~/utils/logo.server";
import type { Result } from "~/utils/result";

const ID = 1;
export const LOGO_PATH = "/resources/logo";

export type BusinessDetailsView = { [K in keyof BusinessDetailsInput]-?: string | null } & {
  /** The logo's address, changing with each new logo (so it can be cached for good), or null. */
  logoUrl: string | null;
};

const t = schema.businessDetails;
const columns = {
  companyName: t.companyName,
  address: t.address,
  phone: t.phone,
  email: t.email,
  registrationNo: t.registrationNo,
  taxNo: t.taxNo,
  bankName: t.bankName,
  bankAccountName: t.bankAccountName,
  bankAccountNo: t.bankAccountNo,
  logoUpdatedAt: t.logoUpdatedAt,
};

const EMPTY = Object.fromEntries(BUSINESS_TEXT_FIELDS.map((k) => [k, null])) as Record<
  keyof BusinessDetailsInput,
  null
>;

/** What invoices print (every signed-in reader of an invoice may see it); blanks are null. */
export async function getBusinessDetails(db?: Executor): Promise<BusinessDetailsView> {
  db ??= await getDb();
  const [row] = await db.select(columns).from(t).where(eq(t.id, ID));
  if (!row) return { ...EMPTY, logoUrl: null };
  const { logoUpdatedAt, ...details } = row;
  return { ...details, logoUrl: logoUpdatedAt ? `${LOGO_PATH}?v=${logoUpdatedAt.getTime()}` : null };
}

/** The System Settings form's values (admins). */
export async function loadBusinessDetails(actor: Actor) {
  assertCan(actor, "settings.manage", "settings/business");
  return getBusinessDetails();
}

export type BusinessLogo = { bytes: Uint8Array; type: LogoType; version: string };

export async function getBusinessLogo(): Promise<BusinessLogo | null> {
  const db = await getDb();
  const [row] = await db
    .select({ logo: t.logo, type: t.logoType, updatedAt: t.logoUpdatedAt })
    .from(t)
    .where(eq(t.id, ID));
  if (!row?.logo || !row.type || !row.updatedAt) return null;
  return { bytes: row.logo, type: row.type as LogoType, version: String(row.updatedAt.getTime()) };
}

/** What happens to the logo on a save: kept, removed, or replaced by the uploaded bytes. */
export type LogoChange = { kind: "keep" } | { kind: "remove" } | { kind: "replace"; bytes: Uint8Array };

export type BusinessUpdate = Result<{ details: BusinessDetailsView }, 400 | 403>;

/**
 * Saves every text field (a blank box clears it) and the logo change. A logo that is not a PNG
 * or JPEG by its first bytes, or over 200 KB, refuses the whole save: nothing is written.
 */
export async function updateBusinessDetails(
  actor: Actor,
  input: Record<string, unknown>,
  logo: LogoChange = { kind: "keep" },
  now = new Date(),
): Promise<BusinessUpdate> {
  const refused = refuse(actor, "settings.manage", "settings/business");
  if (refused) return refused;
  const parsed = safeParseFields(BusinessDetailsSchema, input);
  const fieldErrors: Record<string, string[]> = parsed.success ? {} : fieldErrorsOf(parsed.error).fieldErrors;
  let logoValues: { logo: Uint8Array | null; logoType: LogoType | null; logoUpdatedAt: Date | null } | null = null;
  if (logo.kind === "replace") {
    const checked = checkLogo(logo.bytes);
    if (checked.ok) logoValues = { logo: logo.bytes, logoType: checked.type, logoUpdatedAt: now };
    else fieldErrors.logo = [checked.message];
  } else if (logo.kind === "remove") logoValues = { logo: null, logoType: null, logoUpdatedAt: null };
  if (!parsed.success || Object.keys(fieldErrors).length) {
    const message = Object.values(fieldErrors)[0]?.[0] ?? "Please check the business details";
    return { ok: false, status: 400, message, fieldErrors };
  }
  const text = Object.fromEntries(BUSINESS_TEXT_FIELDS.map((k) => [k, parsed.data[k] ?? null]));
  const values = { ...text, ...(logoValues ?? {}), updatedAt: now, updatedBy: actor.id };
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(t).where(eq(t.id, ID)).for("update");
    const [after] = await tx
      .insert(t)
      .values({ id: ID, ...values })
      .onConflictDoUpdate({ target: t.id, set: values })
      .returning();
    // The trail keeps the logo's type and time, not its bytes.
    await recordAudit(tx, {
      actor,
      action: "settings.update",
      entityType: "settings",
      entityId: ID,
      before: before ? { ...before, logo: undefined } : null,
      after: { ...after, logo: undefined },
    });
  });
  return { ok: true, details: await getBusinessDetails(db) };
}

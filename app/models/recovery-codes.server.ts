// Two-factor recovery codes (docs/decisions/0401): ten single-use codes made when two-factor is
// turned on (or made again on request, after re-authentication), shown once, kept only as
// hashes, and accepted at the code step of signing in instead of an authenticator code.
import { createHash, randomInt } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import { getDb, schema, type Executor, type User } from "~/db.server";
import { openSecret, sealSecret } from "~/utils/secret-box.server";
import { getCurrent, updateSessionData } from "~/utils/auth.server";
import { recordAudit } from "./audit.server";

export const RECOVERY_CODE_COUNT = 10;
// Ten characters of 32 (about 50 bits) in two groups of five; no look-alikes (0/o, 1/l/i).
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const CODE_LENGTH = 10;
export const RECOVERY_CODE_MESSAGE = "Enter a recovery code: ten letters and digits";
export const INVALID_RECOVERY_CODE = "Invalid or already used recovery code";

function newCode() {
  let out = "";
  for (let i = 0; i < CODE_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** The code as typed, without spaces or hyphens, lower-cased; null when it cannot be one. */
export function normalizeRecoveryCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 40) return null;
  const code = input.replace(/[\s-]/g, "").toLowerCase();
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

// Fifty random bits need no slow hash; the user id in the input makes a hash useless for any
// other account.
const hashOf = (userId: string, code: string) => createHash("sha256").update(`${userId}:${code}`).digest("hex");

/**
 * Replaces the user's recovery codes with ten new ones, in `tx` (the caller's transaction, which
 * records the change), and returns them in clear: the only time they exist outside the user.
 */
export async function replaceRecoveryCodes(tx: Executor, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId));
  await tx
    .insert(schema.recoveryCodes)
    .values(codes.map((code) => ({ userId, codeHash: hashOf(userId, normalizeRecoveryCode(code)!) })));
  return codes;
}

/** New codes on request (the route has re-authenticated the user), recorded in the trail. */
export async function regenerateRecoveryCodes(user: User): Promise<string[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "auth.recovery_codes_generate",
      entityType: "user",
      entityId: user.id,
      after: { count: codes.length },
    });
    return codes;
  });
}

export async function countRecoveryCodes(userId: string): Promise<number> {
  const db = await getDb();
  const t = schema.recoveryCodes;
  const [row] = await db
    .select({ n: count() })
    .from(t)
    .where(and(eq(t.userId, userId), isNull(t.usedAt)));
  return Number(row.n);
}

/** Uses up one code (compare-and-set: two racing requests with it cannot both pass). */
export async function useRecoveryCode(user: User, code: string, now: Date): Promise<boolean> {
  const db = await getDb();
  const t = schema.recoveryCodes;
  return db.transaction(async (tx) => {
    const used = await tx
      .update(t)
      .set({ usedAt: now })
      .where(and(eq(t.userId, user.id), eq(t.codeHash, hashOf(user.id, code)), isNull(t.usedAt)))
      .returning({ id: t.id });
    if (used.length !== 1) return false;
    const [left] = await tx
      .select({ n: count() })
      .from(t)
      .where(and(eq(t.userId, user.id), isNull(t.usedAt)));
    await recordAudit(tx, {
      actor: user,
      action: "auth.recovery_code_used",
      entityType: "user",
      entityId: user.id,
      after: { remaining: Number(left.n) },
    });
    return true;
  });
}

/** Keeps new codes (sealed) on the session until the page that shows them once reads them. */
export async function keepCodesToShow(request: Request, codes: string[]) {
  const current = await getCurrent(request);
  if (!current) return;
  await updateSessionData(current.session.sid, {
    ...current.session.sess,
    recoveryCodesToShow: sealSecret(codes.join(" ")),
  });
}

/** The codes kept to show, removed from the session as they are read: shown once. */
export async function takeCodesToShow(request: Request): Promise<string[] | null> {
  const current = await getCurrent(request);
  const sealed = current?.session.sess.recoveryCodesToShow;
  if (!current || !sealed) return null;
  const { recoveryCodesToShow: _shown, ...rest } = current.session.sess;
  await updateSessionData(current.session.sid, rest);
  return openSecret(sealed).split(" ");
}

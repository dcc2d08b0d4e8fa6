import { randomInt } from "node:crypto";
import bcrypt from "bcryptjs";
import { bcryptCompare, bcryptHash } from "~/utils/password-hash.server";
import { and, eq, isNull, sql } from "drizzle-orm";
import { getDb, schema, type Executor, type Role, type User } from "~/db.server";
import { bcryptCost } from "~/utils/password-cost.server";
import { recordAudit } from "./audit.server";

const TEMP_PASSWORD_LENGTH = 16;
// A temporary password (admin create or reset) signs in once, within 72 hours; then the admin
// resets again (docs/decisions/0600).
const TEMP_PASSWORD_TTL_MS = 72 * 60 * 60 * 1000;
export const temporaryPasswordExpiry = (now = new Date()) => new Date(now.getTime() + TEMP_PASSWORD_TTL_MS);
/** The columns an admin's create or reset sets with a new temporary password. */
export const temporaryPasswordColumns = (now = new Date()) => ({
  temporaryPasswordExpiresAt: temporaryPasswordExpiry(now),
  temporaryPasswordIssuedAt: now,
  temporaryPasswordUsedAt: null,
});
// Without a user to compare against we still spend a bcrypt compare, so timing tells nothing.
const sqlLock = sql`select pg_advisory_xact_lock(7261001)`;
let dummyHash: string | undefined;
const getDummyHash = () => (dummyHash ??= bcrypt.hashSync("not-a-real-password", bcryptCost()));

export type PublicUser = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  displayName: string;
  role: Role;
  status: User["status"];
  mustChangePassword: number;
  totpEnabled: boolean;
  createdAt: string;
};

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email || "User";
}

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    profileImageUrl: user.profileImageUrl,
    displayName: displayName(user),
    role: user.role,
    status: user.status,
    mustChangePassword: user.mustChangePassword,
    totpEnabled: user.totpEnabled,
    createdAt: user.createdAt.toISOString(),
  };
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function getUserById(id: string, db?: Executor): Promise<User | null> {
  db ??= await getDb();
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, id));
  return user ?? null;
}

export async function getUserByEmail(email: string, db?: Executor): Promise<User | null> {
  db ??= await getDb();
  const [user] = await db
    .select()
    .from(schema.users)
    .where(eq(schema.users.email, normalizeEmail(email)));
  return user ?? null;
}

// Hash and compare run on worker threads (decision 0503): the same bcrypt, off the event loop.
export const hashPassword = (password: string) => bcryptHash(password, bcryptCost());

export function generateTemporaryPassword(length = TEMP_PASSWORD_LENGTH) {
  // No look-alikes (0/O, 1/l/I): these are read off a screen and typed on a phone.
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

type PasswordCheck =
  { ok: true; user: User } | { ok: false; reason: "invalid" | "inactive" | "expired" | "used"; user?: User };

/**
 * Checks an e-mail and password. Frozen and deleted accounts never pass, nor an expired or
 * already used temporary password.
 */
export async function verifyPassword(email: string, password: string, now = new Date()): Promise<PasswordCheck> {
  const user = await getUserByEmail(email);
  const matches = await bcryptCompare(password, user?.password ?? getDummyHash());
  if (!user || !matches) return { ok: false, reason: "invalid", user: user ?? undefined };
  if (user.status !== "active") return { ok: false, reason: "inactive", user };
  if (
    user.mustChangePassword === 1 &&
    user.temporaryPasswordExpiresAt &&
    user.temporaryPasswordExpiresAt.getTime() <= now.getTime()
  ) {
    return { ok: false, reason: "expired", user };
  }
  if (user.mustChangePassword === 1 && user.temporaryPasswordUsedAt) return { ok: false, reason: "used", user };
  return { ok: true, user };
}

/**
 * Marks an admin-issued temporary password used at its first sign-in; false when another
 * request already did (two racing sign-ins cannot both pass). Other passwords, and the first
 * admin's start-up password (no issue time: nobody could reset it), are not single-use.
 */
export async function claimTemporaryPassword(user: User, now = new Date()): Promise<boolean> {
  if (user.mustChangePassword !== 1 || !user.temporaryPasswordIssuedAt) return true;
  const db = await getDb();
  const claimed = await db
    .update(schema.users)
    .set({ temporaryPasswordUsedAt: now })
    .where(and(eq(schema.users.id, user.id), isNull(schema.users.temporaryPasswordUsedAt)))
    .returning({ id: schema.users.id });
  return claimed.length === 1;
}

export async function checkUserPassword(user: User, password: string) {
  return bcryptCompare(password, user.password);
}

export async function setPassword(
  userId: string,
  password: string,
  { mustChange = false, passwordHash }: { mustChange?: boolean; passwordHash?: string } = {},
  db?: Executor,
) {
  db ??= await getDb();
  await db
    .update(schema.users)
    .set({
      password: passwordHash ?? (await hashPassword(password)),
      mustChangePassword: mustChange ? 1 : 0,
      temporaryPasswordExpiresAt: null,
      temporaryPasswordIssuedAt: null,
      temporaryPasswordUsedAt: null,
      updatedAt: new Date(),
    })
    .where(eq(schema.users.id, userId));
}

type NewUser = {
  email: string;
  role: Role;
  firstName?: string | null;
  lastName?: string | null;
  password: string;
  /** The hash of `password`, when the caller made it before opening its transaction. */
  passwordHash?: string;
  mustChangePassword?: boolean;
  temporaryPasswordExpiresAt?: Date | null;
  temporaryPasswordIssuedAt?: Date | null;
  status?: User["status"];
};

export async function insertUser(input: NewUser, db?: Executor): Promise<User> {
  db ??= await getDb();
  const [user] = await db
    .insert(schema.users)
    .values({
      email: normalizeEmail(input.email),
      role: input.role,
      firstName: input.firstName || null,
      lastName: input.lastName || null,
      password: input.passwordHash ?? (await hashPassword(input.password)),
      mustChangePassword: input.mustChangePassword ? 1 : 0,
      temporaryPasswordExpiresAt: input.temporaryPasswordExpiresAt ?? null,
      temporaryPasswordIssuedAt: input.temporaryPasswordIssuedAt ?? null,
      status: input.status ?? "active",
    })
    .returning();
  return user;
}

/**
 * On an empty database, creates the first admin: from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * admin@example.com with a random temporary password printed once. Either must change it.
 */
export async function ensureFirstAdmin(
  options: { email?: string; password?: string; log?: (message: string) => void } = {},
  db?: Executor,
): Promise<{ created: false } | { created: true; email: string; temporaryPassword?: string }> {
  db ??= await getDb();
  const log = options.log ?? console.log;
  return db.transaction(async (tx) => {
    // Two instances starting together must not both create an admin.
    await tx.execute(sqlLock);
    const [existing] = await tx.select({ id: schema.users.id }).from(schema.users).limit(1);
    if (existing) return { created: false as const };
    const email = options.email?.trim() || "admin@example.com";
    const generated = options.password ? undefined : generateTemporaryPassword();
    const admin = await insertUser(
      { email, role: "admin", password: options.password ?? generated!, mustChangePassword: true },
      tx,
    );
    // Users created are in the trail (decision 0900); nobody is signed in yet, so no actor.
    await recordAudit(tx, { actor: null, action: "user.create", entityType: "user", entityId: admin.id, after: admin });
    if (generated) {
      log(
        `\n  First admin created: ${email}\n  Temporary password (shown once): ${generated}\n` +
          `  Sign in and choose a new password.\n`,
      );
    } else {
      log(`First admin created: ${email} (must change the password at first sign-in)`);
    }
    return { created: true as const, email, temporaryPassword: generated };
  });
}

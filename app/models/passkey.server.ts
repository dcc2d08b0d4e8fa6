import { createHash } from "node:crypto";
import { hasControlCharacters } from "~/utils/text";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, desc, eq, lt } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { PRODUCT_NAME } from "~/utils/brand";
import { env } from "~/utils/env.server";
import { parseId } from "~/utils/params";
import { displayName, getUserByEmail, getUserById } from "./user.server";
import { auditContext, recordAudit } from "./audit.server";
import { logEvent } from "~/utils/logger.server";
import { countPasskeyFailure } from "~/utils/throttle.server";
import { recordSignIn } from "./sign-in-audit.server";

type PasskeyRow = { id: number; deviceName: string; createdAt: string; lastUsedAt: string | null };

export async function listPasskeys(userId: string): Promise<PasskeyRow[]> {
  const db = await getDb();
  const rows = await db
    .select({
      id: schema.passkeys.id,
      deviceName: schema.passkeys.deviceName,
      createdAt: schema.passkeys.createdAt,
      lastUsedAt: schema.passkeys.lastUsedAt,
    })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, userId))
    .orderBy(desc(schema.passkeys.createdAt));
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

const isPasskeyId = (id: number) => parseId(id) === id;

export async function getPasskey(userId: string, id: number) {
  if (!isPasskeyId(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({ id: schema.passkeys.id, deviceName: schema.passkeys.deviceName })
    .from(schema.passkeys)
    .where(and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, id)));
  return row ?? null;
}

/** Deletes one of the user's own passkeys; false when there is no such passkey of theirs. */
export async function deletePasskey(userId: string, id: number) {
  if (!isPasskeyId(id)) return false;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(schema.passkeys)
      .where(and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, id)))
      .returning();
    if (!rows.length) return false;
    await recordAudit(tx, {
      actor: { id: userId },
      action: "auth.passkey_remove",
      entityType: "passkey",
      entityId: id,
      before: rows[0],
    });
    return true;
  });
}

// ---- WebAuthn ceremonies -------------------------------------------------------------------
// Challenges live in the database (any instance can finish a ceremony another started), are
// single-use (deleted when used) and expire after CHALLENGE_TTL_MS.

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
export const PASSKEY_MESSAGES = {
  registrationFailed: "Registration verification failed",
  authenticationFailed: "Authentication verification failed",
  deviceName: "Please enter a name for this device",
  duplicate: "This passkey is already registered",
  inactive: "This account is not active. Please contact an administrator.",
} as const;

/** Relying party from APP_ORIGIN (default http://localhost:PORT): RP ID is its host name. */
export function relyingParty() {
  const { APP_ORIGIN, PORT } = env();
  const url = new URL(APP_ORIGIN || `http://localhost:${PORT}`);
  return { origin: url.origin, rpID: url.hostname, rpName: PRODUCT_NAME };
}

type Purpose = "register" | "authenticate";

/** What is stored of a browser's binding value: its hash. */
export const bindingHash = (value: string) => createHash("sha256").update(value).digest("base64url");

async function storeChallenge(
  challenge: string,
  purpose: Purpose,
  userId: string | null,
  now: Date,
  binding: string | null = null,
) {
  const db = await getDb();
  await db.delete(schema.webauthnChallenges).where(lt(schema.webauthnChallenges.expiresAt, now));
  await db.insert(schema.webauthnChallenges).values({
    challenge,
    purpose,
    userId,
    binding,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

/** Takes a challenge out of the store: it works once, and only before it expires. */
export async function consumeChallenge(
  challenge: string,
  purpose: Purpose,
  now = new Date(),
  binding: string | null = null,
) {
  const db = await getDb();
  const [row] = await db
    .delete(schema.webauthnChallenges)
    .where(and(eq(schema.webauthnChallenges.challenge, challenge), eq(schema.webauthnChallenges.purpose, purpose)))
    .returning({
      userId: schema.webauthnChallenges.userId,
      expiresAt: schema.webauthnChallenges.expiresAt,
      binding: schema.webauthnChallenges.binding,
    });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  // A challenge handed to one browser cannot be answered from another.
  if (row.binding !== null && row.binding !== binding) return null;
  return { userId: row.userId };
}

/**
 * Challenges and credential ids are base64url text (WebAuthn's encoding, and how ours are made).
 * Anything else is refused before it reaches a query: a NUL byte there is a database error.
 */
const isBase64Url = (value: unknown): value is string =>
  typeof value === "string" && value.length > 0 && value.length <= 1024 && /^[A-Za-z0-9_-]+$/.test(value);

/** The challenge the browser signed, read from clientDataJSON (verified again by the library). */
function challengeOf(credential: unknown): string | null {
  const encoded = (credential as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON;
  if (typeof encoded !== "string" || encoded.length > 10_000) return null;
  try {
    const clientData = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")) as { challenge?: unknown };
    return isBase64Url(clientData.challenge) ? clientData.challenge : null;
  } catch {
    return null;
  }
}

const userIdBytes = (id: string) => new Uint8Array(Buffer.from(id, "utf8"));
const transportsOf = (value: string | null) =>
  (value ? value.split(",").filter(Boolean) : undefined) as AuthenticatorTransport[] | undefined;

export async function passkeyRegistrationOptions(user: User, now = new Date()) {
  const db = await getDb();
  const existing = await db
    .select({ id: schema.passkeys.credentialId, transports: schema.passkeys.transports })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, user.id));
  const { rpID, rpName } = relyingParty();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userID: userIdBytes(user.id),
    userDisplayName: displayName(user),
    attestationType: "none",
    timeout: CHALLENGE_TTL_MS,
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: transportsOf(c.transports) })),
    // Resident keys make sign-in without typing the e-mail possible.
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(options.challenge, "register", user.id, now);
  return options;
}

type PasskeyResult<T> =
  ({ ok: true } & T) | { ok: false; status: 400 | 403 | 409; message: string; field?: "deviceName" };

export async function verifyPasskeyRegistration(
  user: User,
  body: { credential?: unknown; deviceName?: unknown },
  now = new Date(),
): Promise<PasskeyResult<{ passkey: PasskeyRow }>> {
  const deviceName = typeof body.deviceName === "string" ? body.deviceName.trim() : "";
  if (!deviceName) return { ok: false, status: 400, message: PASSKEY_MESSAGES.deviceName, field: "deviceName" };
  if (deviceName.length > 100)
    return { ok: false, status: 400, message: "Device name is too long", field: "deviceName" };
  const fail = { ok: false as const, status: 400 as const, message: PASSKEY_MESSAGES.registrationFailed };
  const challenge = challengeOf(body.credential);
  if (!challenge) return fail;
  const stored = await consumeChallenge(challenge, "register", now);
  if (!stored || stored.userId !== user.id) return fail;
  const { origin, rpID } = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: body.credential as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    return fail;
  }
  if (!verification.verified) return fail;
  const { credential } = verification.registrationInfo;
  const db = await getDb();
  const inserted = await db.transaction(async (tx) => {
    const rows = await tx
      .insert(schema.passkeys)
      .values({
        userId: user.id,
        credentialId: credential.id,
        credentialPublicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: credential.transports?.join(",") ?? null,
        deviceName,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (rows.length) {
      await recordAudit(tx, {
        actor: user,
        action: "auth.passkey_add",
        entityType: "passkey",
        entityId: rows[0].id,
        after: rows[0],
      });
    }
    return rows;
  });
  if (!inserted.length) return { ok: false, status: 409, message: PASSKEY_MESSAGES.duplicate };
  const row = inserted[0];
  return {
    ok: true,
    passkey: { id: row.id, deviceName: row.deviceName, createdAt: row.createdAt.toISOString(), lastUsedAt: null },
  };
}

/**
 * Options for signing in. With an e-mail, only that account's passkeys are offered; without
 * it, the browser offers any passkey it holds for this site (discoverable credentials). An
 * unknown e-mail gets the same answer as one without passkeys, so accounts cannot be probed.
 */
export async function passkeyAuthenticationOptions(email: unknown, now = new Date(), binding: string | null = null) {
  let userId: string | null = null;
  let allowCredentials: { id: string; transports?: AuthenticatorTransport[] }[] = [];
  if (typeof email === "string" && email.trim() && email.length <= 320 && !hasControlCharacters(email)) {
    const user = await getUserByEmail(email);
    if (user && user.status === "active") {
      const db = await getDb();
      const rows = await db
        .select({ id: schema.passkeys.credentialId, transports: schema.passkeys.transports })
        .from(schema.passkeys)
        .where(eq(schema.passkeys.userId, user.id));
      allowCredentials = rows.map((r) => ({ id: r.id, transports: transportsOf(r.transports) }));
      if (rows.length) userId = user.id;
    }
  }
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    allowCredentials,
    // The passkey is the only factor of this sign-in: the device must check who holds it.
    userVerification: "required",
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(options.challenge, "authenticate", userId, now, binding);
  return options;
}

/** A refused passkey sign-in: counted per address, and in the trail once per address and window. */
async function refused(user: User | null, reason: string) {
  const address = auditContext().clientAddress ?? "unknown";
  logEvent("info", { event: "signin.failure", method: "passkey", reason, userId: user?.id, address });
  if (await countPasskeyFailure(address)) await recordSignIn({ outcome: "failure", method: "passkey", user, reason });
}

/** Checks a signed challenge; on success the passkey's counter and last use are updated. */
export async function verifyPasskeyAuthentication(
  credentialInput: unknown,
  now = new Date(),
  binding: string | null = null,
): Promise<PasskeyResult<{ user: User }>> {
  const fail = { ok: false as const, status: 400 as const, message: PASSKEY_MESSAGES.authenticationFailed };
  const credential = credentialInput as AuthenticationResponseJSON | null;
  const challenge = challengeOf(credential);
  if (!challenge || !isBase64Url(credential?.id)) return fail;
  const stored = await consumeChallenge(challenge, "authenticate", now, binding);
  if (!stored) return fail;
  const db = await getDb();
  const [passkey] = await db.select().from(schema.passkeys).where(eq(schema.passkeys.credentialId, credential.id));
  // From here refusals reach the trail (decision 0900), only after a challenge was spent (those
  // come from the throttled options call), and only the first of each address in the throttle
  // window (decision 0600): the others are counted and logged, so no flood reaches the trail.
  if (!passkey) {
    await refused(null, "unknown-passkey");
    return fail;
  }
  const user = await getUserById(passkey.userId);
  if (!user || (stored.userId && stored.userId !== passkey.userId)) {
    await refused(user, "other-account");
    return fail;
  }
  if (user.status !== "active") {
    await refused(user, "inactive");
    return { ok: false, status: 403, message: PASSKEY_MESSAGES.inactive };
  }
  const { origin, rpID } = relyingParty();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.credentialPublicKey, "base64url")),
        counter: passkey.counter,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: true,
    });
  } catch {
    await refused(user, "signature");
    return fail;
  }
  if (!verification.verified) {
    await refused(user, "signature");
    return fail;
  }
  // Compare-and-set on the counter: a cloned authenticator racing the real one loses.
  const updated = await db
    .update(schema.passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
    .where(and(eq(schema.passkeys.id, passkey.id), eq(schema.passkeys.counter, passkey.counter)))
    .returning({ id: schema.passkeys.id });
  if (!updated.length) {
    await refused(user, "counter");
    return fail;
  }
  await recordSignIn({ outcome: "success", method: "passkey", user });
  return { ok: true, user };
}

// TOTP secrets are stored encrypted (AES-256-GCM) with a key from TOTP_ENCRYPTION_KEY: a copy
// of the database alone does not give anyone the codes. Stored form: "v1.<iv>.<tag>.<data>"
// (base64url). A value without the prefix is a secret stored before encryption and still reads.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { env } from "./env.server";

const PREFIX = "v1.";

function key() {
  // Any string works: it is stretched to 32 bytes. Use 32+ random bytes (openssl rand -base64 32).
  return createHash("sha256").update(env().TOTP_ENCRYPTION_KEY).digest();
}

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
}

export function openSecret(stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const [iv, tag, data] = stored
    .slice(PREFIX.length)
    .split(".")
    .map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", key(), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
}

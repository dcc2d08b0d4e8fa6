// What an uploaded photo is, read from its first bytes rather than from what the browser says
// (docs/decisions/1220): JPEG, PNG or WebP, at most 2 MB as stored.
import { createHash } from "node:crypto";
import { schema, type AttachmentType } from "~/db.server";

export const MAX_ATTACHMENT_BYTES = schema.MAX_ATTACHMENT_BYTES;

const starts = (bytes: Uint8Array, at: number, signature: readonly number[]) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

/** The image type of `bytes`, or null when they are not a JPEG, PNG or WebP. */
export function imageTypeOf(bytes: Uint8Array): AttachmentType | null {
  if (starts(bytes, 0, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  // "RIFF", four bytes of length, "WEBP".
  if (starts(bytes, 0, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, 8, [0x57, 0x45, 0x42, 0x50])) return "image/webp";
  return null;
}

export const PHOTO_TOO_LARGE = "The photo is larger than 2 MB";

/** What a request key covers of a photo: its digest, not its megabytes. Null for none. */
export const photoDigest = (bytes: Uint8Array | null) =>
  bytes ? createHash("sha256").update(bytes).digest("hex") : null;

/** Why `bytes` cannot be a ticket's photo, or null when they can. */
export function photoRefusal(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return "The photo is empty";
  if (bytes.length > MAX_ATTACHMENT_BYTES) return PHOTO_TOO_LARGE;
  if (!imageTypeOf(bytes)) return "The photo must be a JPEG, PNG or WebP image";
  return null;
}

/**
 * A photo sent inside JSON (the offline outbox's way): a data URL ("data:image/jpeg;base64,…")
 * or bare base64. Null when it is neither; its bytes are then checked by `photoRefusal`.
 */
export function photoFromDataUrl(value: string): Uint8Array | null {
  const match = /^(?:data:[\w/+.-]+;base64,)?([A-Za-z0-9+/]+={0,2})$/.exec(value.trim());
  if (!match) return null;
  // Base64 of 2 MB is under 2.8 million characters; anything longer is refused unread.
  if (match[1].length > Math.ceil((MAX_ATTACHMENT_BYTES * 4) / 3) + 4) return new Uint8Array(MAX_ATTACHMENT_BYTES + 1);
  return new Uint8Array(Buffer.from(match[1], "base64"));
}

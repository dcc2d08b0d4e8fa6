// The company logo (docs/decisions/0953): a small PNG or JPEG, recognised by its first bytes,
// never by the name or the type the browser claims.
export const LOGO_MAX_BYTES = 200 * 1024;
export const LOGO_TOO_LARGE = "The logo must be at most 200 KB";
const LOGO_NOT_IMAGE = "The logo must be a PNG or JPEG image";

export type LogoType = "image/png" | "image/jpeg";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, magic: number[]) =>
  bytes.length > magic.length && magic.every((b, i) => bytes[i] === b);

/** The image type of `bytes` by its signature, or null when it is neither PNG nor JPEG. */
function sniffLogoType(bytes: Uint8Array): LogoType | null {
  if (startsWith(bytes, PNG)) return "image/png";
  if (startsWith(bytes, JPEG)) return "image/jpeg";
  return null;
}

/** A logo upload checked: its type, or the message saying why it is refused. */
export function checkLogo(bytes: Uint8Array): { ok: true; type: LogoType } | { ok: false; message: string } {
  if (bytes.length > LOGO_MAX_BYTES) return { ok: false, message: LOGO_TOO_LARGE };
  const type = sniffLogoType(bytes);
  return type ? { ok: true, type } : { ok: false, message: LOGO_NOT_IMAGE };
}

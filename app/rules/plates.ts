// Truck plates (docs/decisions/1200): one plate however it is typed. "lag 123  xy", " LAG 123 XY "
// and "LAG-123-XY" are one truck. The shown plate keeps the driver's spacing and dashes (trimmed,
// runs of spaces made one, upper-cased); the key drops every space and dash and is what the
// register holds unique and searches by.

export const PLATE_MIN = 2;
export const PLATE_MAX = 20;

/** Letters A-Z (either case), digits, spaces and dashes: what a Nigerian plate is written with. */
const PLATE_CHARACTERS = /^[A-Za-z0-9 -]+$/;

/** The plate as the register and a delivery show it: "lag  123-xy " → "LAG 123-XY". */
export function plateShown(typed: string): string {
  return typed.trim().replace(/ {2,}/g, " ").toUpperCase();
}

/** What makes two plates one truck: "LAG 123-XY" → "LAG123XY". */
export function plateKey(plate: string): string {
  return plate.replace(/[ -]/g, "").toUpperCase();
}

/** The message for a plate that is not one, naming the field. */
export const plateRefusal = (label: string) =>
  `${label} must be ${PLATE_MIN} to ${PLATE_MAX} letters, digits, spaces or dashes (like LAG 123 XY)`;

/**
 * A typed plate read: its shown form and key, or null when it is not a plate (other characters,
 * fewer than 2 or more than 20 characters once trimmed, or no letter or digit at all).
 */
export function readPlate(typed: string): { plate: string; key: string } | null {
  const plate = plateShown(typed);
  if (plate.length < PLATE_MIN || plate.length > PLATE_MAX || !PLATE_CHARACTERS.test(plate)) return null;
  const key = plateKey(plate);
  return key.length > 0 ? { plate, key } : null;
}

/**
 * A search box's text as the start of a key ("kja 4" → "KJA4"), or null when nothing in it could
 * begin a plate (the list then shows no trucks rather than every one).
 */
export function plateKeyPrefix(typed: string): string | null {
  const key = plateKey(typed.trim());
  return key.length > 0 && key.length <= PLATE_MAX && /^[A-Z0-9]+$/.test(key) ? key : null;
}

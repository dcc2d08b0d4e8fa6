// WhatsApp numbers (docs/decisions/1260): stored in international form, +234 and ten digits. A
// local number as people write it (0803 123 4567) is taken and converted; spaces, dashes, dots
// and brackets are layout, not digits. Pure: the forms' schemas and the models use it alike.

export const WHATSAPP_MESSAGE =
  "Enter a Nigerian number: +234 and ten digits, or a local number of eleven digits starting with 0 (e.g. 0803 123 4567)";

/** The number in international form (+2348031234567), or null when it is not a Nigerian number. */
export function normalizeWhatsapp(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, "");
  let national: string | null = null;
  if (/^\+234\d{10}$/.test(compact)) national = compact.slice(4);
  else if (/^234\d{10}$/.test(compact)) national = compact.slice(3);
  else if (/^00234\d{10}$/.test(compact)) national = compact.slice(5);
  else if (/^0\d{10}$/.test(compact)) national = compact.slice(1);
  // A national number never starts with 0 (a trunk prefix typed twice: +234 0803…).
  if (national === null || national.startsWith("0")) return null;
  return `+234${national}`;
}

/** The number as wa.me wants it: international form without the +. */
export const waMeNumber = (international: string) => international.replace(/^\+/, "");

/** The click-to-chat address: opens WhatsApp (phone app, desktop app or web) with the message typed. */
export const whatsappUrl = (international: string, message: string) =>
  `https://wa.me/${waMeNumber(international)}?text=${encodeURIComponent(message)}`;

// New Delivery's loading ticket (docs/decisions/1220): read from `loadingTicket` of the JSON call
// (the phone's outbox sends it so) or from the form's `loadingTicket.*` boxes, checked before
// anything is written. Each refusal names its box (`loadingTicket.grossKg`), so the form and the
// outbox show it where it belongs; a ticket with no plate of its own takes Truck No.
import { photoDigest, photoFromDataUrl, photoRefusal } from "~/rules/images.server";
import { plateKey } from "~/rules/plates";
import { kgToTons } from "~/rules/weights";
import { safeParseFields } from "~/schemas/fields";
import { ticketRefusal, TicketFieldsSchema, type TicketInput } from "~/schemas/tickets";
import { fieldErrorsOf } from "~/utils/field-errors";
import { compare } from "~/utils/money";
import { LOADING_TICKET } from "~/utils/outbox-protocol";
import type { FieldErrors } from "~/utils/result";

export type LoadingTicket = {
  ticket: TicketInput & { kind: "loading" };
  /** The photo's bytes, checked (JPEG, PNG or WebP, at most 2 MB); null for none. */
  photo: Uint8Array | null;
  /** The net as tons, exact: what the delivery's tons become. */
  tons: string;
};

/** What a request key covers of a ticket: its fields as read, and the photo by its digest. */
export const ticketHash = ({ ticket, photo }: LoadingTicket) => ({
  ...ticket,
  photo: photoDigest(photo),
});

export const PHOTO_NOT_READ =
  "The photo must be a JPEG, PNG or WebP image, sent as a data URL (data:image/jpeg;base64,...) or base64";

/** The message when typed tons are not the ticket's net. */
export const tonsMismatchMessage = (tons: string) =>
  `Tons must match the loading ticket's net (${tons} t), or be left blank`;

const named = (name: string) => `${LOADING_TICKET}.${name}`;
const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

type Read = { ok: true; ticket: LoadingTicket | null } | { ok: false; fieldErrors: FieldErrors };

/**
 * The loading ticket of a new delivery, or null when none was given (absent, null, or every box
 * left blank). `truckNo` is the delivery's Truck No. as typed; `photo` may be bytes (the form's
 * file) or a data URL or base64 text (JSON).
 */
export function readLoadingTicket(value: unknown, truckNo: unknown): Read {
  if (value === undefined || value === null) return { ok: true, ticket: null };
  if (typeof value !== "object" || Array.isArray(value))
    return { ok: false, fieldErrors: { [LOADING_TICKET]: ["The loading ticket must be an object of its fields"] } };
  const given = value as Record<string, unknown>;
  if (Object.values(given).every(blank)) return { ok: true, ticket: null };

  const fieldErrors: FieldErrors = {};
  // The ticket's plate is Truck No. unless it names its own; a ticket with neither is told so
  // under Truck No., the box the form has.
  const ownPlate = !blank(given.truckNo);
  const parsed = safeParseFields(TicketFieldsSchema, {
    ...given,
    truckNo: ownPlate ? given.truckNo : typeof truckNo === "string" ? truckNo : "",
  });
  if (!parsed.success) {
    for (const [name, messages] of Object.entries(fieldErrorsOf(parsed.error).fieldErrors))
      fieldErrors[name === "truckNo" && !ownPlate ? "truckNo" : named(name)] = messages;
  }
  const photo = readPhoto(given.photo);
  if (typeof photo === "string") fieldErrors[named("photo")] = [photo];
  if (!parsed.success || typeof photo === "string") return { ok: false, fieldErrors };

  const ticket = { ...parsed.data, kind: "loading" as const };
  const refusal = ticketRefusal(ticket);
  if (refusal) return { ok: false, fieldErrors: { [named(refusal.field)]: [refusal.message] } };
  if (ownPlate && typeof truckNo === "string" && !blank(truckNo) && plateKey(truckNo) !== plateKey(ticket.truckNo))
    return { ok: false, fieldErrors: { [named("truckNo")]: ["The loading ticket's truck must be the Truck No."] } };
  return { ok: true, ticket: { ticket, photo, tons: kgToTons(ticket.grossKg - ticket.tareKg) } };
}

/** A photo's checked bytes, null for none, or why it cannot be one. */
function readPhoto(value: unknown): Uint8Array | null | string {
  if (blank(value)) return null;
  const bytes = value instanceof Uint8Array ? value : typeof value === "string" ? photoFromDataUrl(value) : null;
  if (!bytes) return PHOTO_NOT_READ;
  return photoRefusal(bytes) ?? bytes;
}

/**
 * Tons against the ticket: blank takes the ticket's net; typed, it must be that net. Without a
 * ticket, tons are required. Returns the tons to record, or the refusal under Tons.
 */
export function tonsWithTicket(
  tons: string | null | undefined,
  ticket: LoadingTicket | null,
): { ok: true; tons: string } | { ok: false; message: string } {
  if (!ticket) return tons ? { ok: true, tons } : { ok: false, message: "Tons is required" };
  if (tons && compare(tons, ticket.tons) !== 0) return { ok: false, message: tonsMismatchMessage(ticket.tons) };
  return { ok: true, tons: ticket.tons };
}

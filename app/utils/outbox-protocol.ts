// What the phone's outbox and POST /api/deliveries agree on (docs/decisions/1100-offline-capture.md).
// public/sw.js is not bundled: it repeats these values.

/** Whose outbox entry a send carries: the server refuses it under anyone else's session. */
export const OUTBOX_USER_HEADER = "X-Outbox-User";

/**
 * A correction's header: the keys of the sends it replaces (the entry it corrects, and what that
 * one replaced), comma-separated. The server refuses the correction when one of them landed,
 * and claims the others so that none can land after it (decision 1100).
 */
export const REPLACES_HEADER = "X-Replaces-Key";

/** At most this many keys in it: a longer chain of corrections names its newest ones. */
export const MAX_REPLACED_KEYS = 20;

/** The 401's message when the entry's person is not the one signed in. */
export const OTHER_USER_MESSAGE = "Signed in as someone else";

/** requireUser's 403 for /api while the password must change (app/utils/auth.server.ts). */
export const PASSWORD_CHANGE_MESSAGE = "You must change your password first";

/**
 * New Delivery's loading ticket (decision 1220): `loadingTicket` in the JSON call, and its boxes
 * named `loadingTicket.ticketNo`, `loadingTicket.grossKg`... on the form, so that a refusal of
 * either names the box it is about.
 */
export const LOADING_TICKET = "loadingTicket";
/** The ticket photo's box; with JavaScript the outbox keeps and sends it as a data URL. */
export const TICKET_PHOTO = `${LOADING_TICKET}.photo`;

/**
 * The JSON body of a delivery from its form's fields as named: the loading ticket's boxes
 * ("loadingTicket.ticketNo", ...) go into `loadingTicket` (decision 1220). The outbox keeps an
 * entry's fields as the form names them (Correct and resend puts them back) and sends this.
 */
export function deliveryBody<T>(fields: Record<string, T>) {
  const body: Record<string, T | Record<string, T>> = {};
  for (const [name, value] of Object.entries(fields)) {
    const [outer, inner] = name.split(".");
    if (inner) ((body[outer] ??= {}) as Record<string, T>)[inner] = value;
    else body[name] = value;
  }
  return body;
}

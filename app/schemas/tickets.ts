// A weighbridge ticket's fields (docs/decisions/1220): one schema for New Delivery's loading
// ticket, the manager's Record Ticket form and the JSON calls (`POST /api/deliveries/{id}/tickets`,
// `loadingTicket` of `POST /api/deliveries`). Kilograms are whole numbers; the net is never typed.
import * as z from "zod";
import { MAX_TICKET_KG } from "~/rules/weights";
import { compare } from "~/utils/money";
import { textRefusal } from "~/utils/text";
import { checked, constraintOf, formSchema, optionalDecimal, optionalText } from "./fields";
import { plateField, wholeKgFrom } from "./trucks";

export const TICKET_NO_MAX = 40;
export const TICKET_KIND_VALUES = ["loading", "received"] as const;

/** Whole kilograms from `min` to 200,000; a form may type thousands separators ("32,480"). */
function kgField(label: string, min: number) {
  const kg = z.unknown().transform((value, ctx): number => {
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
      ctx.addIssue({ code: "custom", message: `${label} is required` });
      return z.NEVER;
    }
    return wholeKgFrom(value, label, min, MAX_TICKET_KG, ctx);
  });
  return checked(kg, { required: true, min, max: MAX_TICKET_KG, step: 1 });
}

const ticketNo = checked(
  z.unknown().transform((value, ctx): string => {
    const text = typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "Ticket number is required" });
      return z.NEVER;
    }
    const refusal = textRefusal("Ticket number", text);
    if (refusal || text.length > TICKET_NO_MAX) {
      ctx.addIssue({ code: "custom", message: refusal ?? `Ticket number must be at most ${TICKET_NO_MAX} characters` });
      return z.NEVER;
    }
    // One number however it is typed: "t-0042" and "T-0042 " are one ticket.
    return text.replace(/\s+/g, " ").toUpperCase();
  }),
  { required: true, maxLength: TICKET_NO_MAX },
);

/** A moisture reading: percent, 0 to 100, at most two decimals; blank is none. */
const moisture = (() => {
  const field = optionalDecimal({ label: "Moisture", precision: 12 }).transform((value, ctx) => {
    if (value !== null && value !== undefined && compare(value, "100") > 0) {
      ctx.addIssue({ code: "custom", message: "Moisture must be between 0 and 100" });
      return z.NEVER;
    }
    return value ?? null;
  });
  return checked(field, { min: 0, max: 100, step: "0.01" });
})();

/**
 * When the truck was weighed: an instant with its offset ("2026-11-28T14:30:00Z"), or the local
 * time of a form's datetime box ("2026-11-28T14:30"), read in the business's time zone by the
 * model. Blank is none.
 */
const weighedAt = checked(
  z.unknown().transform((value, ctx): string | null => {
    if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return null;
    const text = typeof value === "string" ? value.trim() : "";
    const local = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text);
    const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
    if ((!local && !instant) || Number.isNaN(new Date(local ? text + "Z" : text).getTime())) {
      ctx.addIssue({ code: "custom", message: "Weighed at must be a date and time" });
      return z.NEVER;
    }
    return text;
  }),
  {},
);

/** A ticket as typed, without its kind (New Delivery's section is always a loading ticket). */
export const TicketFieldsSchema = z.object({
  ticketNo,
  truckNo: plateField("Truck No.", { required: true }),
  grossKg: kgField("Gross", 1),
  tareKg: kgField("Tare", 0),
  weighedAt,
  moisture,
});
export type TicketFields = z.infer<typeof TicketFieldsSchema>;

export const TicketSchema = TicketFieldsSchema.extend({
  kind: checked(
    z.unknown().transform((value, ctx) => {
      if (value === "loading" || value === "received") return value;
      ctx.addIssue({ code: "custom", message: 'Kind must be "loading" or "received"' });
      return z.NEVER;
    }),
    { required: true },
  ),
});
export type TicketInput = z.infer<typeof TicketSchema>;

/**
 * What a parsed ticket still breaks that no one field shows: gross not above tare (said under
 * gross), and a moisture reading on a loading ticket. Null when it is a ticket.
 */
export function ticketRefusal(ticket: Pick<TicketInput, "kind" | "grossKg" | "tareKg" | "moisture">) {
  if (ticket.grossKg <= ticket.tareKg) return { field: "grossKg", message: "Gross must be more than tare" } as const;
  if (ticket.kind === "loading" && ticket.moisture !== null)
    return { field: "moisture", message: "A moisture reading goes on the client's (received) ticket" } as const;
  return null;
}

export const TICKET_FORM_CONSTRAINT = constraintOf(TicketSchema);

/** The manager's Record Ticket form: the ticket, and the request key made when the form opened. */
export const RecordTicketFormSchema = formSchema(
  TicketSchema.extend({ idempotencyKey: optionalText("Request key", 200) }),
);

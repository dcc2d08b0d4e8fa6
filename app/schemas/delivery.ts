import * as z from "zod";
import {
  calendarDate,
  optionalDecimal,
  optionalId,
  optionalText,
  requiredId,
  requiredText,
  constraintOf,
  formSchema,
  type FormConstraint,
} from "./fields";
import { plateField } from "./trucks";
import { LOADING_TICKET } from "~/utils/outbox-protocol";
import { TicketFieldsSchema } from "./tickets";

const TONS = { label: "Tons", precision: 10, positive: true };
/** Tons are typed to the hundredth, at least one. */
const TONS_STEP = { min: 0.01, step: 0.01 };
const money = (label: string) => ({ label, precision: 12 });

export const NewDeliverySchema = z.object({
  date: calendarDate("Date", { required: false }),
  agentId: requiredId("Agent"),
  clientId: optionalId("Client"),
  // Required unless a loading ticket is given: its net is then the delivery's tons
  // (docs/decisions/1220; the write checks it, app/services/deliveries/loading-ticket.server.ts).
  tons: optionalDecimal(TONS),
  // A plate, read as the truck register reads it (docs/decisions/1200).
  truckNo: plateField("Truck No.", { required: false }),
  location: requiredText("Location", 200),
  remarks: optionalText("Remarks", 1000, { multiline: true }),
  logisticsCost: optionalDecimal(money("Logistics cost")),
  mobilizationPayment: optionalDecimal(money("Mobilization payment")),
  otherCosts: optionalDecimal(money("Other costs")),
  otherCostsDescription: optionalText("Other cost explanation", 500),
  idempotencyKey: optionalText("Request key", 200),
});
/** The New Delivery form. */
export const NewDeliveryFormSchema = formSchema(NewDeliverySchema);
/**
 * What the browser checks of New Delivery, read from the write's schema (decision 0820); the
 * loader sends it, so the page carries no zod for it. The form asks for the date the write
 * defaults, and with no max: a copy of the form cached on a phone would refuse today's date (the
 * server checks it).
 */
export const NEW_DELIVERY_FORM_CONSTRAINT: FormConstraint = /* @__PURE__ */ newDeliveryConstraint();

function newDeliveryConstraint(): FormConstraint {
  const own = constraintOf(NewDeliverySchema, { date: { required: true }, tons: TONS_STEP });
  // The loading ticket's boxes (docs/decisions/1220): the section is optional, so none is required
  // in the browser; the write says what a ticket it was given lacks. Its plate is Truck No.
  const ticket = constraintOf(TicketFieldsSchema, {}, ["truckNo", "moisture"]);
  for (const [name, { required: _required, ...rules }] of Object.entries(ticket))
    own[`${LOADING_TICKET}.${name}`] = rules;
  return own;
}
export type NewDeliveryInput = z.infer<typeof NewDeliverySchema>;

export const EditDeliverySchema = z.object({
  agentId: optionalId("Agent"),
  clientId: optionalId("Client"),
  buyingRate: optionalDecimal(money("Buying rate")),
  sellingRate: optionalDecimal(money("Selling rate")),
  logisticsCost: optionalDecimal(money("Logistics cost")),
  otherCosts: optionalDecimal(money("Other costs")),
  otherCostsDescription: optionalText("Other cost explanation", 500),
  mobilizationPayment: optionalDecimal(money("Mobilization payment")),
  // Admins only:
  date: calendarDate("Date", { required: false }),
  tons: optionalDecimal(TONS),
  location: optionalText("Location", 200),
});

/** The Edit Delivery form (empty boxes leave a field as it is). */
export const EditDeliveryFormSchema = formSchema(EditDeliverySchema);
/** Edit Delivery's browser checks, read from its schema: the admin's boxes are shown filled and required. */
export const EDIT_DELIVERY_FORM_CONSTRAINT: FormConstraint = /* @__PURE__ */ constraintOf(EditDeliverySchema, {
  date: { required: true },
  tons: { required: true, ...TONS_STEP },
  location: { required: true },
});

export const ADMIN_ONLY_FIELDS = ["date", "tons", "location"] as const;

export const DeliveryFiltersSchema = z.object({
  from: calendarDate("From", { required: false }).catch(undefined),
  to: calendarDate("To", { required: false }).catch(undefined),
  status: z.enum(["draft", "confirmed", "invoiced"]).optional().catch(undefined),
  agentId: optionalId("Agent").catch(undefined),
  // The profit report's drill-down (docs/decisions/1270): one client's or one pick-up site's deliveries.
  clientId: optionalId("Client").catch(undefined).optional(),
  site: z.string().trim().min(1).max(200).optional().catch(undefined),
  limit: z.coerce.number().int().min(1).max(500).optional().catch(undefined),
});
export type DeliveryFilters = z.infer<typeof DeliveryFiltersSchema>;

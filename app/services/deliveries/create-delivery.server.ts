// New Delivery (decision 1100): a delivery recorded as confirmed, with the buying rate, selling
// rate, offloading cost and haulage of the rate cards that apply to it, else System Settings'
// defaults, snapshotted with the cards' ids (docs/decisions/1230). A phone's outbox sends it under a request
// key (the Idempotency-Key header, or the form's own field) and, for a correction, the keys of
// the sends it replaces (X-Replaces-Key): those are refused when one of them landed, and none of
// them can land after it. Runs on the keyed write pipeline (decision 0805). A truck number new to
// the truck register is added to it with the delivery (decision 1200).
import { eq } from "drizzle-orm";
import { schema, type Delivery, type PayBasis, type Settings, type Tx } from "~/db.server";
import {
  deliveryClientOf,
  getDeliveryClient,
  getDeliveryRow,
  toView,
  type DeliveryView,
  type Viewer,
} from "~/models/delivery.server";
import { resolveCards, sharedCardLocks, withDefaults } from "~/models/rate-card.server";
import { getSettings } from "~/models/settings.server";
import { writeTicket } from "~/models/ticket.server";
import { registerPlate } from "~/models/truck.server";
import { NewDeliverySchema, type NewDeliveryInput } from "~/schemas/delivery";
import { safeParseFields } from "~/schemas/fields";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { env } from "~/utils/env.server";
import { fieldErrorsOf } from "~/utils/field-errors";
import {
  IdempotencyConflict,
  isUsableKey,
  ReplacedSendLanded,
  replacedKeysOf,
  requestHash,
} from "~/utils/idempotency.server";
import { mul, toFixed } from "~/utils/money";
import { LOADING_TICKET } from "~/utils/outbox-protocol";
import { siteKey } from "~/rules/rate-cards";
import { fail, failOn, Refusal, type Failure, type FieldErrors } from "~/utils/result";
import { readLoadingTicket, ticketHash, tonsWithTicket, type LoadingTicket } from "./loading-ticket.server";

/** A replay of a delivery the office has since deleted (a phone's outbox shows it under "needs attention"). */
export const RECORDED_THEN_DELETED =
  "This delivery was recorded, then deleted in the office. Check with the office before sending it again.";

/** A key that landed with other fields than these (an earlier version of the app, or an edit since). */
export const landedUnderKeyMessage = (id: string) =>
  `A delivery was already recorded under this request (delivery ${id}). Check the Deliveries list before sending it again.`;

/** A correction whose delivery's earlier send landed after all (X-Replaces-Key). */
export const replacedSendLandedMessage = (id: string) =>
  `An earlier send of this delivery was recorded after all (delivery ${id}), so this correction was not. Check the Deliveries list, and edit delivery ${id} there if it needs correcting.`;

export type CreateResult = { ok: true; delivery: DeliveryView; replayed: boolean } | Failure;

type Fields = Omit<NewDeliveryInput, "idempotencyKey">;
type Input = {
  /** The fields as sent: what the request key covers, with the loading ticket. */
  fields: Fields;
  /** The loading ticket given with the delivery, or null. */
  ticket: LoadingTicket | null;
  /** The tons to record: as typed, or the loading ticket's net. */
  tons: string;
  date: string;
  settings: Settings;
  /** Without a chosen client, the fixed delivery client. */
  fixed: Awaited<ReturnType<typeof getDeliveryClient>> | null;
};

/** The request's key (the header's, else the form's) and the keys of the sends it replaces. */
type RequestKeys = { key: string | null | undefined; replaced: string[] | null };

/** What `lock` read: the delivery's client and its agent's pay basis of this moment. */
type Locked = { clientId: number; payBasis: PayBasis };

const createDeliveryCommand = ({ key, replaced }: RequestKeys): KeyedCommand<Input, Locked, { id: number }> => ({
  capability: "delivery.create",
  object: () => "deliveries",
  scope: "delivery.create",
  async parse({ [LOADING_TICKET]: loadingTicket, ...input }, { today }) {
    // The delivery's fields and its ticket's are read together, so one answer names every box.
    const parsed = safeParseFields(NewDeliverySchema, input);
    const read = readLoadingTicket(loadingTicket, input.truckNo);
    const fieldErrors: FieldErrors = {
      ...(parsed.success ? {} : fieldErrorsOf(parsed.error).fieldErrors),
      ...(read.ok ? {} : read.fieldErrors),
    };
    if (parsed.success && read.ok) {
      const tons = tonsWithTicket(parsed.data.tons, read.ticket);
      if (!tons.ok) fieldErrors.tons = [tons.message];
    }
    if (!parsed.success || !read.ok || Object.keys(fieldErrors).length) {
      const [message] = Object.values(fieldErrors).flat();
      return fail(400, message ?? "Invalid input", fieldErrors);
    }
    if (key !== undefined && key !== null && !isUsableKey(key)) return fail(400, "The request key is not valid", {});
    if (!replaced) return fail(400, "The keys this request replaces are not valid", {});
    const { idempotencyKey: _key, ...fields } = parsed.data;
    const ticket = read.ticket;
    // The rates of this moment, and without a client the fixed delivery client, read now (outside
    // the transaction: on PGlite a second query beside it would wait for it).
    const settings = await getSettings();
    const fixed = fields.clientId == null ? await getDeliveryClient(settings) : null;
    const date = fields.date ?? today;
    const badDate = businessDateRefusal("Date", date, today, 1);
    if (badDate) return failOn(400, "date", badDate);
    // With a ticket its plate is the delivery's Truck No. (typed there or on the ticket).
    if (ticket) fields.truckNo = ticket.ticket.truckNo;
    const tons = ticket ? ticket.tons : fields.tons!;
    return { ok: true, data: { fields, ticket, tons, date, settings, fixed } };
  },
  // The key is claimed before anything is checked against the data of this moment: a phone's
  // resend of a delivery that landed replays it even when the fixed client, or anything else it
  // was checked against, has changed since (decision 1100).
  // A delivery without a ticket hashes as it always has, so keys claimed before tickets replay.
  hash: ({ fields, ticket }) => (ticket ? { ...fields, [LOADING_TICKET]: ticketHash(ticket) } : fields),
  // Keys claimed by earlier versions hashed the fixed client's id in with the request (the client
  // the delivery went to); they are honoured while they last (90 days).
  async earlier(tx, { fields }, id) {
    const [landed] = await tx
      .select({ clientId: schema.deliveries.clientId })
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, Number(id)));
    return fields.clientId == null && landed ? [requestHash({ ...fields, clientId: landed.clientId })] : [];
  },
  // What the key made is read back after the transaction (createDelivery), as a new delivery is.
  replay: async (_tx, resourceId) => ({ id: Number(resourceId) }),
  async lock(tx, { fields, fixed }) {
    const clientId = await deliveryClientOf(tx, fields.clientId ?? null, fixed);
    // The agent's pay basis of this moment is the delivery's, as its rates are (decision 1220).
    const [agent] = await tx
      .select({ payBasis: schema.agents.payBasis })
      .from(schema.agents)
      .where(eq(schema.agents.id, fields.agentId));
    if (!agent) refuseWith(failOn(400, "agentId", "Agent not found"));
    return { clientId, payBasis: agent.payBasis };
  },
  landsOn: ({ date }) => date,
  async write(tx, { fields, ticket, tons, date, settings }, { clientId, payBasis }, { actor }) {
    // The truck's plate joins the register if it is new, in this transaction (docs/decisions/1200);
    // the delivery keeps the plate as the register shows it.
    const truck = fields.truckNo ? await registerPlate(tx, fields.truckNo, actor.id) : null;
    const rates = await pricesOf(
      tx,
      { date, clientId, agentId: fields.agentId, location: fields.location, tons },
      settings,
    );
    const [created] = await tx
      .insert(schema.deliveries)
      .values({
        date,
        agentId: fields.agentId,
        clientId,
        tons,
        payBasis,
        truckNo: truck?.truck.plate ?? null,
        location: fields.location,
        remarks: fields.remarks ?? null,
        status: "confirmed" as const,
        createdBy: actor.id,
        ...rates,
        logisticsCost: fields.logisticsCost ?? rates.logisticsCost,
        logisticsCostSource: fields.logisticsCost ? "typed" : rates.logisticsCostSource,
        haulageCardId: fields.logisticsCost ? null : rates.haulageCardId,
        mobilizationPayment: fields.mobilizationPayment ?? null,
        otherCosts: fields.otherCosts ?? null,
        otherCostsDescription: fields.otherCostsDescription ?? null,
      })
      .returning();
    const written = ticket ? await writeLoadingTicket(tx, created, ticket, actor.id) : [];
    return {
      made: { id: created.id },
      resourceId: created.id,
      audit: [
        { action: "delivery.create", entityType: "delivery", entityId: created.id, after: created },
        ...(truck?.created
          ? [
              {
                action: "truck.create" as const,
                entityType: "truck" as const,
                entityId: truck.created.id,
                after: truck.created,
              },
            ]
          : []),
        ...written,
      ],
    };
  },
  // The key landed (or one this correction replaces did): whoever sees this must not send the
  // delivery again under a new key.
  async keyFailure(error) {
    const landed =
      error instanceof ReplacedSendLanded
        ? { id: error.resourceId, status: 409 as const, message: replacedSendLandedMessage }
        : error instanceof IdempotencyConflict && error.resourceId
          ? { id: error.resourceId, status: 422 as const, message: landedUnderKeyMessage }
          : null;
    if (!landed) return null;
    if (!(await getDeliveryRow(Number(landed.id)))) return fail(409, RECORDED_THEN_DELETED);
    return fail(landed.status, landed.message(landed.id));
  },
});

/**
 * The rates a new delivery copies (docs/decisions/1230): each kind's card that applies to it, else
 * System Settings' default, with the card's id and the source; haulage (no default) becomes the
 * logistics cost, rate × the loaded tons as finally recorded (the loading ticket's net when it has
 * one). Read under the cards' shared locks, so no card it read is deleted before the delivery lands.
 */
async function pricesOf(
  tx: Tx,
  delivery: { date: string; clientId: number; agentId: number; location: string; tons: string },
  settings: Settings,
) {
  await tx.execute(sharedCardLocks());
  const cards = await resolveCards({ ...delivery, siteKey: siteKey(delivery.location) || null }, tx);
  const applied = withDefaults(cards, settings);
  const source = (kind: "buying" | "selling" | "offloading") => applied[kind].source ?? "default";
  return {
    buyingRate: applied.buying.rate,
    buyingRateCardId: applied.buying.cardId,
    buyingRateSource: source("buying"),
    sellingRate: applied.selling.rate,
    sellingRateCardId: applied.selling.cardId,
    sellingRateSource: source("selling"),
    offloadingCost: applied.offloading.rate,
    offloadingCostCardId: applied.offloading.cardId,
    offloadingCostSource: source("offloading"),
    logisticsCost: cards.haulage ? toFixed(mul(cards.haulage.rate, delivery.tons)) : null,
    haulageCardId: cards.haulage?.id ?? null,
    logisticsCostSource: cards.haulage ? ("card" as const) : null,
  };
}

/**
 * The loading ticket on the delivery just inserted, in its transaction. A refusal (a number the
 * pick-up site's weighbridge has on another delivery) names the form's box for that field.
 */
async function writeLoadingTicket(tx: Tx, delivery: Delivery, { ticket, photo }: LoadingTicket, actorId: string) {
  try {
    const { audit } = await writeTicket(tx, delivery, { ticket, photo, actorId, timeZone: env().APP_TIME_ZONE });
    return audit;
  } catch (error) {
    if (!(error instanceof Refusal) || !error.failure.fieldErrors) throw error;
    const fieldErrors = Object.fromEntries(
      Object.entries(error.failure.fieldErrors).map(([name, messages]) => [`${LOADING_TICKET}.${name}`, messages]),
    );
    throw new Refusal({ ...error.failure, fieldErrors });
  }
}

/**
 * Records a delivery as confirmed. With a request key, a repeat of the same submission answers
 * the first delivery and records nothing new; a phone's correction names the keys of the sends
 * it replaces (`replacesKeys`, the X-Replaces-Key header).
 */
export async function createDelivery(
  viewer: Viewer,
  input: Record<string, unknown>,
  {
    idempotencyKey,
    replacesKeys,
    now = new Date(),
  }: { idempotencyKey?: string | null; replacesKeys?: string | null } & Pick<KeyOptions, "now"> = {},
): Promise<CreateResult> {
  const field = NewDeliverySchema.shape.idempotencyKey.safeParse(input.idempotencyKey);
  const key = idempotencyKey ?? (field.success ? field.data : undefined);
  const keys: RequestKeys = { key, replaced: replacedKeysOf(replacesKeys, key) };
  const result = await keyedWrite(createDeliveryCommand(keys), viewer, input, {
    idempotencyKey: isUsableKey(key) ? key : undefined,
    replacesKeys: keys.replaced ?? [],
    now,
  });
  if (!result.ok) return result;
  const row = await getDeliveryRow(result.id);
  if (!row) return fail(409, RECORDED_THEN_DELETED);
  return { ok: true, delivery: toView(row, viewer.role), replayed: result.replayed };
}

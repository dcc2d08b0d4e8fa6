// Changing and deleting a delivery (decision 0100): managers and admins change agent, client,
// rates and costs, admins also date, tons and location; an invoiced delivery keeps its tons,
// rates and client, and its invoice's profit follows its costs (decision 0300); nothing in a
// closed month changes (decision 0901). A delivery's weighbridge tickets set its loaded and
// received weights, and a received ticket ties it to its client (docs/decisions/1220): those
// change only by recording a ticket. Reads and creation live in delivery.server.ts.
import { eq } from "drizzle-orm";
import { getDb, schema, type Tx } from "~/db.server";
import { ADMIN_ONLY_FIELDS, EditDeliverySchema } from "~/schemas/delivery";
import { safeParseFields } from "~/schemas/fields";
import { fieldErrorsOf } from "~/utils/field-errors";
import { fail, type Failure } from "~/utils/result";
import { can, refuse } from "~/rules/capabilities.server";
import { isInvoiced } from "~/rules/deliveries.server";
import { todayIn } from "~/utils/dates";
import { businessDateRefusal } from "~/utils/business-dates";
import { env } from "~/utils/env.server";
import { denied } from "~/utils/request-scope.server";
import { recordAudit } from "./audit.server";
import { followDeliveryCosts } from "./invoice-profit.server";
import { checkPeriodOpen } from "./period.server";
import { compare, isDecimalString } from "~/utils/money";
import { shortageTonsOf } from "~/rules/weights";
import { agentExists, clientExists, getDeliveryRow, toView, type DeliveryView, type Viewer } from "./delivery.server";
import { hasTicket } from "./ticket.server";

export type UpdateResult = { ok: true; delivery: DeliveryView } | Failure;

/** What an invoiced delivery keeps: the form shows these read-only and the server refuses a change. */
export const INVOICED_LOCKED = ["tons", "buyingRate", "sellingRate", "clientId"] as const;

/** The costs an invoiced delivery may still change; its invoice's profit follows them (decision 0300). */
const COST_FIELDS = ["logisticsCost", "otherCosts"] as const;

/** Each rate a manager may change, and the column saying where it came from (docs/decisions/1230). */
const RATE_SOURCE_COLUMNS = {
  buyingRate: "buyingRateSource",
  sellingRate: "sellingRateSource",
  offloadingCost: "offloadingCostSource",
  logisticsCost: "logisticsCostSource",
} as const;

async function lockInvoice(tx: Tx, invoiceId: number) {
  const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
  return invoice ?? null;
}

/**
 * The weights a delivery's tickets set and the view shows (docs/decisions/1220), with what to
 * say when a PATCH sends one of them changed: they change only by recording a ticket.
 */
const TICKET_WEIGHTS = {
  receivedTons: "Received tons come from the client's ticket: record a ticket instead",
  acceptedTons: "Accepted tons are the received tons less the quality deduction: record a ticket instead",
  shortageTons: "The shortage is the loaded less the received tons: record a ticket instead",
  moisture: "Moisture comes from the client's ticket: record a ticket instead",
  qualityDeductionTons:
    "The quality deduction comes from the client's ticket and quality rule: record a ticket instead",
} as const;

export const LOADING_TICKET_TONS_MESSAGE =
  "This delivery's tons come from its loading ticket: record a new ticket instead";
export const RECEIVED_TICKET_CLIENT_MESSAGE =
  "This delivery has its client's ticket, from that client's weighbridge: its client can no longer change";

/** The same value as stored: "10" is the stored "10.00" (a PATCH may resend it unchanged). */
function sameValue(sent: unknown, stored: unknown) {
  const a = String(sent ?? "");
  const b = String(stored ?? "");
  if (a === b) return true;
  return isDecimalString(a) && isDecimalString(b) && compare(a, b) === 0;
}

/**
 * Tons with a kilogram digit ("30.551", a loading ticket's net) are never typed (two decimals
 * are, docs/decisions/1220), but a client that edits what it read sends them back: unchanged,
 * they are no change, not a refusal. Stored values are three-decimal, so "30.550" is checked too.
 */
async function withoutUnchangedKilogramTons(id: number, input: Record<string, unknown>) {
  const sent = typeof input.tons === "string" || typeof input.tons === "number" ? String(input.tons).trim() : "";
  if (!/^\d+\.\d{3}$/.test(sent)) return input;
  const db = await getDb();
  const [row] = await db
    .select({ tons: schema.deliveries.tons })
    .from(schema.deliveries)
    .where(eq(schema.deliveries.id, id));
  if (!row || !sameValue(sent, row.tons)) return input;
  const { tons: _unchanged, ...rest } = input;
  return rest;
}

/**
 * Managers and admins edit agent, client, rates and costs; only admins change date, tons and
 * location. An invoiced delivery keeps its tons, rates and client.
 */
export async function updateDelivery(
  viewer: Viewer,
  id: number,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<UpdateResult> {
  const refused = refuse(
    viewer,
    "delivery.financials",
    `delivery/${id}`,
    "You do not have permission to edit deliveries",
  );
  if (refused) return refused;
  input = await withoutUnchangedKilogramTons(id, input);
  const parsed = safeParseFields(EditDeliverySchema, input);
  if (!parsed.success) return { ok: false, status: 400, ...fieldErrorsOf(parsed.error) };
  const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined)) as Partial<
    Record<string, string | number | null>
  >;
  if (!can(viewer, "delivery.admin")) {
    const forbidden = ADMIN_ONLY_FIELDS.filter((f) => f in changes);
    if (forbidden.length)
      return denied(viewer, `delivery/${id}`, "Only admins can change the date, tons or location of a delivery");
  }
  if (changes.tons === null || changes.location === null || changes.date === null || changes.agentId === null) {
    return { ok: false, status: 400, message: "Date, tons, location and agent cannot be empty" };
  }
  if (typeof changes.date === "string") {
    const badDate = businessDateRefusal("Date", changes.date, todayIn(env().APP_TIME_ZONE, now), 1);
    if (badDate) return fail(400, badDate, { date: [badDate] });
  }
  if (typeof changes.agentId === "number" && !(await agentExists(changes.agentId))) {
    return { ok: false, status: 400, message: "Agent not found", fieldErrors: { agentId: ["Agent not found"] } };
  }
  if (typeof changes.clientId === "number" && !(await clientExists(changes.clientId))) {
    return { ok: false, status: 400, message: "Client not found", fieldErrors: { clientId: ["Client not found"] } };
  }

  const db = await getDb();
  const result = await db.transaction(async (tx): Promise<Failure | null> => {
    // An invoiced delivery's invoice is locked before the delivery, the order a void takes them
    // in (the invoice, then its deliveries): its profit follows the delivery's costs.
    const [seen] = await tx
      .select({ invoiceId: schema.deliveries.invoiceId })
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, id));
    if (!seen) return { ok: false, status: 404, message: "Delivery not found" };
    const invoice = seen.invoiceId === null ? null : await lockInvoice(tx, seen.invoiceId);
    const [current] = await tx.select().from(schema.deliveries).where(eq(schema.deliveries.id, id)).for("update");
    if (!current) return { ok: false, status: 404, message: "Delivery not found" };
    if (current.invoiceId !== seen.invoiceId) {
      return { ok: false, status: 409, message: "This delivery's invoice changed meanwhile: reload it and try again" };
    }
    // A ticket's weights are sent back unchanged by a client that edits what it read; a change is refused.
    const stored = { ...current, shortageTons: shortageTonsOf(current) };
    const changed = (Object.keys(TICKET_WEIGHTS) as (keyof typeof TICKET_WEIGHTS)[]).filter(
      (f) => f in input && !sameValue(input[f], stored[f]),
    );
    if (changed.length) {
      const fieldErrors = Object.fromEntries(changed.map((f) => [f, [TICKET_WEIGHTS[f]]]));
      return fail(400, TICKET_WEIGHTS[changed[0]], fieldErrors);
    }
    if (changes.tons !== undefined && !sameValue(changes.tons, current.tons) && (await hasTicket(tx, id, "loading"))) {
      return fail(409, LOADING_TICKET_TONS_MESSAGE, { tons: [LOADING_TICKET_TONS_MESSAGE] });
    }
    if (
      changes.clientId !== undefined &&
      !sameValue(changes.clientId, current.clientId) &&
      current.receivedTons !== null
    ) {
      return fail(409, RECEIVED_TICKET_CLIENT_MESSAGE, { clientId: [RECEIVED_TICKET_CLIENT_MESSAGE] });
    }
    if (isInvoiced(current)) {
      const locked = INVOICED_LOCKED.filter((f) => f in changes && !sameValue(changes[f], current[f]));
      if (locked.length) {
        return {
          ok: false,
          status: 409,
          message: "This delivery is invoiced: its tons, rates and client can no longer change",
        };
      }
    }
    // Nothing dated in a closed month changes: neither where it was nor where it would go, nor
    // the profit of an invoice issued in one.
    const costsChange = invoice !== null && COST_FIELDS.some((f) => f in changes && !sameValue(changes[f], current[f]));
    const closed = await checkPeriodOpen(
      tx,
      current.date,
      typeof changes.date === "string" ? changes.date : null,
      costsChange ? invoice.issueDate : null,
    );
    if (closed) return closed;
    if (Object.keys(changes).length === 0) return null;
    // A rate changed by hand says so: its source becomes "override" (docs/decisions/1230).
    const overridden = Object.fromEntries(
      Object.entries(RATE_SOURCE_COLUMNS)
        .filter(([f]) => f in changes && !sameValue(changes[f], current[f as keyof typeof RATE_SOURCE_COLUMNS]))
        .map(([, column]) => [column, "override" as const]),
    );
    const [after] = await tx
      .update(schema.deliveries)
      .set({ ...(changes as Partial<typeof schema.deliveries.$inferInsert>), ...overridden, updatedAt: new Date() })
      .where(eq(schema.deliveries.id, id))
      .returning();
    await recordAudit(tx, {
      actor: viewer,
      action: "delivery.update",
      entityType: "delivery",
      entityId: id,
      before: current,
      after,
    });
    if (costsChange && invoice.paymentStatus !== "void") await followDeliveryCosts(tx, viewer, invoice, id);
    return null;
  });
  if (result) return result;
  const row = await getDeliveryRow(id);
  return { ok: true, delivery: toView(row!, viewer.role) };
}

export async function deleteDelivery(viewer: Viewer, id: number): Promise<{ ok: true } | Failure> {
  const refused = refuse(viewer, "delivery.admin", `delivery/${id}`, "Only admins can delete deliveries");
  if (refused) return refused;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(schema.deliveries).where(eq(schema.deliveries.id, id)).for("update");
    if (!current) return { ok: false as const, status: 404 as const, message: "Delivery not found" };
    if (isInvoiced(current)) {
      return { ok: false as const, status: 409 as const, message: "This delivery is invoiced and cannot be deleted" };
    }
    const closed = await checkPeriodOpen(tx, current.date);
    if (closed) return closed;
    await tx.delete(schema.deliveries).where(eq(schema.deliveries.id, id));
    // The delivery's last state stays in the trail.
    await recordAudit(tx, {
      actor: viewer,
      action: "delivery.delete",
      entityType: "delivery",
      entityId: id,
      before: current,
    });
    return { ok: true as const };
  });
}

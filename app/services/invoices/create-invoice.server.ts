// Create Invoice (decision 0300): one invoice for one confirmed delivery with a client (the
// Generate Invoice dialog, POST /api/invoices), not waiting for its client's ticket (decision 1220). Every figure is read from the database; the
// delivery row is locked, so two requests for one delivery queue and the second is told it is
// invoiced. Runs on the keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type Delivery, type Invoice, type Tx } from "~/db.server";
import { eligibleById, insertInvoice, type EligibleRow } from "~/models/invoice.server";
import type { Actor } from "~/rules/capabilities.server";
import { isEligibleForInvoice, isInvoiced, waitsForReceivedTicket } from "~/rules/deliveries.server";
import { CreateInvoiceSchema } from "~/schemas/invoice";
import { parseFields } from "~/schemas/parse-fields.server";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { fail, type Failure } from "~/utils/result";

type Input = z.output<typeof CreateInvoiceSchema>;

export type CreateInvoiceResult = { ok: true; invoice: Invoice; replayed: boolean } | Failure;

const createInvoiceCommand: KeyedCommand<Input, EligibleRow, { invoice: Invoice }> = {
  capability: "invoice.manage",
  object: (input) => `delivery/${String(input.deliveryId ?? "")}/invoice`,
  scope: "invoice.create",
  parse: (input) => parseFields(CreateInvoiceSchema, input),
  hash: ({ deliveryId, invoiceNo }) => ({ deliveryId, invoiceNo }),
  async replay(tx, resourceId) {
    const [invoice] = await tx
      .select()
      .from(schema.invoices)
      .where(eq(schema.invoices.id, Number(resourceId)));
    return { invoice: invoice ?? refuseWith(fail(409, "This invoice was already created")) };
  },
  // The delivery's row, then (inside the invoice's insert) the counter, the tax row and the
  // kept totals (decision 0995, "Lock order").
  async lock(tx, { deliveryId }) {
    const [locked] = await tx
      .select()
      .from(schema.deliveries)
      .where(eq(schema.deliveries.id, deliveryId))
      .for("update");
    if (!locked) refuseWith(fail(404, "Delivery not found"));
    return (await eligibleById(tx, deliveryId)) ?? refuseWith(fail(409, await notEligible(tx, locked)));
  },
  // The invoice is dated today; it also changes its delivery (to invoiced) and counts in its
  // month's reconciliation: neither date may be in a closed month (decision 0901).
  landsOn: (_input, row, { today }) => [today, row.date],
  async write(tx, { invoiceNo }, row, { actor, now, today }) {
    const { invoice, audit } = await insertInvoice(tx, [row], actor, {
      issueDate: today,
      createdAt: now,
      requestedNo: invoiceNo,
    });
    return { made: { invoice }, resourceId: invoice.id, audit: [audit] };
  },
};

/** Why a delivery cannot be invoiced now: invoiced, not confirmed or without a client, or waiting for its client's ticket. */
async function notEligible(tx: Tx, delivery: Delivery): Promise<string> {
  if (isInvoiced(delivery)) return "This delivery has already been invoiced";
  if (!isEligibleForInvoice(delivery)) return "Only confirmed deliveries with a client can be invoiced";
  const [client] = await tx
    .select({ name: schema.clients.name, requiresReceivedTicket: schema.clients.requiresReceivedTicket })
    .from(schema.clients)
    .where(eq(schema.clients.id, delivery.clientId!));
  return client && waitsForReceivedTicket(delivery, client)
    ? waitsForTicketMessage(delivery.id, client.name)
    : "Only confirmed deliveries with a client can be invoiced";
}

/** The refusal of a delivery whose client invoices only on its own weighbridge ticket (docs/decisions/1220). */
export const waitsForTicketMessage = (deliveryId: number, clientName: string) =>
  `Delivery ${deliveryId} waits for the client's ticket: ${clientName} is invoiced only once its weighbridge ticket is recorded`;

/**
 * One invoice for one confirmed delivery with a client. `now` is the clock of its issue (its time
 * and business date): the server's own unless a seed or a test issues it at another moment.
 */
export function createInvoiceForDelivery(
  user: Actor,
  input: { deliveryId?: unknown; invoiceNo?: unknown },
  { idempotencyKey, now }: Pick<KeyOptions, "idempotencyKey" | "now"> = {},
): Promise<CreateInvoiceResult> {
  return keyedWrite(createInvoiceCommand, user, input, { idempotencyKey, now });
}

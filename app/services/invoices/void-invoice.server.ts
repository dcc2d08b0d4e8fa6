// Void Invoice (docs/decisions/0920): only an invoice nothing has settled. Its number stays
// taken and its deliveries go back to confirmed (invoice_lines keeps what it covered). The
// invoice row lock queues a void behind any payment or credit note being recorded. Runs on the
// keyed write pipeline (decision 0805); the dialog and the API send no request key, so it skips
// only the claim.
import { eq, sql } from "drizzle-orm";
import type * as z from "zod";
import { schema, type Invoice } from "~/db.server";
import { idSpan, idSpanFields, type IdSpan } from "~/models/audit.server";
import { ALREADY_VOID, settlementEntries, VOID_HAS_SETTLEMENTS } from "~/models/invoice.server";
import type { Actor } from "~/rules/capabilities.server";
import { isVoid, settledOf } from "~/rules/invoices.server";
import { VoidInvoiceSchema } from "~/schemas/invoice";
import { parseFields } from "~/schemas/parse-fields.server";
import { keyedWrite, refuseWith, type KeyedCommand } from "~/services/keyed-write.server";
import { compare } from "~/utils/money";
import { fail, type Result } from "~/utils/result";

type Input = z.output<typeof VoidInvoiceSchema>;
/** The invoice, and the earliest date of the deliveries it frees (null when it has none). */
type Locked = { invoice: Invoice; earliest: string | null };
/** How many deliveries a void freed, and the lowest and highest id (its invoice_lines list them). */
type Voided = { invoice: Invoice; freedDeliveries: IdSpan };

export type VoidInvoiceResult = Result<Voided>;

const voidInvoiceCommand: KeyedCommand<Input, Locked, Voided> = {
  capability: "invoice.void",
  object: (input) => `invoice/${String(input.invoiceId ?? "")}/void`,
  scope: "invoice.void",
  parse: (input) => parseFields(VoidInvoiceSchema, input),
  hash: ({ invoiceId, reason }) => ({ invoiceId, reason }),
  async replay(tx, _resourceId, { invoiceId }) {
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
    if (!invoice) refuseWith(fail(409, ALREADY_VOID));
    const lines = await tx
      .select({ id: schema.invoiceLines.deliveryId })
      .from(schema.invoiceLines)
      .where(eq(schema.invoiceLines.invoiceId, invoiceId));
    return { invoice, freedDeliveries: idSpan(lines.map((l) => l.id)) };
  },
  async lock(tx, { invoiceId }) {
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
    if (!invoice) refuseWith(fail(404, "Invoice not found"));
    const [earliest] = await tx
      .select({ date: sql<string | null>`min(${schema.deliveries.date})::text` })
      .from(schema.deliveries)
      .where(eq(schema.deliveries.invoiceId, invoiceId));
    return { invoice, earliest: earliest?.date ?? null };
  },
  // The invoice's date and its deliveries' dates (they go back to confirmed): none may be in a
  // closed month (decision 0901).
  landsOn: (_input, { invoice, earliest }) => (earliest ? [invoice.issueDate, earliest] : invoice.issueDate),
  async check(tx, { invoiceId }, { invoice }) {
    if (isVoid(invoice)) refuseWith(fail(409, ALREADY_VOID));
    const settlements = await settlementEntries(invoiceId, tx);
    if (settlements.payments > 0 || settlements.credits > 0 || compare(settledOf(invoice), "0") !== 0)
      refuseWith(fail(409, VOID_HAS_SETTLEMENTS));
  },
  async write(tx, { invoiceId, reason }, { invoice }, { actor, now }) {
    const [voided] = await tx
      .update(schema.invoices)
      .set({ paymentStatus: "void", voidReason: reason, voidedAt: now, voidedBy: actor.id, updatedAt: now })
      .where(eq(schema.invoices.id, invoiceId))
      .returning();
    const freed = await tx
      .update(schema.deliveries)
      .set({ status: "confirmed", invoiceId: null, updatedAt: now })
      .where(eq(schema.deliveries.invoiceId, invoiceId))
      .returning({ id: schema.deliveries.id });
    // One event for the void: how many deliveries it freed and the first and last id (a month's
    // invoice frees thousands; its invoice_lines keep the list).
    const freedDeliveries = idSpan(freed.map((d) => d.id));
    return {
      made: { invoice: voided, freedDeliveries },
      resourceId: invoiceId,
      audit: [
        {
          action: "invoice.void",
          entityType: "invoice",
          entityId: invoiceId,
          before: invoice,
          after: { ...voided, ...idSpanFields("freedDelivery", freedDeliveries) },
        },
      ],
    };
  },
};

/** Voids invoice `invoiceId` with the reason in `input`, freeing its deliveries, in one transaction. */
export async function voidInvoice(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<VoidInvoiceResult> {
  const result = await keyedWrite(voidInvoiceCommand, actor, { ...input, invoiceId }, { now });
  if (!result.ok) return result;
  const { invoice, freedDeliveries } = result;
  return { ok: true, invoice, freedDeliveries };
}

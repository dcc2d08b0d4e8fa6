// An invoice's profit follows its deliveries' costs (docs/decisions/0300, "Profit follows the
// costs"): a haulage bill that arrives after invoicing is entered on the delivery, and the
// invoice's profit is recounted from the deliveries it holds in the same transaction, audited.
// The database refuses, at commit, an invoice whose profit differs from that recount (migration
// 0031), so no writer can leave the two apart.
import { eq } from "drizzle-orm";
import { schema, type Invoice, type Tx } from "~/db.server";
import type { Actor } from "~/rules/capabilities.server";
import { invoiceProfitSql, kobo } from "~/rules/deliveries.server";
import { compare } from "~/utils/money";
import { recordAudit } from "./audit.server";

/** The invoice's profit recounted from the deliveries it holds, to the kobo. */
async function recountInvoiceProfit(tx: Tx, invoiceId: number): Promise<string> {
  const [row] = await tx
    .select({ profit: kobo(invoiceProfitSql()) })
    .from(schema.deliveries)
    .where(eq(schema.deliveries.invoiceId, invoiceId));
  return row.profit;
}

/**
 * After a change of `deliveryId`'s costs: the invoice (locked by the caller, not void) takes its
 * deliveries' profit, with an audit event naming the delivery. Nothing is written when it is the same.
 */
export async function followDeliveryCosts(tx: Tx, actor: Actor, invoice: Invoice, deliveryId: number) {
  const profit = await recountInvoiceProfit(tx, invoice.id);
  if (compare(profit, invoice.profit) === 0) return;
  await tx.update(schema.invoices).set({ profit, updatedAt: new Date() }).where(eq(schema.invoices.id, invoice.id));
  await recordAudit(tx, {
    actor,
    action: "invoice.profit",
    entityType: "invoice",
    entityId: invoice.id,
    before: { profit: invoice.profit },
    after: { profit, editedDeliveryId: deliveryId },
  });
}

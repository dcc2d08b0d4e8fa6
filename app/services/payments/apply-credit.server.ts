// Apply Credit (docs/decisions/0920): the
// credit an invoice carries moved to another invoice of the same client that still owes. A
// negative entry on the first naming the second, and a positive entry on the second naming the
// first, dated today; no money moves, so the Payments totals do not change. At most the credit
// and at most what the second invoice owes. Both invoice rows are locked, in id order, so moves,
// payments and refunds racing on either queue. Reversed as a whole (`reversePayment` on either
// entry takes back both). Runs on the keyed write pipeline (decision 0805).
import { eq, inArray } from "drizzle-orm";
import type * as z from "zod";
import { schema, type Invoice } from "~/db.server";
import { lockKeptTotals, type Payment } from "~/models/payment.server";
import type { Actor } from "~/rules/capabilities.server";
import { balanceOf, clientCreditOf, isVoid, statusAfterSettlement } from "~/rules/invoices.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { ApplyCreditSchema } from "~/schemas/payment";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { add, compare, formatNaira, sub, toFixed } from "~/utils/money";
import { failOn, type Failure } from "~/utils/result";

export const NO_CREDIT_TO_MOVE = "This invoice carries no client credit to move";

const SAME_INVOICE_CREDIT = "Choose another invoice: the credit is already on this one";
const CREDIT_TARGET_NOT_OWING = "Choose an invoice of the same client that still owes";

type Input = z.output<typeof ApplyCreditSchema> & { fromInvoiceId: number };

type Locked = { from: Invoice; to: Invoice | undefined };

type InvoiceAfter = { invoiceNo: string; amountPaid: string; paymentStatus: Invoice["paymentStatus"] };

type Moved = {
  /** The negative entry on the invoice that carried the credit, and the positive one where it went. */
  moveOut: Payment;
  moveIn: Payment;
  from: InvoiceAfter & { creditLeft: string };
  to: InvoiceAfter & { balance: string };
};

type ApplyCreditResult = ({ ok: true; replayed: boolean } & Moved) | Failure;

const view = (invoice: Invoice): InvoiceAfter => ({
  invoiceNo: invoice.invoiceNo,
  amountPaid: invoice.amountPaid,
  paymentStatus: invoice.paymentStatus,
});

const moved = (moveOut: Payment, moveIn: Payment, from: Invoice, to: Invoice): Moved => ({
  moveOut,
  moveIn,
  from: { ...view(from), creditLeft: clientCreditOf(from) },
  to: { ...view(to), balance: balanceOf(to) },
});

const applyCreditCommand: KeyedCommand<Input, Locked, Moved> = {
  capability: "payment.record",
  object: (input) => `invoice/${String(input.fromInvoiceId)}/credit-moves`,
  scope: "payment.apply_credit",
  parse(input) {
    const parsed = parseFields(ApplyCreditSchema, input);
    if (!parsed.ok) return parsed;
    const fromInvoiceId = input.fromInvoiceId as number;
    if (parsed.data.toInvoiceId === fromInvoiceId) return failOn(400, "toInvoiceId", SAME_INVOICE_CREDIT);
    return { ok: true, data: { ...parsed.data, fromInvoiceId } };
  },
  hash: ({ fromInvoiceId, toInvoiceId, amount }) => ({ fromInvoiceId, toInvoiceId, amount }),
  async replay(tx, resourceId, { fromInvoiceId, toInvoiceId }) {
    const p = schema.payments;
    const [moveOut] = await tx
      .select()
      .from(p)
      .where(eq(p.id, Number(resourceId)));
    const [moveIn] = moveOut ? await tx.select().from(p).where(eq(p.creditFromPaymentId, moveOut.id)) : [];
    const both = await tx
      .select()
      .from(schema.invoices)
      .where(inArray(schema.invoices.id, [fromInvoiceId, toInvoiceId]));
    const from = both.find((i) => i.id === fromInvoiceId);
    const to = both.find((i) => i.id === toInvoiceId);
    if (!moveOut || !moveIn || !from || !to)
      refuseWith({ ok: false, status: 409, message: "This credit was already moved" });
    return moved(moveOut, moveIn, from, to);
  },
  // Both invoice rows in id order, then the kept totals both of them change (see lockKeptTotals).
  async lock(tx, { fromInvoiceId, toInvoiceId }) {
    const locked = await tx
      .select()
      .from(schema.invoices)
      .where(inArray(schema.invoices.id, [fromInvoiceId, toInvoiceId]))
      .orderBy(schema.invoices.id)
      .for("update");
    const from = locked.find((i) => i.id === fromInvoiceId);
    if (!from) refuseWith({ ok: false, status: 404, message: "Invoice not found" });
    await lockKeptTotals(tx);
    return { from, to: locked.find((i) => i.id === toInvoiceId) };
  },
  // Today's month closed is said before anything about the invoices (as for payments).
  landsOn: (_input, _locked, { today }) => today,
  check(_tx, { amount }, { from, to }) {
    if (!to || to.clientId !== from.clientId || isVoid(to) || compare(balanceOf(to), "0") <= 0)
      refuseWith(failOn(409, "toInvoiceId", CREDIT_TARGET_NOT_OWING));
    const credit = clientCreditOf(from);
    if (compare(amount, credit) > 0) {
      const message =
        compare(credit, "0") <= 0
          ? NO_CREDIT_TO_MOVE
          : `At most the client credit of ${formatNaira(credit)} can be moved`;
      refuseWith(failOn(409, "amount", message));
    }
    const owes = balanceOf(to);
    if (compare(amount, owes) > 0)
      refuseWith(failOn(409, "amount", `Invoice #${to.invoiceNo} owes only ${formatNaira(owes)}`));
  },
  async write(tx, { amount }, { from, to }, { actor, now, today }) {
    // check refused a missing target: `to` is the locked row.
    const target = to!;
    const p = schema.payments;
    const [moveOut] = await tx
      .insert(p)
      .values({
        invoiceId: from.id,
        amount: toFixed(sub("0", amount)),
        paymentDate: today,
        creditMovedToInvoiceId: target.id,
        createdBy: actor.id,
      })
      .returning();
    const [moveIn] = await tx
      .insert(p)
      .values({
        invoiceId: target.id,
        amount,
        paymentDate: today,
        creditFromPaymentId: moveOut.id,
        createdBy: actor.id,
      })
      .returning();
    const settle = (invoice: Invoice, amountPaid: string) => ({
      ...invoice,
      amountPaid,
      paymentStatus: statusAfterSettlement({ ...invoice, amountPaid }),
    });
    const fromAfter = settle(from, toFixed(sub(from.amountPaid, amount)));
    const toAfter = settle(target, toFixed(add(target.amountPaid, amount)));
    for (const invoice of [fromAfter, toAfter]) {
      await tx
        .update(schema.invoices)
        .set({ amountPaid: invoice.amountPaid, paymentStatus: invoice.paymentStatus, updatedAt: now })
        .where(eq(schema.invoices.id, invoice.id));
    }
    return {
      made: moved(moveOut, moveIn, fromAfter, toAfter),
      resourceId: moveOut.id,
      audit: [
        {
          action: "payment.apply_credit",
          entityType: "payment",
          entityId: moveOut.id,
          before: { from: view(from), to: view(target), clientCredit: clientCreditOf(from) },
          after: { moveOut, moveIn, from: view(fromAfter), to: view(toAfter) },
        },
      ],
    };
  },
};

/**
 * Moves a client credit from invoice `fromInvoiceId` to another invoice of the same client, in
 * one transaction: idempotent under a key, audited, refused when today's month is closed.
 */
export function applyClientCredit(
  actor: Actor,
  fromInvoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<ApplyCreditResult> {
  return keyedWrite(applyCreditCommand, actor, { ...input, fromInvoiceId }, { idempotencyKey, now });
}

// Reverse Payment (docs/decisions/0920): takes back a payment recorded in error (the
// wrong amount, the wrong invoice). The payment stays as it was; a reversal row of the opposite
// amount, dated today (APP_TIME_ZONE) and naming the payment, is added, and the invoice's paid
// total and status follow, so the invoice is owed the amount again. The reason is required and
// kept as the reversal's note. A credit moved between invoices is two entries, taken back
// together. A payment is reversed at most once: its invoice rows are locked first, as a payment
// locks them, and a unique index backs it. Runs on the keyed write pipeline (decision 0805).
import { eq, inArray, sql } from "drizzle-orm";
import type * as z from "zod";
import { rowsOf, schema, type Invoice, type Tx } from "~/db.server";
import {
  creditMovePartner,
  lockKeptTotals,
  reversedPartner,
  type Payment,
  type ReversedOn,
} from "~/models/payment.server";
import type { Actor } from "~/rules/capabilities.server";
import { statusAfterSettlement } from "~/rules/invoices.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { PaymentReversalSchema } from "~/schemas/payment";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { formatDate } from "~/utils/dates";
import { compare, isNegative, sub, toFixed } from "~/utils/money";
import type { Failure } from "~/utils/result";

const PAYMENT_NOT_FOUND = "Payment not found";
/** Reversing a credit move would take `invoiceNo`'s paid total out of 0..amount. */
export const creditMoveSpent = (invoiceNo: string) =>
  `Invoice #${invoiceNo} has been refunded, paid or moved on since this credit move: reverse that first, then the move`;
export const REVERSE_REFUND_FIRST =
  "Part of what this payment settled was refunded or moved to another invoice since: reverse that first, then the payment";
export const REFUND_CREDIT_GONE =
  "The invoice has been paid again since this refund, so the credit it paid back is gone: reverse that payment first";
export const PAYMENT_REVERSAL_NOT_REVERSIBLE = "A reversal cannot itself be reversed";
export const receiptPartMessage = (receiptId: number) =>
  `This payment is part of receipt #${receiptId}, which also settled other invoices or withholding: reverse the receipt`;

/** Whether the payment's receipt holds anything beside it: another payment or a withholding. */
async function receiptHasOtherEntries(tx: Tx, payment: Payment) {
  const [row] = await tx
    .execute<{ other: boolean }>(
      sql`select exists (
      select 1 from payments o where o.receipt_id = ${payment.receiptId} and o.id <> ${payment.id} and o.reverses_payment_id is null
    ) or exists (select 1 from withholdings w where w.receipt_id = ${payment.receiptId}) as other`,
    )
    .then(rowsOf<{ other: boolean }>);
  return row?.other ?? false;
}

type Input = z.output<typeof PaymentReversalSchema> & { paymentId: number };

type Locked = {
  payment: Payment;
  /** On a credit move, its other entry: both are taken back. */
  partner: Payment | null;
  /** The invoices the entries sit on, in id order. */
  invoices: Invoice[];
};

type Reversed = ReversedOn & {
  payment: Payment;
  /** On a credit move: the other entry's reversal and its invoice after it (both are taken back). */
  partner: ReversedOn | null;
};

type ReversePaymentResult = ({ ok: true; replayed: boolean } & Reversed) | Failure;

const entriesOf = ({ payment, partner }: Locked) => (partner ? [payment, partner] : [payment]);

/** Each invoice's paid total once the entries are taken back. */
function paidAfter(locked: Locked) {
  const after = new Map(locked.invoices.map((i) => [i.id, i.amountPaid]));
  for (const entry of entriesOf(locked))
    after.set(entry.invoiceId, toFixed(sub(after.get(entry.invoiceId)!, entry.amount)));
  return after;
}

const reversePaymentCommand: KeyedCommand<Input, Locked, Reversed> = {
  capability: "payment.reverse",
  object: (input) => `payment/${String(input.paymentId)}/reversal`,
  scope: "payment.reverse",
  parse(input) {
    const parsed = parseFields(PaymentReversalSchema, input);
    if (!parsed.ok) return parsed;
    return { ok: true, data: { ...parsed.data, paymentId: input.paymentId as number } };
  },
  hash: ({ paymentId, reason }) => ({ paymentId, reason }),
  async replay(tx, resourceId) {
    const p = schema.payments;
    const [reversal] = await tx
      .select()
      .from(p)
      .where(eq(p.id, Number(resourceId)));
    const [payment] = reversal ? await tx.select().from(p).where(eq(p.id, reversal.reversesPaymentId!)) : [];
    const [invoice] = payment
      ? await tx.select().from(schema.invoices).where(eq(schema.invoices.id, payment.invoiceId))
      : [];
    if (!reversal || !payment || !invoice)
      refuseWith({ ok: false, status: 409, message: "This reversal was already recorded" });
    const { invoiceNo, paymentStatus, amountPaid } = invoice;
    return { reversal, payment, invoiceNo, paymentStatus, amountPaid, partner: await reversedPartner(tx, payment) };
  },
  async lock(tx, { paymentId }) {
    // Read once: a payment never changes (append-only, migration 0013).
    const p = schema.payments;
    const [payment] = await tx.select().from(p).where(eq(p.id, paymentId));
    if (!payment) refuseWith({ ok: false, status: 404, message: PAYMENT_NOT_FOUND });
    // A credit moved between invoices is two entries, taken back together (migration 0017).
    const partner = await creditMovePartner(tx, payment);
    const entries = partner ? [payment, partner] : [payment];
    // Locked next, in id order: two reversals of one entry queue here, and the second finds the first.
    const invoiceIds = [...new Set(entries.map((e) => e.invoiceId))].sort((a, b) => a - b);
    const invoices = await tx
      .select()
      .from(schema.invoices)
      .where(inArray(schema.invoices.id, invoiceIds))
      .orderBy(schema.invoices.id)
      .for("update");
    if (partner) await lockKeptTotals(tx);
    return { payment, partner, invoices };
  },
  landsOn: (_input, _locked, { today }) => today,
  async check(tx, _input, locked) {
    if (locked.payment.reversesPaymentId !== null)
      refuseWith({ ok: false, status: 409, message: PAYMENT_REVERSAL_NOT_REVERSIBLE });
    // A payment that is one part of a receipt (several invoices, or withholding too) goes back
    // with the whole receipt (docs/decisions/1240).
    if (locked.payment.receiptId !== null && (await receiptHasOtherEntries(tx, locked.payment)))
      refuseWith({ ok: false, status: 409, message: receiptPartMessage(locked.payment.receiptId) });
    const p = schema.payments;
    const [earlier] = await tx
      .select()
      .from(p)
      .where(
        inArray(
          p.reversesPaymentId,
          entriesOf(locked).map((e) => e.id),
        ),
      );
    if (earlier) {
      const message = `This payment was already reversed on ${formatDate(earlier.paymentDate)}`;
      refuseWith({ ok: false, status: 409, message });
    }
    // What was paid since must still add up: a payment partly refunded keeps its refund, and a
    // refund whose credit was paid off again cannot come back (amount_paid stays within 0..amount).
    const after = paidAfter(locked);
    for (const invoice of locked.invoices) {
      const paid = after.get(invoice.id)!;
      if (isNegative(paid) || compare(paid, invoice.amount) > 0) {
        const message = locked.partner
          ? creditMoveSpent(invoice.invoiceNo)
          : isNegative(paid)
            ? REVERSE_REFUND_FIRST
            : REFUND_CREDIT_GONE;
        refuseWith({ ok: false, status: 409, message });
      }
    }
  },
  async write(tx, { reason }, locked, { actor, now, today }) {
    const { payment, partner } = locked;
    const reversals: Payment[] = [];
    for (const entry of entriesOf(locked)) {
      const [reversal] = await tx
        .insert(schema.payments)
        .values({
          invoiceId: entry.invoiceId,
          amount: toFixed(sub("0", entry.amount)),
          paymentDate: today,
          reference: entry.reference,
          note: reason,
          reversesPaymentId: entry.id,
          createdBy: actor.id,
        })
        .returning();
      reversals.push(reversal);
    }
    const after = paidAfter(locked);
    const settled = new Map(
      locked.invoices.map((invoice) => {
        const amountPaid = after.get(invoice.id)!;
        return [invoice.id, { amountPaid, paymentStatus: statusAfterSettlement({ ...invoice, amountPaid }) }];
      }),
    );
    for (const [id, { amountPaid, paymentStatus }] of settled) {
      await tx
        .update(schema.invoices)
        .set({ amountPaid, paymentStatus, updatedAt: now })
        .where(eq(schema.invoices.id, id));
    }
    const invoiceOf = (entry: Payment) => locked.invoices.find((i) => i.id === entry.invoiceId)!;
    /** An entry's invoice before the reversal, as the audit event keeps it. */
    const before = (entry: Payment) => {
      const { invoiceNo, amountPaid, paymentStatus } = invoiceOf(entry);
      return { ...entry, invoiceNo, amountPaid, paymentStatus };
    };
    /** An entry's reversal and its invoice after it. */
    const reversedOn = (entry: Payment, reversal: Payment): ReversedOn => ({
      reversal,
      invoiceNo: invoiceOf(entry).invoiceNo,
      ...settled.get(entry.invoiceId)!,
    });
    const mine = reversedOn(payment, reversals[0]);
    const partnerState = partner && reversedOn(partner, reversals[1]);
    const afterOf = ({ reversal, ...state }: ReversedOn) => ({ ...reversal, ...state });
    return {
      made: { ...mine, payment, partner: partnerState },
      resourceId: mine.reversal.id,
      audit: [
        {
          action: "payment.reverse",
          entityType: "payment",
          entityId: payment.id,
          before: { ...before(payment), ...(partner ? { partner: before(partner) } : {}) },
          after: { ...afterOf(mine), ...(partnerState ? { partner: afterOf(partnerState) } : {}) },
        },
      ],
    };
  },
};

/**
 * Takes back a payment, a refund or a credit move (both of its entries) in one transaction:
 * idempotent under `idempotencyKey`, refused when today's month is closed, audited.
 */
export function reversePayment(
  actor: Actor,
  paymentId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<ReversePaymentResult> {
  return keyedWrite(reversePaymentCommand, actor, { ...input, paymentId }, { idempotencyKey, now });
}

// Record Payment (decision 0300): money in against one invoice. The invoice row is locked, so
// two payments racing for the last balance queue: the second sees what the first paid and is
// refused rather than over-paying. It is a one-invoice cash receipt (docs/decisions/1240): the
// receipt is written with it. Runs on the keyed write pipeline (decision 0805).
import { eq } from "drizzle-orm";
import type * as z from "zod";
import { schema, type Invoice, type Tx } from "~/db.server";
import { isVoid, settledOf, statusAfterSettlement } from "~/rules/invoices.server";
import { safeParseFields } from "~/schemas/fields";
import { PaymentSchema } from "~/schemas/payment";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { fieldErrorsOf } from "~/utils/field-errors";
import { add, compare, formatNaira, sub, toFixed } from "~/utils/money";
import { fail, failOn, type Failure } from "~/utils/result";
import type { Actor } from "~/rules/capabilities.server";

const PAYMENT_AMOUNT_MESSAGE = "Please enter a valid payment amount";
export const PAYMENT_DATE_FUTURE = "Payment date cannot be in the future";
const VOID_INVOICE_PAYMENT = "This invoice is void and accepts no payment";
export const PAYMENT_DATE_BEFORE_INVOICE = "Payment date cannot be before the invoice was created";

type Input = z.output<typeof PaymentSchema> & { date: string };

type Payment = typeof schema.payments.$inferSelect;
type Recorded = {
  payment: Payment;
  paymentStatus: Invoice["paymentStatus"];
  amountPaid: string;
  amountCredited: string;
};

type RecordPaymentResult = ({ ok: true; replayed: boolean } & Recorded) | Failure;

const recordPaymentCommand: KeyedCommand<Input, Invoice, Recorded> = {
  capability: "payment.record",
  object: (input) => `invoice/${String(input.invoiceId ?? "")}/payments`,
  scope: "payment.create",
  parse(input, { today }) {
    const parsed = safeParseFields(PaymentSchema, input);
    if (!parsed.success) {
      const errors = fieldErrorsOf(parsed.error);
      if (!errors.fieldErrors.amount) return { ok: false, status: 400, ...errors };
      return fail(400, PAYMENT_AMOUNT_MESSAGE, { ...errors.fieldErrors, amount: [PAYMENT_AMOUNT_MESSAGE] });
    }
    const date = parsed.data.paymentDate ?? today;
    const badDate = businessDateRefusal("Payment date", date, today, 0);
    if (badDate) return failOn(400, "paymentDate", badDate);
    return { ok: true, data: { ...parsed.data, date } };
  },
  // The date as sent: a payment without one is the same request tomorrow.
  hash: ({ invoiceId, amount, paymentDate, reference }) => ({ invoiceId, amount, paymentDate, reference }),
  async replay(tx, resourceId, { invoiceId }) {
    const [payment] = await tx
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.id, Number(resourceId)));
    const invoice = await invoiceRow(tx, invoiceId);
    if (!payment || !invoice) refuseWith({ ok: false, status: 409, message: "This payment was already recorded" });
    return recorded(payment, invoice);
  },
  async lock(tx, { invoiceId }) {
    const invoice = await invoiceRow(tx, invoiceId, true);
    return invoice ?? refuseWith({ ok: false, status: 404, message: "Invoice not found" });
  },
  // A date in a closed month is refused before anything else is said about it (decision 0901).
  landsOn: ({ date }) => date,
  closedField: "paymentDate",
  check(_tx, { date, amount }, invoice) {
    if (date < invoice.issueDate) refuseWith(failOn(400, "paymentDate", PAYMENT_DATE_BEFORE_INVOICE));
    if (isVoid(invoice)) refuseWith(failOn(409, "amount", VOID_INVOICE_PAYMENT));
    // Credit notes settle too: paid + credited may not pass the amount (decision 0920).
    const balance = sub(invoice.amount, settledOf(invoice));
    if (compare(amount, balance) > 0) {
      const message =
        compare(balance, "0") <= 0
          ? "This invoice is already paid in full"
          : `Amount exceeds the remaining balance of ${formatNaira(balance)}`;
      refuseWith(failOn(409, "amount", message));
    }
  },
  async write(tx, { invoiceId, amount, date, reference }, invoice, { actor }) {
    // A one-invoice cash receipt (docs/decisions/1240): the receipt, and its cash as the payment.
    const [receipt] = await tx
      .insert(schema.receipts)
      .values({
        clientId: invoice.clientId,
        receiptDate: date,
        amount,
        reference: reference ?? null,
        createdBy: actor.id,
      })
      .returning({ id: schema.receipts.id });
    const [payment] = await tx
      .insert(schema.payments)
      .values({
        invoiceId,
        amount,
        paymentDate: date,
        reference: reference ?? null,
        receiptId: receipt.id,
        createdBy: actor.id,
      })
      .returning();
    const amountPaid = toFixed(add(invoice.amountPaid, amount));
    const paymentStatus = statusAfterSettlement({ ...invoice, amountPaid });
    await tx
      .update(schema.invoices)
      .set({ amountPaid, paymentStatus, updatedAt: new Date() })
      .where(eq(schema.invoices.id, invoiceId));
    const before = {
      invoiceId,
      invoiceNo: invoice.invoiceNo,
      amountPaid: invoice.amountPaid,
      paymentStatus: invoice.paymentStatus,
    };
    return {
      made: recorded(payment, { ...invoice, amountPaid, paymentStatus }),
      resourceId: payment.id,
      audit: [
        {
          action: "payment.create",
          entityType: "payment",
          entityId: payment.id,
          before,
          after: { ...payment, invoiceNo: invoice.invoiceNo, amountPaid, paymentStatus },
        },
      ],
    };
  },
};

async function invoiceRow(tx: Tx, id: number, forUpdate = false): Promise<Invoice | undefined> {
  const query = tx.select().from(schema.invoices).where(eq(schema.invoices.id, id));
  const [invoice] = forUpdate ? await query.for("update") : await query;
  return invoice;
}

const recorded = (payment: Payment, invoice: Invoice): Recorded => ({
  payment,
  paymentStatus: invoice.paymentStatus,
  amountPaid: invoice.amountPaid,
  amountCredited: invoice.amountCredited,
});

/** Records a payment and the invoice's new paid total and status in one transaction. */
export function recordPayment(
  actor: Actor,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<RecordPaymentResult> {
  return keyedWrite(recordPaymentCommand, actor, input, { idempotencyKey, now });
}

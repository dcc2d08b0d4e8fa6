// Refund Credit (docs/decisions/0920): money paid back to
// the client out of the credit an invoice carries (a credit note issued after it was paid leaves
// one). A negative payments row marked `refund`, with its reason in `note`, dated `paymentDate`
// (today by default; not in the future, not before the invoice, not in a closed month); the
// invoice's paid total follows. At most the credit: the invoice row is locked first, so two
// refunds racing for the same credit queue and the second sees what the first paid back. Runs on
// the keyed write pipeline (decision 0805).
import { eq, sql } from "drizzle-orm";
import type * as z from "zod";
import { rowsOf, schema, type Executor, type Invoice } from "~/db.server";
import type { Payment } from "~/models/payment.server";
import type { Actor } from "~/rules/capabilities.server";
import { clientCreditOf, statusAfterSettlement } from "~/rules/invoices.server";
import { parseFields } from "~/schemas/parse-fields.server";
import { RefundSchema } from "~/schemas/payment";
import { keyedWrite, refuseWith, type KeyedCommand, type KeyOptions } from "~/services/keyed-write.server";
import { businessDateRefusal } from "~/utils/business-dates";
import { formatDate } from "~/utils/dates";
import { compare, formatNaira, sub, toFixed } from "~/utils/money";
import { failOn, type Failure } from "~/utils/result";

export const NO_CLIENT_CREDIT = "This invoice carries no client credit to refund";

type Input = z.output<typeof RefundSchema> & { invoiceId: number; date: string };

type Refunded = {
  refund: Payment;
  invoiceNo: string;
  paymentStatus: Invoice["paymentStatus"];
  amountPaid: string;
  /** The client credit the invoice still carries after the refund. */
  creditLeft: string;
};

type RefundResult = ({ ok: true; replayed: boolean } & Refunded) | Failure;

const refunded = (refund: Payment, invoice: Invoice): Refunded => ({
  refund,
  invoiceNo: invoice.invoiceNo,
  paymentStatus: invoice.paymentStatus,
  amountPaid: invoice.amountPaid,
  creditLeft: clientCreditOf(invoice),
});

const refundCreditCommand: KeyedCommand<Input, Invoice, Refunded> = {
  capability: "payment.refund",
  object: (input) => `invoice/${String(input.invoiceId)}/refunds`,
  scope: "payment.refund",
  parse(input, { today }) {
    const parsed = parseFields(RefundSchema, input);
    if (!parsed.ok) return parsed;
    const date = parsed.data.paymentDate ?? today;
    const badDate = businessDateRefusal("Refund date", date, today, 0);
    if (badDate) return failOn(400, "paymentDate", badDate);
    return { ok: true, data: { ...parsed.data, invoiceId: input.invoiceId as number, date } };
  },
  // The date as sent: a refund without one is the same request tomorrow.
  hash: ({ invoiceId, amount, paymentDate, reference, reason }) => ({
    invoiceId,
    amount,
    paymentDate,
    reference,
    reason,
  }),
  async replay(tx, resourceId, { invoiceId }) {
    const [refund] = await tx
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.id, Number(resourceId)));
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
    if (!refund || !invoice) refuseWith({ ok: false, status: 409, message: "This refund was already recorded" });
    return refunded(refund, invoice);
  },
  async lock(tx, { invoiceId }) {
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
    return invoice ?? refuseWith({ ok: false, status: 404, message: "Invoice not found" });
  },
  landsOn: ({ date }) => date,
  closedField: "paymentDate",
  async check(tx, { amount, date }, invoice) {
    if (date < invoice.issueDate)
      refuseWith(failOn(400, "paymentDate", "Refund date cannot be before the invoice was created"));
    // Nor before the credit existed: not before the invoice's latest payment or credit note, so
    // a statement never shows the client owing in between.
    const latest = await latestSettlementDate(tx, invoice.id);
    if (latest && date < latest) {
      const message = `Refund date cannot be before the invoice's latest payment or credit note (${formatDate(latest)})`;
      refuseWith(failOn(400, "paymentDate", message));
    }
    const credit = clientCreditOf(invoice);
    if (compare(amount, credit) > 0) {
      const message =
        compare(credit, "0") <= 0
          ? NO_CLIENT_CREDIT
          : `A refund can be at most the client credit of ${formatNaira(credit)}`;
      refuseWith(failOn(409, "amount", message));
    }
  },
  async write(tx, { invoiceId, amount, date, reference, reason }, invoice, { actor, now }) {
    const [refund] = await tx
      .insert(schema.payments)
      .values({
        invoiceId,
        amount: toFixed(sub("0", amount)),
        paymentDate: date,
        reference: reference ?? null,
        note: reason,
        refund: true,
        createdBy: actor.id,
      })
      .returning();
    const amountPaid = toFixed(sub(invoice.amountPaid, amount));
    const paymentStatus = statusAfterSettlement({ ...invoice, amountPaid });
    await tx
      .update(schema.invoices)
      .set({ amountPaid, paymentStatus, updatedAt: now })
      .where(eq(schema.invoices.id, invoiceId));
    return {
      made: refunded(refund, { ...invoice, amountPaid, paymentStatus }),
      resourceId: refund.id,
      audit: [
        {
          action: "payment.refund",
          entityType: "payment",
          entityId: refund.id,
          before: {
            invoiceId,
            invoiceNo: invoice.invoiceNo,
            amountPaid: invoice.amountPaid,
            paymentStatus: invoice.paymentStatus,
            clientCredit: clientCreditOf(invoice),
          },
          after: { ...refund, invoiceNo: invoice.invoiceNo, amountPaid, paymentStatus },
        },
      ],
    };
  },
};

/** The day of an invoice's latest payment entry or credit note entry, or null: two index probes. */
async function latestSettlementDate(tx: Executor, invoiceId: number): Promise<string | null> {
  const [row] = rowsOf<{ latest: string | null }>(
    await tx.execute(sql`select greatest(
        (select max(payment_date) from payments where invoice_id = ${invoiceId}),
        (select max(issue_date) from credit_notes where invoice_id = ${invoiceId}))::text as latest`),
  );
  return row?.latest ?? null;
}

/**
 * Pays money back to the client out of the credit invoice `invoiceId` carries, in one
 * transaction: idempotent under `idempotencyKey`, audited, refused in a closed month.
 */
export function refundClientCredit(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
  { idempotencyKey }: Pick<KeyOptions, "idempotencyKey"> = {},
): Promise<RefundResult> {
  return keyedWrite(refundCreditCommand, actor, { ...input, invoiceId }, { idempotencyKey, now });
}

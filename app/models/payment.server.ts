import { desc, eq, sql } from "drizzle-orm";
import { getDb, schema, type User } from "~/db.server";
import { calendarDate, fieldErrorsOf, optionalText, requiredDecimal, requiredId, safeParseFields } from "~/schemas/fields";
import * as z from "zod";
import { todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { add, compare, formatNaira, isZero, sub, toFixed } from "~/utils/money";

export const PAYMENT_AMOUNT_MESSAGE = "Please enter a valid payment amount";

export const PaymentSchema = z.object({
  invoiceId: requiredId("Invoice"),
  amount: requiredDecimal({ label: "Amount", precision: 12, positive: true }),
  paymentDate: calendarDate("Payment date", { required: false }),
  reference: optionalText("Reference", 200),
});

type Failure = { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string[]> };

export type RecordPaymentResult = { ok: true; payment: typeof schema.payments.$inferSelect; paymentStatus: "pending" | "partial" | "paid"; amountPaid: string } | Failure;

/**
 * Records a payment and the invoice's new paid total and status in one transaction. The
 * invoice row is locked first, so two payments racing for the last balance queue: the second
 * sees what the first paid and is refused rather than over-paying.
 */
export async function recordPayment(user: Pick<User, "id">, input: Record<string, unknown>, now = new Date()): Promise<RecordPaymentResult> {
  const parsed = safeParseFields(PaymentSchema, input);
  if (!parsed.success) {
    const errors = fieldErrorsOf(parsed.error);
    if (errors.fieldErrors.amount) errors.fieldErrors.amount = [PAYMENT_AMOUNT_MESSAGE];
    return { ok: false, status: 400, message: errors.fieldErrors.amount ? PAYMENT_AMOUNT_MESSAGE : errors.message, fieldErrors: errors.fieldErrors };
  }
  const { invoiceId, amount, reference } = parsed.data;
  const paymentDate = parsed.data.paymentDate ?? todayIn(env().APP_TIME_ZONE, now);
  const db = await getDb();
  return db.transaction(async (tx): Promise<RecordPaymentResult> => {
    const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
    if (!invoice) return { ok: false, status: 404, message: "Invoice not found" };
    const balance = sub(invoice.amount, invoice.amountPaid);
    if (compare(amount, balance) > 0) {
      const message = isZero(balance) ? "This invoice is already paid in full" : `Amount exceeds the remaining balance of ${formatNaira(balance)}`;
      return { ok: false, status: 409, message, fieldErrors: { amount: [message] } };
    }
    const [payment] = await tx
      .insert(schema.payments)
      .values({ invoiceId, amount, paymentDate, reference: reference ?? null, createdBy: user.id })
      .returning();
    const amountPaid = toFixed(add(invoice.amountPaid, amount));
    const paymentStatus = compare(amountPaid, invoice.amount) >= 0 ? "paid" : "partial";
    await tx.update(schema.invoices).set({ amountPaid, paymentStatus, updatedAt: new Date() }).where(eq(schema.invoices.id, invoiceId));
    return { ok: true, payment, paymentStatus, amountPaid };
  });
}

export async function listPayments() {
  const db = await getDb();
  const rows = await db
    .select({ payment: schema.payments, invoiceNo: schema.invoices.invoiceNo, clientName: schema.clients.name })
    .from(schema.payments)
    .innerJoin(schema.invoices, eq(schema.invoices.id, schema.payments.invoiceId))
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .orderBy(desc(schema.payments.paymentDate), desc(schema.payments.id));
  return rows.map(({ payment, invoiceNo, clientName }) => ({
    id: payment.id,
    invoiceId: payment.invoiceId,
    invoiceNo,
    clientName,
    amount: payment.amount,
    paymentDate: payment.paymentDate,
    reference: payment.reference,
    createdAt: payment.createdAt.toISOString(),
  }));
}

/** Total Payments (count) and Total Amount (exact sum), in SQL. */
export async function paymentTotals() {
  const db = await getDb();
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, total: sql<string>`coalesce(sum(${schema.payments.amount}), 0)::numeric(14,2)::text` })
    .from(schema.payments);
  return row;
}

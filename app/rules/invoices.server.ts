// The invoice rules of spec section 4, each written once: the JavaScript formula and its SQL
// twin side by side (decision 0800; tests/integration/rules.test.ts holds them equal).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { schema, type Invoice } from "~/db.server";
import { compare, round, toFixed } from "~/utils/money";

export type PaymentStatus = Invoice["paymentStatus"];

const inv = schema.invoices;

// ---- Owed: money still due on the invoice.

export const isOwed = (x: Pick<Invoice, "amount" | "amountPaid">) => compare(x.amountPaid, x.amount) < 0;

export const owedSql = () => sql`(${inv.amountPaid} < ${inv.amount})`;

// ---- Overdue: money still owed and the expected payment date before today (business time zone).

export const isOverdue = (x: Pick<Invoice, "amount" | "amountPaid" | "expectedPaymentDate">, today: string) =>
  isOwed(x) && x.expectedPaymentDate < today;

/**
 * `owed` and `due` default to the invoice's own columns; the status totals the triggers keep
 * (invoice_status_totals) pass their `owed` flag and due date.
 */
export const overdueSql = (today: string, owed: SQL = owedSql(), due: SQLWrapper = inv.expectedPaymentDate) =>
  sql`(${owed} and ${due} < ${today})`;

/** The status shown: Overdue when overdue, otherwise the stored status (pending, partial, paid). */
export function effectiveStatus(
  x: Pick<Invoice, "paymentStatus" | "amount" | "amountPaid" | "expectedPaymentDate">,
  today: string,
): PaymentStatus {
  return isOverdue(x, today) ? "overdue" : x.paymentStatus;
}

export const effectiveStatusSql = (today: string) =>
  sql<PaymentStatus>`(case when ${overdueSql(today)} then 'overdue' else ${inv.paymentStatus} end)`;

// ---- The stored status after a payment: paid once the amount is covered, partial before.

export const statusAfterPayment = (amountPaid: string, amount: string): "paid" | "partial" =>
  compare(amountPaid, amount) >= 0 ? "paid" : "partial";

// ---- Tax contained in a tax-inclusive amount: amount x rate / (100 + rate), to the kobo
// (half-up). Invoice amounts are tax-inclusive (docs/decisions/0951).

export function taxIncluded(amount: string, ratePercent: string): string {
  const amountKobo = round(amount, 2).units;
  const rate = round(ratePercent, 2).units; // hundredths of a percent
  const numerator = amountKobo * rate;
  const denominator = 10000n + rate;
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (2n * abs + denominator) / (2n * denominator);
  return toFixed({ units: negative ? -q : q, scale: 2 });
}

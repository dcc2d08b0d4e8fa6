// The invoice rules of spec section 4, each written once: the JavaScript formula and its SQL
// twin side by side (decision 0800; tests/integration/rules.test.ts holds them equal).
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { schema, type Invoice } from "~/db.server";
import { addDays } from "~/utils/dates";
import { add, compare, dec, sub, toFixed, type Decimal } from "~/utils/money";

export type PaymentStatus = Invoice["paymentStatus"];

const inv = schema.invoices;

// ---- Void: cancelled with a reason (docs/decisions/0920). A void invoice is owed nothing,
// counts in no total and takes no payment or credit.

export const isVoid = (x: Pick<Invoice, "paymentStatus">) => x.paymentStatus === "void";

export const voidSql = () => sql`(${inv.paymentStatus} = 'void')`;

// ---- Settled: what payments, withholdings and credit notes have covered (paid + withheld +
// credited; docs/decisions/1240).

type Money = Pick<Invoice, "amount" | "amountPaid" | "amountWithheld" | "amountCredited">;
type MoneyAndStatus = Money & Pick<Invoice, "paymentStatus">;

export const settledOf = (x: Pick<Invoice, "amountPaid" | "amountWithheld" | "amountCredited">): Decimal =>
  add(add(x.amountPaid, x.amountWithheld), x.amountCredited);

export const settledSql = () => sql`(${inv.amountPaid} + ${inv.amountWithheld} + ${inv.amountCredited})`;

// ---- Balance: amount - paid - withheld - credited; negative is the client's credit; 0 on a void invoice.

export const balanceOf = (x: MoneyAndStatus): string => (isVoid(x) ? "0.00" : toFixed(sub(x.amount, settledOf(x))));

export const balanceSql = () =>
  sql<string>`(case when ${voidSql()} then 0 else ${inv.amount} - ${settledSql()} end)::numeric(20,2)::text`;

// ---- Owed: money still due on the invoice (the partial indexes invoices_owed_* use this text).

export const isOwed = (x: MoneyAndStatus) => !isVoid(x) && compare(settledOf(x), x.amount) < 0;

export const owedSql = () =>
  sql`(${inv.amountPaid} + ${inv.amountWithheld} + ${inv.amountCredited} < ${inv.amount} and ${inv.paymentStatus} <> 'void')`;

// ---- Client credit: paid and credited past the amount, so the client is owed the difference
// (a credit note on a paid invoice leaves one; a refund pays it back). The partial index
// invoices_credit_id_idx uses this text.

export const hasClientCredit = (x: MoneyAndStatus) => !isVoid(x) && compare(settledOf(x), x.amount) > 0;

export const clientCreditSql = () =>
  sql`(${inv.amountPaid} + ${inv.amountWithheld} + ${inv.amountCredited} > ${inv.amount} and ${inv.paymentStatus} <> 'void')`;

/** The client credit an invoice carries ("0.00" when none): what was paid and credited past its amount. */
export const clientCreditOf = (x: MoneyAndStatus): string =>
  hasClientCredit(x) ? toFixed(sub(settledOf(x), x.amount)) : "0.00";

// ---- Due date: the issue date plus the client's payment terms, so an invoice is never due
// before it is issued (docs/decisions/0300, "Due date"). Made on the day of its delivery, that is
// the spec's delivery date + terms. Only the invoice's creation computes it; it is stored.

export const dueDateOf = (issueDate: string, termsDays: number): string => addDays(issueDate, Math.max(0, termsDays));

// ---- Overdue: money still owed and the expected payment date before today (business time zone).

export const isOverdue = (x: MoneyAndStatus & Pick<Invoice, "expectedPaymentDate">, today: string) =>
  isOwed(x) && x.expectedPaymentDate < today;

/**
 * `owed` and `due` default to the invoice's own columns; the status totals the triggers keep
 * (invoice_status_totals) pass their `owed` flag and due date.
 */
export const overdueSql = (today: string, owed: SQL = owedSql(), due: SQLWrapper = inv.expectedPaymentDate) =>
  sql`(${owed} and ${due} < ${today})`;

/** The status shown: Overdue when overdue, otherwise the stored status (pending, partial, paid, void). */
export function effectiveStatus(
  x: MoneyAndStatus & Pick<Invoice, "expectedPaymentDate">,
  today: string,
): PaymentStatus {
  return isOverdue(x, today) ? "overdue" : x.paymentStatus;
}

export const effectiveStatusSql = (today: string) =>
  sql<PaymentStatus>`(case when ${overdueSql(today)} then 'overdue' else ${inv.paymentStatus} end)`;

// ---- The stored status after a payment or credit note: paid once paid + credited reaches the
// amount, partial once anything is settled, pending before (a void invoice is never settled).

export function statusAfterSettlement(x: Money): "pending" | "partial" | "paid" {
  const settled = settledOf(x);
  if (compare(settled, x.amount) >= 0) return "paid";
  return compare(settled, "0") > 0 ? "partial" : "pending";
}

export const statusAfterSettlementSql = () =>
  sql<PaymentStatus>`(case when ${settledSql()} >= ${inv.amount} then 'paid' when ${settledSql()} > 0 then 'partial' else 'pending' end)`;

// ---- Tax contained in the amount. Rates are tax-inclusive (docs/decisions/0922): the tax in
// an amount A at rate r% is A x r / (100 + r), rounded half away from zero to the kobo, once.

export function taxContained(amount: string, rate: string): string {
  const a = dec(amount);
  const r = dec(rate);
  // A x r / (100 + r) as one fraction of integers: (a.units / 10^as) x (r.units / 10^rs) / (100 + r.units / 10^rs)
  //   = a.units x r.units / (10^as x (100 x 10^rs + r.units)); scaled to kobo by 100.
  const denominator = 10n ** BigInt(a.scale) * (100n * 10n ** BigInt(r.scale) + r.units);
  if (denominator <= 0n) return "0.00";
  const numerator = a.units * r.units * 100n;
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  let q = abs / denominator;
  if ((abs % denominator) * 2n >= denominator) q += 1n;
  return toFixed({ units: negative ? -q : q, scale: 2 });
}

export const taxContainedSql = () => taxContainedOfSql(inv.amount, inv.taxRate);

/**
 * The same for any amount and rate (a credit note's amount at its invoice's rate), through the
 * database function the tax report's triggers use (migration 0019), so the SQL has one text.
 */
export const taxContainedOfSql = (amount: SQLWrapper, rate: SQLWrapper) =>
  sql<string>`pks_tax_contained(${amount}, ${rate})::numeric(20,2)::text`;

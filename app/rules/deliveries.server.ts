// The delivery rules of DESIGN.md and spec sections 3-4, each written once: the JavaScript
// formula (exact decimals, app/utils/money.ts) and its SQL twin side by side. Models and
// presenters use these and restate none of them; tests/integration/rules.test.ts runs both
// versions on the same rows and requires equal answers (decision 0800). Missing numbers count
// as 0; each figure is rounded half away from zero to the kobo only where it is shown, sums
// are rounded once at the end (JavaScript `round` and PostgreSQL `round(numeric, 2)` agree).
//
// The database triggers of migration 0004 (delivery_day_totals, delivery_month_totals) restate
// counted, eligible, revenue and profit in PL/pgSQL; the rule test checks their totals too.
import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { schema, type Delivery } from "~/db.server";
import { add, mul, sub, toFixed, type Decimal } from "~/utils/money";

/**
 * A delivery's money inputs. `invoicedTons` and `paidTons` are the database's generated columns
 * (docs/decisions/1220): the client pays for the invoiced tons, the agent is paid (and the buying
 * cost counted) on the paid tons; `paidTonsOf`/`invoicedTonsOf` (rules/weights.ts) are their twins.
 */
export type Figures = {
  invoicedTons: string;
  paidTons: string;
  buyingRate?: string | null;
  sellingRate?: string | null;
  logisticsCost?: string | null;
  otherCosts?: string | null;
  offloadingCost?: string | null;
  mobilizationPayment?: string | null;
};

const d = schema.deliveries;
const zero = (column: SQL | typeof d.buyingRate) => sql`coalesce(${column}, 0)`;
const hasSellingRate = (x: Figures) => x.sellingRate !== null && x.sellingRate !== undefined && x.sellingRate !== "";

/** SQL: a numeric rounded to the kobo, as text ("12.30"). */
export const kobo = (value: SQL) => sql<string>`round(${value}, 2)::text`;

// ---- Counted deliveries: the ones that count in totals (confirmed or invoiced; never drafts).

const COUNTED_STATUSES = ["confirmed", "invoiced"] as const satisfies readonly Delivery["status"][];

export const isCounted = (x: Pick<Delivery, "status">) => (COUNTED_STATUSES as readonly string[]).includes(x.status);

export const countedSql = () => inArray(d.status, [...COUNTED_STATUSES]);

// ---- Eligible for invoicing: confirmed, with a client, not yet on an invoice.

export const isEligibleForInvoice = (x: Pick<Delivery, "status" | "invoiceId" | "clientId">) =>
  x.status === "confirmed" && x.invoiceId === null && x.clientId !== null;

/** Served by the partial index deliveries_invoiceable_idx (status = 'confirmed' and invoice_id is null). */
export const eligibleSql = () => and(eq(d.status, "confirmed"), isNull(d.invoiceId), isNotNull(d.clientId))!;

// ---- Waiting for the client's ticket (docs/decisions/1220): a client that requires its received
// ticket has a delivery offered for invoicing, and invoiced, only once that ticket is recorded.
// Kept apart from `eligibleSql`, which the kept totals' n_eligible restates: that count includes
// the deliveries still waiting.

/** An eligible delivery of a client requiring its ticket, with no received ticket yet. */
export const waitsForReceivedTicket = (
  x: Pick<Delivery, "receivedTons">,
  client: { requiresReceivedTicket: boolean },
) => client.requiresReceivedTicket && x.receivedTons === null;

/**
 * The SQL twin of "not waiting": a received ticket, or a client that does not require one. A
 * NOT EXISTS on the client's row, so it filters a query with or without a join on clients and
 * leaves the picker on its partial index.
 */
export const readyForInvoiceSql = () =>
  sql`(${d.receivedTons} is not null or not exists (select 1 from ${schema.clients} where ${schema.clients.id} = ${d.clientId} and ${schema.clients.requiresReceivedTicket}))`;

/** What may be invoiced now: eligible and not waiting for the client's ticket. */
export const invoiceableSql = () => and(eligibleSql(), readyForInvoiceSql())!;

/** Once invoiced (status or invoice link), tons, rates and client are locked and the delivery cannot be deleted. */
export const isInvoiced = (x: Pick<Delivery, "status" | "invoiceId">) =>
  x.status === "invoiced" || x.invoiceId !== null;

// ---- Revenue = invoiced tons x selling rate; none while the selling rate is missing.

export function revenueOf(x: Figures): Decimal | null {
  return hasSellingRate(x) ? mul(x.invoicedTons, x.sellingRate!) : null;
}

/** Exact (unrounded) numeric, null without a selling rate; `sum()` skips those, as invoices count them as 0. */
export const revenueSql = () => sql<string | null>`(${d.invoicedTons} * ${d.sellingRate})`;

/** Revenue to the kobo, or null. */
export function deliveryRevenue(x: Figures): string | null {
  const revenue = revenueOf(x);
  return revenue === null ? null : toFixed(revenue);
}

// ---- Cost = paid tons x buying rate + logistics cost + other costs.

export function costOf(x: Figures): Decimal {
  return add(mul(x.paidTons, x.buyingRate ?? "0"), x.logisticsCost ?? "0", x.otherCosts ?? "0");
}

export const costSql = () =>
  sql<string>`(${d.paidTons} * ${zero(d.buyingRate)} + ${zero(d.logisticsCost)} + ${zero(d.otherCosts)})`;

// ---- Profit = revenue - cost; none while the selling rate is missing.

export function profitOf(x: Figures): Decimal | null {
  const revenue = revenueOf(x);
  return revenue === null ? null : sub(revenue, costOf(x));
}

export const profitSql = () =>
  sql<string | null>`(case when ${d.sellingRate} is null then null else ${revenueSql()} - ${costSql()} end)`;

/** Profit to the kobo, or null. */
export function deliveryProfit(x: Figures): string | null {
  const profit = profitOf(x);
  return profit === null ? null : toFixed(profit);
}

// ---- Net payment to agent = paid tons x buying rate - offloading cost - mobilization payment.

export function netPaymentOf(x: Figures): Decimal {
  return sub(sub(mul(x.paidTons, x.buyingRate ?? "0"), x.offloadingCost ?? "0"), x.mobilizationPayment ?? "0");
}

export const netPaymentSql = () =>
  sql<string>`(${d.paidTons} * ${zero(d.buyingRate)} - ${zero(d.offloadingCost)} - ${zero(d.mobilizationPayment)})`;

/** Net payment to agent to the kobo (admins only see it). */
export const netPaymentToAgent = (x: Figures): string => toFixed(netPaymentOf(x));

// ---- An invoice's figures from its deliveries: amount = sum of revenue (a missing selling rate
// counting as 0), profit = amount - sum of cost; each rounded once, at the end.

export function invoiceTotalsOf(rows: Figures[]): { amount: Decimal; profit: Decimal } {
  const amount = add(...rows.map((r) => revenueOf(r) ?? "0"));
  return { amount, profit: sub(amount, add(...rows.map(costOf))) };
}

export const invoiceAmountSql = () => sql<string>`coalesce(sum(${revenueSql()}), 0)`;
export const invoiceProfitSql = () => sql<string>`(${invoiceAmountSql()} - coalesce(sum(${costSql()}), 0))`;

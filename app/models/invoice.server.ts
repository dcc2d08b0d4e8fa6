// Invoices' invariants and the small reads the writes share: gapless numbering, which
// deliveries can be invoiced and the figures they make, the issue of one invoice (its number,
// row, deliveries, lines and audit event) and whether one can be voided. The writes themselves
// are commands under app/services/invoices (decision 0805); the pages' reads are presenters.
import { and, eq, sql } from "drizzle-orm";
import { getDb, schema, type Executor, type Invoice, type Tx, type User } from "~/db.server";
import { assertCan, type Actor } from "~/rules/capabilities.server";
import { invoiceableSql, invoiceTotalsOf, revenueSql } from "~/rules/deliveries.server";
import { dueDateOf } from "~/rules/invoices.server";
import { compare, formatNaira, toFixed } from "~/utils/money";
import { fail, Refusal } from "~/utils/result";
import { idSpan, idSpanFields, type AuditEvent } from "./audit.server";

// Invoice numbers are sequential numeric strings, 127 first. The last one handed out lives in
// the one-row invoice_counter table; the invoice's transaction bumps it, and the row lock that
// takes makes concurrent invoices queue: numbers never repeat or skip, and finding the next one
// costs the same with a million invoices as with none (docs/decisions/0501).
export const FIRST_INVOICE_NUMBER = 127;
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;

/** The last number handed out (126 before the first invoice). */
export async function highestInvoiceNumber(db: Executor): Promise<number> {
  const [row] = await db
    .select({ lastNo: schema.invoiceCounter.lastNo })
    .from(schema.invoiceCounter)
    .where(eq(schema.invoiceCounter.id, 1));
  return row ? Number(row.lastNo) : FIRST_INVOICE_NUMBER - 1;
}

export async function nextInvoiceNumber(db?: Executor): Promise<string> {
  db ??= await getDb();
  return String((await highestInvoiceNumber(db)) + 1);
}

/**
 * Takes the counter row's lock without taking a number (the row made at 126 when there is none
 * yet, as the migrations make it): a month's batch takes it before its other locks.
 */
export async function lockInvoiceCounter(tx: Tx) {
  await tx
    .insert(schema.invoiceCounter)
    .values({ id: 1, lastNo: FIRST_INVOICE_NUMBER - 1 })
    .onConflictDoUpdate({ target: schema.invoiceCounter.id, set: { lastNo: sql`${schema.invoiceCounter.lastNo}` } });
}

/**
 * Takes the next number, holding the counter row until commit. A number chosen by hand
 * (`POST /api/invoices` with `invoiceNo`) must be that next number: numbers run without gaps
 * (decision 0501), so a number further on would leave a gap, and one far
 * enough on would leave the counter past what an invoice number can hold.
 */
async function claimInvoiceNumber(tx: Tx, requestedNo?: string): Promise<string> {
  const [row] = await tx
    .insert(schema.invoiceCounter)
    .values({ id: 1, lastNo: FIRST_INVOICE_NUMBER })
    .onConflictDoUpdate({
      target: schema.invoiceCounter.id,
      set: { lastNo: sql`${schema.invoiceCounter.lastNo} + 1` },
    })
    .returning({ lastNo: sql<string>`${schema.invoiceCounter.lastNo}::text` });
  const next = row.lastNo;
  if (requestedNo !== undefined && BigInt(requestedNo) !== BigInt(next)) {
    // Thrown inside the transaction: the counter goes back with it.
    const why = BigInt(requestedNo) < BigInt(next) ? "is already used or skipped" : "would leave a gap";
    throw new Refusal(
      fail(409, `Invoice number ${requestedNo} ${why}: invoice numbers run without gaps, and the next is ${next}`),
    );
  }
  return next;
}

export type EligibleRow = {
  id: number;
  date: string;
  tons: string;
  invoicedTons: string;
  paidTons: string;
  buyingRate: string | null;
  sellingRate: string | null;
  logisticsCost: string | null;
  otherCosts: string | null;
  clientId: number;
  clientName: string;
  taxRate: string;
  paymentTermsDays: number;
  agentName: string | null;
  truckNo: string | null;
  location: string;
};

export const eligibleColumns = {
  id: schema.deliveries.id,
  date: schema.deliveries.date,
  // What the client is invoiced on, and what the buying cost counts (docs/decisions/1220).
  tons: schema.deliveries.invoicedTons,
  invoicedTons: schema.deliveries.invoicedTons,
  paidTons: schema.deliveries.paidTons,
  buyingRate: schema.deliveries.buyingRate,
  sellingRate: schema.deliveries.sellingRate,
  logisticsCost: schema.deliveries.logisticsCost,
  otherCosts: schema.deliveries.otherCosts,
  clientId: sql<number>`${schema.clients.id}`,
  clientName: sql<string>`${schema.clients.name}`,
  taxRate: sql<string>`${schema.clients.taxRate}`,
  paymentTermsDays: sql<number>`${schema.clients.paymentTermsDays}`,
  agentName: schema.agents.name,
  truckNo: schema.deliveries.truckNo,
  location: schema.deliveries.location,
};

/**
 * What may be invoiced now: confirmed, with a client, on no invoice, and not waiting for its
 * client's ticket (docs/decisions/1220). The picker, a month's invoices and the invoice's own
 * update all read through this one condition.
 */
export const isEligible = invoiceableSql();

export type InvoiceFigures = {
  amount: string;
  profit: string;
  taxRate: string;
  expectedPaymentDate: string;
  clientId: number;
  clientName: string;
};

/**
 * Amount = sum of tons x sellingRate; profit = amount - (tons x buyingRate + logistics + other
 * costs), missing numbers counting as 0; each rounded half-up once, at the end. The expected
 * payment date is the issue date plus the client's payment terms, never before the invoice
 * exists (docs/decisions/0300, "Due date").
 */
export function invoiceFigures(rows: EligibleRow[], issueDate: string): InvoiceFigures {
  const { amount, profit } = invoiceTotalsOf(rows);
  return {
    amount: toFixed(amount),
    profit: toFixed(profit),
    taxRate: rows[0].taxRate,
    expectedPaymentDate: dueDateOf(issueDate, rows[0].paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS),
    clientId: rows[0].clientId,
    clientName: rows[0].clientName,
  };
}

export async function eligibleById(db: Executor, deliveryId: number) {
  const [row] = await db
    .select(eligibleColumns)
    .from(schema.deliveries)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(and(eq(schema.deliveries.id, deliveryId), isEligible));
  return row ?? null;
}

/**
 * A month's invoices are made in one transaction, one per client, and clients have their own
 * tax rates: each invoice takes its (month, rate) tax row before the owed and status rows, so a
 * second rate's tax row would be taken after the first invoice's status rows, the reverse of a
 * credit note's order (decision 0990, "Lock order"). Taking every tax row the batch needs first,
 * in rate order, keeps one order for all writes. A zero change: only the row lock is wanted.
 */
export async function lockTaxRows(tx: Tx, issueDate: string, rates: string[]) {
  for (const rate of [...new Set(rates)].sort((a, b) => compare(a, b))) {
    await tx.execute(sql`select pks_tax_month_add(${issueDate}::date, ${rate}::numeric, 0, 0, 0, 0, 0, 0)`);
  }
}

/** The largest amount (and profit, either way) an invoice's money columns hold: numeric(12,2). */
export const MAX_INVOICE_AMOUNT = "9999999999.99";

const over = (amount: string) =>
  compare(amount, MAX_INVOICE_AMOUNT) > 0 || compare(amount, `-${MAX_INVOICE_AMOUNT}`) < 0;

/** Refuses, with the figure, an invoice the database could not store (it was a 500). */
function assertFitsOneInvoice(figures: InvoiceFigures, deliveries: number) {
  if (!over(figures.amount) && !over(figures.profit)) return;
  const figure = over(figures.amount)
    ? `comes to ${formatNaira(figures.amount)}`
    : `has a profit of ${formatNaira(figures.profit)}`;
  const advice = deliveries > 1 ? "; invoice its deliveries one at a time" : "; check its tons and rates";
  throw new Refusal(
    fail(
      409,
      `The invoice for ${figures.clientName} ${figure}, more than one invoice can hold (${formatNaira(MAX_INVOICE_AMOUNT)})${advice}`,
    ),
  );
}

/** One bind parameter holding every id, however many (postgres.js refuses 65,534 parameters). */
const idArray = (ids: readonly number[]) => sql`${`{${ids.join(",")}}`}::int[]`;

/** The earliest of the rows' dates (the month close check needs only that one). */
export const earliestDate = (rows: readonly EligibleRow[]) =>
  rows.reduce((min, r) => (r.date < min ? r.date : min), rows[0].date);

/** One invoice as issued, and its audit event for the write to hand to the pipeline. */
export type IssuedInvoice = { invoice: Invoice; audit: Omit<AuditEvent, "actor" | "context"> };

/**
 * Issues one invoice for `rows` (one client's deliveries), dated `issueDate`, the business date
 * of `createdAt`: takes the next number (or checks `requestedNo` is it), inserts the invoice,
 * moves its deliveries to invoiced and keeps the lines it covers. The write checked the closed
 * month for the dates it lands on (decision 0901); this refuses an invoice too large to store.
 */
export async function insertInvoice(
  tx: Tx,
  rows: EligibleRow[],
  user: Pick<User, "id">,
  { issueDate, createdAt, requestedNo }: { issueDate: string; createdAt: Date; requestedNo?: string },
): Promise<IssuedInvoice> {
  const figures = invoiceFigures(rows, issueDate);
  assertFitsOneInvoice(figures, rows.length);
  const invoiceNo = await claimInvoiceNumber(tx, requestedNo);
  const [invoice] = await tx
    .insert(schema.invoices)
    .values({
      invoiceNo,
      deliveryId: rows[0].id,
      clientId: figures.clientId,
      amount: figures.amount,
      taxRate: figures.taxRate,
      profit: figures.profit,
      expectedPaymentDate: figures.expectedPaymentDate,
      issueDate,
      createdBy: user.id,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  // Only deliveries still confirmed and uninvoiced move: a delivery is invoiced once. The ids
  // go as one array parameter: a month's invoice can cover thousands (decision 0921).
  const ids = rows.map((r) => r.id);
  const moved = await tx
    .update(schema.deliveries)
    .set({ status: "invoiced", invoiceId: invoice.id, updatedAt: new Date() })
    .where(and(sql`${schema.deliveries.id} = any(${idArray(ids)})`, isEligible))
    .returning({ id: schema.deliveries.id });
  if (moved.length !== rows.length) throw new Refusal(fail(409, "This delivery has already been invoiced"));
  // What the invoice covers, kept when a void frees its deliveries (docs/decisions/0921): read
  // from the deliveries it now holds, in the database, with no parameter per line.
  const d = schema.deliveries;
  const a = schema.agents;
  await tx.execute(sql`
    insert into ${schema.invoiceLines}
      (invoice_id, delivery_id, date, agent_name, truck_no, location, tons, selling_rate, amount,
       received_tons, moisture, quality_deduction_tons)
    select ${invoice.id}::int, ${d.id}, ${d.date}, ${a.name}, ${d.truckNo}, ${d.location}, ${d.invoicedTons},
           ${d.sellingRate}, coalesce(${revenueSql()}, 0),
           ${d.receivedTons}, case when ${d.receivedTons} is null then null else ${d.moisture} end, ${d.qualityDeductionTons}
    from ${d} left join ${a} on ${a.id} = ${d.agentId}
    where ${d.invoiceId} = ${invoice.id}`);
  // The event names how many deliveries and the first and last id, not each one: invoice_lines
  // keeps the list, and a month's invoice would put thousands of ids in every reading of it.
  return {
    invoice,
    audit: {
      action: "invoice.create",
      entityType: "invoice",
      entityId: invoice.id,
      after: { ...invoice, ...idSpanFields("delivery", idSpan(ids)) },
    },
  };
}

// ---- Void (docs/decisions/0920): only an invoice nothing has settled; its number stays taken,
// its deliveries go back to confirmed (invoice_lines keeps what it covered).

export const VOID_HAS_SETTLEMENTS =
  "This invoice has payments or credit notes and cannot be voided: issue a credit note instead";
export const ALREADY_VOID = "This invoice is already void";

/**
 * How many payments (reversals and the payments they took back included) and credit notes an
 * invoice has. An invoice with any cannot be voided: its history shows money moving on it
 * (docs/decisions/0920); the Void dialog asks the same question before it offers the form.
 */
export async function settlementEntries(
  invoiceId: number,
  db?: Executor,
): Promise<{ payments: number; credits: number }> {
  db ??= await getDb();
  const [counts] = await db
    .select({
      payments: sql<number>`(select count(*) from ${schema.payments} where ${schema.payments.invoiceId} = ${invoiceId})::int`,
      credits: sql<number>`(select count(*) from ${schema.creditNotes} where ${schema.creditNotes.invoiceId} = ${invoiceId})::int`,
    })
    .from(sql`(select 1) as one`);
  return counts;
}

/** Whether the Void dialog may offer its form: the invoice is not void and has no settlement entry. */
export async function isVoidable(actor: Actor, invoice: { id: number; storedStatus: string }): Promise<boolean> {
  assertCan(actor, "invoice.void", `invoice/${invoice.id}`);
  if (invoice.storedStatus === "void") return false;
  const { payments, credits } = await settlementEntries(invoice.id);
  return payments === 0 && credits === 0;
}

import { and, asc, desc, eq, gte, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Executor, type Tx, type User } from "~/db.server";
import { addDays, isValidDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import { add, compare, mul, sub, toFixed } from "~/utils/money";

// Invoice numbers are sequential numeric strings: the highest existing number plus one, 127
// when none exist. They are allocated inside the invoice's transaction under an advisory
// lock, so concurrent requests queue and numbers never repeat or skip.
export const FIRST_INVOICE_NUMBER = 127;
const INVOICE_NUMBER_LOCK = sql`select pg_advisory_xact_lock(7261002)`;
export const DEFAULT_PAYMENT_TERMS_DAYS = 30;

type Failure = { ok: false; status: 400 | 404 | 409; message: string; fieldErrors?: Record<string, string[]> };

export async function highestInvoiceNumber(db: Executor): Promise<number | null> {
  const [row] = await db.select({ max: sql<string | null>`max(${schema.invoices.invoiceNo}::bigint)::text` }).from(schema.invoices);
  return row.max === null ? null : Number(row.max);
}

export async function nextInvoiceNumber(db?: Executor): Promise<string> {
  db ??= await getDb();
  const highest = await highestInvoiceNumber(db);
  return String(highest === null ? FIRST_INVOICE_NUMBER : highest + 1);
}

type EligibleRow = {
  id: number;
  date: string;
  tons: string;
  buyingRate: string | null;
  sellingRate: string | null;
  logisticsCost: string | null;
  otherCosts: string | null;
  clientId: number;
  clientName: string;
  taxRate: string;
  paymentTermsDays: number;
  agentName: string | null;
};

const eligibleColumns = {
  id: schema.deliveries.id,
  date: schema.deliveries.date,
  tons: schema.deliveries.tons,
  buyingRate: schema.deliveries.buyingRate,
  sellingRate: schema.deliveries.sellingRate,
  logisticsCost: schema.deliveries.logisticsCost,
  otherCosts: schema.deliveries.otherCosts,
  clientId: sql<number>`${schema.clients.id}`,
  clientName: sql<string>`${schema.clients.name}`,
  taxRate: sql<string>`${schema.clients.taxRate}`,
  paymentTermsDays: sql<number>`${schema.clients.paymentTermsDays}`,
  agentName: schema.agents.name,
};

const isEligible = and(eq(schema.deliveries.status, "confirmed"), isNull(schema.deliveries.invoiceId));

/** Confirmed deliveries with a client and no invoice: what the Generate Invoice dialog offers. */
export async function listEligibleDeliveries(db?: Executor): Promise<EligibleRow[]> {
  db ??= await getDb();
  return db
    .select(eligibleColumns)
    .from(schema.deliveries)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(isEligible)
    .orderBy(desc(schema.deliveries.date), desc(schema.deliveries.id))
    .limit(500);
}

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
 * payment date is the latest delivery date plus the client's payment terms.
 */
export function invoiceFigures(rows: EligibleRow[]): InvoiceFigures {
  const amount = add(...rows.map((r) => mul(r.tons, r.sellingRate ?? "0")));
  const cost = add(...rows.map((r) => add(mul(r.tons, r.buyingRate ?? "0"), r.logisticsCost ?? "0", r.otherCosts ?? "0")));
  const latest = rows.reduce((max, r) => (r.date > max ? r.date : max), rows[0].date);
  return {
    amount: toFixed(amount),
    profit: toFixed(sub(amount, cost)),
    taxRate: rows[0].taxRate,
    expectedPaymentDate: addDays(latest, rows[0].paymentTermsDays ?? DEFAULT_PAYMENT_TERMS_DAYS),
    clientId: rows[0].clientId,
    clientName: rows[0].clientName,
  };
}

async function eligibleById(db: Executor, deliveryId: number) {
  const [row] = await db
    .select(eligibleColumns)
    .from(schema.deliveries)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(and(eq(schema.deliveries.id, deliveryId), isEligible));
  return row ?? null;
}

/** What the dialog shows for a chosen delivery: every figure from the database. */
export async function previewInvoice(deliveryId: number) {
  const db = await getDb();
  const row = await eligibleById(db, deliveryId);
  if (!row) return null;
  return { delivery: row, ...invoiceFigures([row]), invoiceNo: await nextInvoiceNumber(db) };
}

async function insertInvoice(tx: Tx, rows: EligibleRow[], user: Pick<User, "id">, requestedNo?: string) {
  await tx.execute(INVOICE_NUMBER_LOCK);
  const figures = invoiceFigures(rows);
  let invoiceNo = await nextInvoiceNumber(tx);
  if (requestedNo !== undefined) {
    const [taken] = await tx.select({ id: schema.invoices.id }).from(schema.invoices).where(eq(schema.invoices.invoiceNo, requestedNo));
    if (taken) throw new InvoiceConflict(`Invoice number ${requestedNo} is already used`);
    invoiceNo = requestedNo;
  }
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
      createdBy: user.id,
    })
    .returning();
  // Only deliveries still confirmed and uninvoiced move: a delivery is invoiced once.
  const moved = await tx
    .update(schema.deliveries)
    .set({ status: "invoiced", invoiceId: invoice.id, updatedAt: new Date() })
    .where(and(inArray(schema.deliveries.id, rows.map((r) => r.id)), isEligible))
    .returning({ id: schema.deliveries.id });
  if (moved.length !== rows.length) throw new InvoiceConflict("This delivery has already been invoiced");
  return invoice;
}

class InvoiceConflict extends Error {}

export type CreateInvoiceResult = { ok: true; invoice: typeof schema.invoices.$inferSelect } | Failure;

/** One invoice for one confirmed delivery with a client (the Generate Invoice dialog, POST /api/invoices). */
export async function createInvoiceForDelivery(
  user: Pick<User, "id">,
  input: { deliveryId?: unknown; invoiceNo?: unknown },
): Promise<CreateInvoiceResult> {
  const deliveryId = typeof input.deliveryId === "number" ? input.deliveryId : typeof input.deliveryId === "string" && /^\d{1,9}$/.test(input.deliveryId) ? Number(input.deliveryId) : null;
  if (!deliveryId) return { ok: false, status: 400, message: "Please select a delivery", fieldErrors: { deliveryId: ["Please select a delivery"] } };
  let requestedNo: string | undefined;
  if (input.invoiceNo !== undefined && input.invoiceNo !== null && input.invoiceNo !== "") {
    const no = String(input.invoiceNo).trim();
    if (!/^\d{1,18}$/.test(no)) return { ok: false, status: 400, message: "Invoice number must be numeric", fieldErrors: { invoiceNo: ["Invoice number must be numeric"] } };
    requestedNo = String(BigInt(no));
  }
  const db = await getDb();
  try {
    const invoice = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(schema.deliveries).where(eq(schema.deliveries.id, deliveryId)).for("update");
      if (!locked) throw new NotFound();
      const row = await eligibleById(tx, deliveryId);
      if (!row) throw new InvoiceConflict(locked.status === "invoiced" || locked.invoiceId ? "This delivery has already been invoiced" : "Only confirmed deliveries with a client can be invoiced");
      return insertInvoice(tx, [row], user, requestedNo);
    });
    return { ok: true, invoice };
  } catch (error) {
    if (error instanceof NotFound) return { ok: false, status: 404, message: "Delivery not found" };
    if (error instanceof InvoiceConflict) return { ok: false, status: 409, message: error.message };
    throw error;
  }
}

class NotFound extends Error {}

/**
 * One invoice per client for a month's confirmed, uninvoiced deliveries (the reconciliation
 * button "Generate Invoice #N"), all in one transaction.
 */
export async function createInvoicesForMonth(user: Pick<User, "id">, yearMonth: string) {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(yearMonth)) return { ok: false as const, status: 400 as const, message: "Choose a month" };
  const from = `${yearMonth}-01`;
  const to = addDays(addDays(from, 31).slice(0, 8) + "01", -1);
  const db = await getDb();
  try {
    const invoices = await db.transaction(async (tx) => {
      const rows = await tx
        .select(eligibleColumns)
        .from(schema.deliveries)
        .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
        .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
        .where(and(isEligible, gte(schema.deliveries.date, from), lte(schema.deliveries.date, to)))
        .orderBy(asc(schema.deliveries.date), asc(schema.deliveries.id))
        .for("update", { of: schema.deliveries });
      if (!rows.length) throw new InvoiceConflict("This month has no confirmed deliveries with a client left to invoice");
      const byClient = new Map<number, EligibleRow[]>();
      for (const r of rows) byClient.set(r.clientId, [...(byClient.get(r.clientId) ?? []), r]);
      const created = [];
      for (const group of [...byClient.values()].sort((a, b) => a[0].clientName.localeCompare(b[0].clientName))) {
        created.push(await insertInvoice(tx, group, user));
      }
      return created;
    });
    return { ok: true as const, invoices };
  } catch (error) {
    if (error instanceof InvoiceConflict) return { ok: false as const, status: 409 as const, message: error.message };
    throw error;
  }
}

export type InvoiceStatusFilter = "pending" | "partial" | "paid" | "overdue";

export type InvoiceView = {
  id: number;
  invoiceNo: string;
  deliveryId: number;
  clientId: number;
  clientName: string;
  amount: string;
  amountPaid: string;
  balance: string;
  taxRate: string;
  profit: string;
  expectedPaymentDate: string;
  paymentStatus: "pending" | "partial" | "paid" | "overdue";
  storedStatus: "pending" | "partial" | "paid" | "overdue";
  createdAt: string;
};

/** Overdue: money still owed and the expected payment date before today (business time zone). */
export function effectiveStatus(inv: { paymentStatus: InvoiceView["storedStatus"]; amount: string; amountPaid: string; expectedPaymentDate: string }, today: string): InvoiceView["paymentStatus"] {
  const owed = compare(inv.amountPaid, inv.amount) < 0;
  if (owed && inv.expectedPaymentDate < today) return "overdue";
  return inv.paymentStatus;
}

export async function listInvoices(
  filters: { status?: string | null; clientId?: number | null; from?: string | null; to?: string | null; invoiceIds?: number[] } = {},
  now = new Date(),
): Promise<InvoiceView[]> {
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const where: SQL[] = [];
  const owed = sql`${schema.invoices.amountPaid} < ${schema.invoices.amount}`;
  if (filters.status === "overdue") where.push(and(owed, sql`${schema.invoices.expectedPaymentDate} < ${today}`)!);
  else if (filters.status === "pending" || filters.status === "partial") {
    where.push(eq(schema.invoices.paymentStatus, filters.status), sql`not (${owed} and ${schema.invoices.expectedPaymentDate} < ${today})`);
  } else if (filters.status === "paid") where.push(eq(schema.invoices.paymentStatus, "paid"));
  if (filters.clientId) where.push(eq(schema.invoices.clientId, filters.clientId));
  if (filters.from && isValidDate(filters.from)) where.push(gte(schema.invoices.expectedPaymentDate, filters.from));
  if (filters.to && isValidDate(filters.to)) where.push(lte(schema.invoices.expectedPaymentDate, filters.to));
  if (filters.invoiceIds) where.push(inArray(schema.invoices.id, filters.invoiceIds));
  const rows = await db
    .select({ invoice: schema.invoices, clientName: schema.clients.name })
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(...where))
    .orderBy(desc(schema.invoices.createdAt), desc(schema.invoices.id));
  return rows.map(({ invoice, clientName }) => ({
    id: invoice.id,
    invoiceNo: invoice.invoiceNo,
    deliveryId: invoice.deliveryId,
    clientId: invoice.clientId,
    clientName,
    amount: invoice.amount,
    amountPaid: invoice.amountPaid,
    balance: toFixed(sub(invoice.amount, invoice.amountPaid)),
    taxRate: invoice.taxRate,
    profit: invoice.profit,
    expectedPaymentDate: invoice.expectedPaymentDate,
    paymentStatus: effectiveStatus(invoice, today),
    storedStatus: invoice.paymentStatus,
    createdAt: invoice.createdAt.toISOString(),
  }));
}

export async function getInvoice(id: number, now = new Date()) {
  const [invoice] = await listInvoices({ invoiceIds: [id] }, now);
  return invoice ?? null;
}

/** Pending, Overdue and Paid counts for the summary cards, counted in SQL. */
export async function invoiceSummary(now = new Date()) {
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${schema.invoices.paymentStatus} <> 'paid' and not ${schema.invoices.expectedPaymentDate} < ${today})::int`,
      overdue: sql<number>`count(*) filter (where ${schema.invoices.amountPaid} < ${schema.invoices.amount} and ${schema.invoices.expectedPaymentDate} < ${today})::int`,
      paid: sql<number>`count(*) filter (where ${schema.invoices.paymentStatus} = 'paid')::int`,
    })
    .from(schema.invoices);
  return row;
}

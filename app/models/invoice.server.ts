import { and, asc, desc, eq, getTableColumns, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { parseFields } from "~/schemas/parse-fields.server";
import { getDb, schema, type Executor, type Invoice, type Tx, type User } from "~/db.server";
import { VoidInvoiceSchema } from "~/schemas/corrections";
import { formatMonth, isValidDate, todayIn } from "~/utils/dates";
import { env } from "~/utils/env.server";
import {
  claimKey,
  completeKey,
  deleteOldKeys,
  idempotencyFailure,
  INVALID_KEY_MESSAGE,
  requestHash,
} from "~/utils/idempotency.server";
import { FIRST_PAGE, keysetBatches, keysetOrder, keysetWhere, toPage } from "~/utils/keyset.server";
import { assertCan, refuse, type Actor } from "~/rules/capabilities.server";
import { eligibleSql, invoiceTotalsOf, isInvoiced, revenueSql } from "~/rules/deliveries.server";
import {
  balanceOf,
  clientCreditSql,
  effectiveStatus,
  isVoid,
  overdueSql,
  owedSql,
  dueDateOf,
  settledOf,
  taxContained,
} from "~/rules/invoices.server";
import { compare, formatNaira, toFixed } from "~/utils/money";
import { parseId, parseInvoiceNo, type Page, type PageRequest } from "~/utils/params";
import { fail, failOn, type Failure, Refusal, type Result } from "~/utils/result";
import { creditNoteEntryColumns } from "./credit-note.server";
import { lockKeptTotals, paymentLinkColumns } from "./payment.server";
import { idSpan, idSpanFields, listAuditEvents, recordAudit, type AuditEventView, type IdSpan } from "./audit.server";
import { assertPeriodOpen, isPeriodClosed } from "./period.server";
import { searchTerm } from "~/utils/text";
import { firstDayOfMonth, isYearMonth, lastDayOfMonth } from "~/utils/year-month";

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
async function lockInvoiceCounter(tx: Tx) {
  await tx
    .insert(schema.invoiceCounter)
    .values({ id: 1, lastNo: FIRST_INVOICE_NUMBER - 1 })
    .onConflictDoUpdate({ target: schema.invoiceCounter.id, set: { lastNo: sql`${schema.invoiceCounter.lastNo}` } });
}

/**
 * Takes the next number, holding the counter row until commit. A number chosen by hand
 * (`POST /api/invoices` with `invoiceNo`) must be that next number: numbers run without gaps
 * (decision 0501, addendum of stop 33), so a number further on would leave a gap, and one far
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
    throw new InvoiceConflict(
      `Invoice number ${requestedNo} ${why}: invoice numbers run without gaps, and the next is ${next}`,
    );
  }
  return next;
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
  truckNo: string | null;
  location: string;
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
  truckNo: schema.deliveries.truckNo,
  location: schema.deliveries.location,
};

const isEligible = eligibleSql();

export const PICKER_PAGE_SIZE = 10;
export type PickerFilters = { agent?: string; date?: string; location?: string };

export function parsePickerFilters(params: URLSearchParams): PickerFilters {
  const filters: PickerFilters = {};
  const agent = searchTerm(params.get("agent"), 200);
  if (agent) filters.agent = agent;
  const location = searchTerm(params.get("location"), 200);
  if (location) filters.location = location;
  const date = params.get("date");
  if (date && isValidDate(date)) filters.date = date;
  return filters;
}

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const PICKER_KEYSET = { key: schema.deliveries.date, id: schema.deliveries.id };

/**
 * Confirmed deliveries with a client and no invoice: what Generate Invoice offers, searched
 * by agent, date and location and paged newest first through the partial index on exactly
 * those deliveries (docs/decisions/0502).
 */
export async function listEligibleDeliveries(
  actor: Actor,
  filters: PickerFilters = {},
  { limit = PICKER_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
  db?: Executor,
): Promise<Page<EligibleRow>> {
  assertCan(actor, "invoice.manage", "invoices/eligible-deliveries");
  db ??= await getDb();
  const rows = await db
    .select(eligibleColumns)
    .from(schema.deliveries)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
    .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
    .where(
      and(
        isEligible,
        filters.agent ? sql`${schema.agents.name} ilike ${contains(filters.agent)}` : undefined,
        filters.location ? sql`${schema.deliveries.location} ilike ${contains(filters.location)}` : undefined,
        filters.date ? eq(schema.deliveries.date, filters.date) : undefined,
        keysetWhere(PICKER_KEYSET, page),
      ),
    )
    .orderBy(...keysetOrder(PICKER_KEYSET, page))
    .limit(limit + 1);
  return toPage(rows, limit, page, (r) => ({ key: r.date, id: r.id }));
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
export async function previewInvoice(actor: Actor, deliveryId: number) {
  assertCan(actor, "invoice.manage", `invoice/delivery/${deliveryId}`);
  const db = await getDb();
  const row = await eligibleById(db, deliveryId);
  if (!row) return null;
  const issueDate = todayIn(env().APP_TIME_ZONE);
  return { delivery: row, issueDate, ...invoiceFigures([row], issueDate), invoiceNo: await nextInvoiceNumber(db) };
}

/**
 * A month's invoices are made in one transaction, one per client, and clients have their own
 * tax rates: each invoice takes its (month, rate) tax row before the owed and status rows, so a
 * second rate's tax row would be taken after the first invoice's status rows, the reverse of a
 * credit note's order (decision 0990, "Lock order"). Taking every tax row the batch needs first,
 * in rate order, keeps one order for all writes. A zero change: only the row lock is wanted.
 */
async function lockTaxRows(tx: Tx, issueDate: string, rates: string[]) {
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
  throw new InvoiceConflict(
    `The invoice for ${figures.clientName} ${figure}, more than one invoice can hold (${formatNaira(MAX_INVOICE_AMOUNT)})${advice}`,
  );
}

/** One bind parameter holding every id, however many (postgres.js refuses 65,534 parameters). */
const idArray = (ids: readonly number[]) => sql`${`{${ids.join(",")}}`}::int[]`;

/** The earliest of the rows' dates (the month close check needs only that one). */
const earliestDate = (rows: readonly EligibleRow[]) =>
  rows.reduce((min, r) => (r.date < min ? r.date : min), rows[0].date);

async function insertInvoice(
  tx: Tx,
  rows: EligibleRow[],
  user: Pick<User, "id">,
  requestedNo?: string,
  createdAt: Date = new Date(),
) {
  // The invoice is dated today; it also changes its deliveries (to invoiced) and counts in
  // their month's reconciliation: none of those dates may be in a closed month (decision 0901).
  // One moment for both: the time it carries and its business date (the tax report's month).
  const issueDate = todayIn(env().APP_TIME_ZONE, createdAt);
  await assertPeriodOpen(tx, issueDate, earliestDate(rows));
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
  // go as one array parameter: a month's invoice can cover thousands (decision 0921, stop 33).
  const ids = rows.map((r) => r.id);
  const moved = await tx
    .update(schema.deliveries)
    .set({ status: "invoiced", invoiceId: invoice.id, updatedAt: new Date() })
    .where(and(sql`${schema.deliveries.id} = any(${idArray(ids)})`, isEligible))
    .returning({ id: schema.deliveries.id });
  if (moved.length !== rows.length) throw new InvoiceConflict("This delivery has already been invoiced");
  // What the invoice covers, kept when a void frees its deliveries (docs/decisions/0921): read
  // from the deliveries it now holds, in the database, with no parameter per line.
  const d = schema.deliveries;
  const a = schema.agents;
  await tx.execute(sql`
    insert into ${schema.invoiceLines}
      (invoice_id, delivery_id, date, agent_name, truck_no, location, tons, selling_rate, amount)
    select ${invoice.id}::int, ${d.id}, ${d.date}, ${a.name}, ${d.truckNo}, ${d.location}, ${d.tons}, ${d.sellingRate},
           coalesce(${revenueSql()}, 0)
    from ${d} left join ${a} on ${a.id} = ${d.agentId}
    where ${d.invoiceId} = ${invoice.id}`);
  // The event names how many deliveries and the first and last id, not each one: invoice_lines
  // keeps the list, and a month's invoice would put thousands of ids in every reading of it.
  await recordAudit(tx, {
    actor: user,
    action: "invoice.create",
    entityType: "invoice",
    entityId: invoice.id,
    after: { ...invoice, ...idSpanFields("delivery", idSpan(ids)) },
  });
  return invoice;
}

class InvoiceConflict extends Error {}

export type CreateInvoiceResult =
  { ok: true; invoice: typeof schema.invoices.$inferSelect; replayed: boolean } | Failure;

// `now` is the clock of the invoice's issue (its time and business date): the server's own
// clock unless a seed or a test issues it at another moment.
type KeyOption = { idempotencyKey?: string | null; now?: Date };

/** One invoice for one confirmed delivery with a client (the Generate Invoice dialog, POST /api/invoices). */
export async function createInvoiceForDelivery(
  user: Actor,
  input: { deliveryId?: unknown; invoiceNo?: unknown },
  { idempotencyKey, now }: KeyOption = {},
): Promise<CreateInvoiceResult> {
  const refused = refuse(user, "invoice.manage", `delivery/${String(input.deliveryId ?? "")}/invoice`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  const deliveryId = parseId(input.deliveryId);
  if (!deliveryId)
    return {
      ok: false,
      status: 400,
      message: "Please select a delivery",
      fieldErrors: { deliveryId: ["Please select a delivery"] },
    };
  let requestedNo: string | undefined;
  if (input.invoiceNo !== undefined && input.invoiceNo !== null && input.invoiceNo !== "") {
    const no = parseInvoiceNo(input.invoiceNo);
    if (no === null) return failOn(400, "invoiceNo", "Invoice number must be numeric");
    requestedNo = no;
  }
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<CreateInvoiceResult> => {
      // The key is claimed first: a duplicate waits for the first to commit, then replays it.
      if (idempotencyKey) {
        const hash = requestHash({ deliveryId, invoiceNo: requestedNo });
        const existing = await claimKey(tx, { userId: user.id, key: idempotencyKey, scope: "invoice.create", hash });
        if (existing) {
          const [invoice] = await tx
            .select()
            .from(schema.invoices)
            .where(eq(schema.invoices.id, Number(existing)));
          if (!invoice) throw new InvoiceConflict("This invoice was already created");
          return { ok: true, invoice, replayed: true };
        }
      }
      const [locked] = await tx
        .select()
        .from(schema.deliveries)
        .where(eq(schema.deliveries.id, deliveryId))
        .for("update");
      if (!locked) throw new NotFound();
      const row = await eligibleById(tx, deliveryId);
      if (!row)
        throw new InvoiceConflict(
          isInvoiced(locked)
            ? "This delivery has already been invoiced"
            : "Only confirmed deliveries with a client can be invoiced",
        );
      const invoice = await insertInvoice(tx, [row], user, requestedNo, now);
      if (idempotencyKey) {
        await completeKey(tx, { userId: user.id, key: idempotencyKey, resourceId: String(invoice.id) });
        await deleteOldKeys(tx);
      }
      return { ok: true, invoice, replayed: false };
    });
  } catch (error) {
    if (error instanceof NotFound) return { ok: false, status: 404, message: "Delivery not found" };
    if (isPeriodClosed(error)) return error.failure;
    if (error instanceof InvoiceConflict) return { ok: false, status: 409, message: error.message };
    return idempotencyFailure(error);
  }
}

class NotFound extends Error {}

/**
 * One invoice per client for a month's confirmed, uninvoiced deliveries (the reconciliation
 * button "Generate Invoice"), all in one transaction. `expectedFirstNo`, the number the
 * confirmation showed, must still be the next one: the invoices never take numbers other than
 * those the person confirmed (decision 0501).
 */
export async function createInvoicesForMonth(
  user: Actor,
  yearMonth: string,
  { idempotencyKey, now = new Date(), expectedFirstNo }: KeyOption & { expectedFirstNo?: unknown } = {},
): Promise<{ ok: true; invoices: (typeof schema.invoices.$inferSelect)[]; replayed: boolean } | Failure> {
  const refused = refuse(user, "invoice.manage", `invoices/month/${String(yearMonth).slice(0, 7)}`);
  if (refused) return refused;
  if (idempotencyKey === null) return { ok: false, status: 400, message: INVALID_KEY_MESSAGE };
  if (!isYearMonth(yearMonth)) return { ok: false as const, status: 400 as const, message: "Choose a month" };
  const expected = expectedFirstNo === undefined || expectedFirstNo === null ? null : parseInvoiceNo(expectedFirstNo);
  if (expectedFirstNo !== undefined && expectedFirstNo !== null && expected === null)
    return { ok: false, status: 400, message: "The invoice number shown must be a number" };
  const from = firstDayOfMonth(yearMonth);
  const to = lastDayOfMonth(yearMonth);
  // A month that has not begun has nothing true to invoice (decision 0841).
  if (from > todayIn(env().APP_TIME_ZONE, now))
    return fail(400, `${formatMonth(yearMonth)} has not begun: it cannot be invoiced yet`);
  const db = await getDb();
  try {
    return await db.transaction(async (tx) => {
      if (idempotencyKey) {
        const existing = await claimKey(tx, {
          userId: user.id,
          key: idempotencyKey,
          scope: "invoice.month",
          hash: requestHash({ month: yearMonth }),
        });
        if (existing) {
          const ids = existing.split(",").map(Number);
          const invoices = await tx
            .select()
            .from(schema.invoices)
            .where(inArray(schema.invoices.id, ids))
            .orderBy(asc(schema.invoices.id));
          return { ok: true as const, invoices, replayed: true };
        }
      }
      const rows = await tx
        .select(eligibleColumns)
        .from(schema.deliveries)
        .innerJoin(schema.clients, eq(schema.clients.id, schema.deliveries.clientId))
        .leftJoin(schema.agents, eq(schema.agents.id, schema.deliveries.agentId))
        .where(and(isEligible, gte(schema.deliveries.date, from), lte(schema.deliveries.date, to)))
        .orderBy(asc(schema.deliveries.date), asc(schema.deliveries.id))
        .for("update", { of: schema.deliveries });
      if (!rows.length)
        throw new InvoiceConflict("This month has no confirmed deliveries with a client left to invoice");
      const byClient = new Map<number, EligibleRow[]>();
      for (const r of rows) {
        const group = byClient.get(r.clientId);
        if (group) group.push(r);
        else byClient.set(r.clientId, [r]);
      }
      const created = [];
      const groups = [...byClient.values()].sort((a, b) => a[0].clientName.localeCompare(b[0].clientName));
      // One clock reading for the batch (`now`): its invoices share one issue date, even at midnight.
      // The counter first, as a single invoice takes it before anything its insert touches:
      // taken after the tax rows, a single invoice at one of the batch's rates would hold the
      // counter and wait on the tax row while the batch held the row and waited on the counter.
      await lockInvoiceCounter(tx);
      if (expected !== null) {
        const next = String((await highestInvoiceNumber(tx)) + 1);
        if (next !== expected)
          throw new Refusal(
            failOn(
              409,
              "expectedNo",
              `Invoice #${expected} has been issued since this was shown: the next number is now #${next}. Nothing was created.`,
            ),
          );
      }
      await lockTaxRows(
        tx,
        todayIn(env().APP_TIME_ZONE, now),
        groups.map((g) => g[0].taxRate),
      );
      // One invoice per client: each takes its client's balance rows, then the status roll-up,
      // which a payment on another client's invoice takes in the same order. Several clients in
      // one transaction would cross those; the batch takes the kept totals whole first instead
      // (decision 0995, "Lock order").
      await lockKeptTotals(tx);
      for (const group of groups) created.push(await insertInvoice(tx, group, user, undefined, now));
      if (idempotencyKey) {
        await completeKey(tx, { userId: user.id, key: idempotencyKey, resourceId: created.map((i) => i.id).join(",") });
        await deleteOldKeys(tx);
      }
      return { ok: true as const, invoices: created, replayed: false };
    });
  } catch (error) {
    if (error instanceof InvoiceConflict) return { ok: false as const, status: 409 as const, message: error.message };
    if (error instanceof Refusal) return error.failure;
    if (isPeriodClosed(error)) return error.failure;
    return idempotencyFailure(error);
  }
}

/** A month's refusal because another invoice took the number its confirmation showed: ask again. */
export const numbersMovedOn = (failure: Failure) => Boolean(failure.fieldErrors?.expectedNo);

/** A stored or shown status, or "credit": the invoices carrying a client credit (docs/decisions/0920). */
export type InvoiceStatusFilter = "pending" | "partial" | "paid" | "overdue" | "void" | "credit";

export type InvoiceView = {
  id: number;
  invoiceNo: string;
  deliveryId: number;
  clientId: number;
  clientName: string;
  amount: string;
  amountPaid: string;
  amountCredited: string;
  /** amount - paid - credited; negative is the client's credit; 0 when void. */
  balance: string;
  taxRate: string;
  /** The tax contained in the (tax-inclusive) amount, to the kobo. */
  taxAmount: string;
  profit: string;
  expectedPaymentDate: string;
  paymentStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  storedStatus: "pending" | "partial" | "paid" | "overdue" | "void";
  voidReason: string | null;
  voidedAt: string | null;
  /** The business date it was issued (decision 0990): the date its document carries. */
  issueDate: string;
  createdAt: string;
};

/** Overdue and the status shown are rules of ~/rules/invoices.server. */
export { effectiveStatus };

export const INVOICE_PAGE_SIZE = 50;
export const INVOICE_STATUSES: InvoiceStatusFilter[] = ["pending", "partial", "overdue", "paid", "void", "credit"];

export type InvoiceFilters = {
  status?: InvoiceStatusFilter | null;
  clientId?: number | null;
  /** Due-date range. */
  from?: string | null;
  to?: string | null;
  invoiceNo?: string | null;
  invoiceIds?: number[];
};

/**
 * Filters from a query string. Values that cannot match anything are dropped (a page shows
 * the unfiltered list); `invalid` names the first so an /api route can answer 400.
 */
export function parseInvoiceFilters(params: URLSearchParams): { filters: InvoiceFilters; invalid: string | null } {
  const filters: InvoiceFilters = {};
  let invalid: string | null = null;
  const status = params.get("status");
  if (status) {
    if ((INVOICE_STATUSES as string[]).includes(status)) filters.status = status as InvoiceStatusFilter;
    else invalid ??= "The status is not valid";
  }
  const client = params.get("clientId");
  if (client) {
    filters.clientId = parseId(client);
    if (filters.clientId === null) invalid ??= "The client id is not valid";
  }
  for (const key of ["from", "to"] as const) {
    const value = params.get(key);
    if (!value) continue;
    if (isValidDate(value)) filters[key] = value;
    else invalid ??= `The ${key} date is not valid`;
  }
  const no = params.get("invoiceNo")?.trim().replace(/^#/, "");
  if (no) {
    filters.invoiceNo = parseInvoiceNo(no, { search: true });
    if (filters.invoiceNo === null) invalid ??= "The invoice number is not valid";
  }
  return { filters, invalid };
}

export const isFiltered = (f: InvoiceFilters) => Boolean(f.status || f.clientId || f.from || f.to || f.invoiceNo);

const owed = owedSql();

function invoiceWhere(filters: InvoiceFilters, today: string): SQL[] {
  const where: SQL[] = [];
  const overdue = overdueSql(today);
  if (filters.status === "overdue") where.push(overdue);
  else if (filters.status === "pending" || filters.status === "partial") {
    where.push(eq(schema.invoices.paymentStatus, filters.status), sql`not ${overdue}`);
  } else if (filters.status === "paid" || filters.status === "void")
    where.push(eq(schema.invoices.paymentStatus, filters.status));
  else if (filters.status === "credit") where.push(clientCreditSql());
  if (filters.clientId) where.push(eq(schema.invoices.clientId, filters.clientId));
  if (filters.from) where.push(gte(schema.invoices.expectedPaymentDate, filters.from));
  if (filters.to) where.push(lte(schema.invoices.expectedPaymentDate, filters.to));
  if (filters.invoiceNo) where.push(eq(schema.invoices.invoiceNo, filters.invoiceNo));
  if (filters.invoiceIds) where.push(inArray(schema.invoices.id, filters.invoiceIds));
  return where;
}

const invoiceColumns = {
  id: schema.invoices.id,
  invoiceNo: schema.invoices.invoiceNo,
  deliveryId: schema.invoices.deliveryId,
  clientId: schema.invoices.clientId,
  clientName: schema.clients.name,
  amount: schema.invoices.amount,
  amountPaid: schema.invoices.amountPaid,
  amountCredited: schema.invoices.amountCredited,
  taxRate: schema.invoices.taxRate,
  profit: schema.invoices.profit,
  expectedPaymentDate: schema.invoices.expectedPaymentDate,
  paymentStatus: schema.invoices.paymentStatus,
  voidReason: schema.invoices.voidReason,
  voidedAt: schema.invoices.voidedAt,
  issueDate: schema.invoices.issueDate,
  createdAt: schema.invoices.createdAt,
};
type InvoiceRow = Omit<
  { [K in keyof typeof invoiceColumns]: (typeof invoiceColumns)[K]["_"]["data"] },
  "voidReason" | "voidedAt"
> & { voidReason: string | null; voidedAt: Date | null };

function toInvoiceView(row: InvoiceRow, today: string): InvoiceView {
  return {
    id: row.id,
    invoiceNo: row.invoiceNo,
    deliveryId: row.deliveryId,
    clientId: row.clientId,
    clientName: row.clientName,
    amount: row.amount,
    amountPaid: row.amountPaid,
    amountCredited: row.amountCredited,
    balance: balanceOf(row),
    taxRate: row.taxRate,
    taxAmount: taxContained(row.amount, row.taxRate),
    profit: row.profit,
    expectedPaymentDate: row.expectedPaymentDate,
    paymentStatus: effectiveStatus(row, today),
    storedStatus: row.paymentStatus,
    voidReason: row.voidReason,
    voidedAt: row.voidedAt?.toISOString() ?? null,
    issueDate: row.issueDate,
    createdAt: row.createdAt.toISOString(),
  };
}

const INVOICE_KEYSET = { id: schema.invoices.id };

/**
 * One page of invoices, newest first (id descending), keyset-paged: each filter has an index
 * that yields its rows in that order, so a page reads about `limit` rows however many
 * invoices there are (docs/decisions/0500).
 */
export async function listInvoices(
  actor: Actor,
  filters: InvoiceFilters = {},
  { limit = INVOICE_PAGE_SIZE, page = FIRST_PAGE }: { limit?: number; page?: PageRequest } = {},
  now = new Date(),
): Promise<Page<InvoiceView>> {
  assertCan(actor, "invoice.manage", "invoices");
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await invoicePageQuery(db, filters, page, limit, today);
  const result = toPage(rows, limit, page, (r) => ({ key: null, id: r.id }));
  return { ...result, items: result.items.map((r) => toInvoiceView(r, today)) };
}

/** The page query itself (the scale tests EXPLAIN it). */
export function invoicePageQuery(
  db: Executor,
  filters: InvoiceFilters,
  page: PageRequest,
  limit: number,
  today: string,
) {
  return db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(and(...invoiceWhere(filters, today), keysetWhere(INVOICE_KEYSET, page)))
    .orderBy(...(filters.from || filters.to ? dueRangeOrder(page) : keysetOrder(INVOICE_KEYSET, page)))
    .limit(limit + 1);
}

/**
 * The same order for a due-date range, written so the primary key cannot serve it: the range's
 * own invoices are read through invoices_due_id_idx, then sorted. The planner cannot know that
 * due dates follow ids, so it took the key newest first, expecting the range's invoices to turn
 * up evenly, and walked every invoice newer than the range to find them (stop 33).
 */
function dueRangeOrder(page: PageRequest): SQL[] {
  const id = sql`(${schema.invoices.id} + 0)`;
  return [page.direction === "newer" ? asc(id) : desc(id)];
}

/**
 * Every matching invoice, newest first, read in keyset batches: memory stays one batch. The
 * capability is checked when called, before the response starts, not at the first batch.
 */
export function invoiceBatches(
  actor: Actor,
  filters: InvoiceFilters = {},
  batchSize = 1000,
  now = new Date(),
): AsyncGenerator<InvoiceView[]> {
  assertCan(actor, "invoice.manage", "invoices");
  return keysetBatches(
    (page) => listInvoices(actor, filters, { limit: batchSize, page }, now),
    (last) => ({ key: null, id: last.id }),
  );
}

export async function getInvoice(actor: Actor, id: number, now = new Date()) {
  const { items } = await listInvoices(actor, { invoiceIds: [id] }, { limit: 1 }, now);
  return items[0] ?? null;
}

/**
 * Pending, Partial, Overdue and Paid counts for the whole table, and its money, in the same
 * cost at any size (docs/decisions/0508): the invoice triggers keep the totals per status and
 * owed flag (invoice_status_rollup, a few rows) and per status, due date and owed flag
 * (invoice_status_totals). Overdue is money owed past its due date, so what is owed and not
 * overdue is the owed rows due from today on (through their index, a payment term's worth of
 * dates); overdue is the rest of what is owed. Pending and Partial are the rest of each status.
 */
export async function invoiceSummary(actor: Actor, now = new Date()) {
  assertCan(actor, "invoice.manage", "invoices/summary");
  const [row] = await invoiceSummaryQuery(await getDb(), todayIn(env().APP_TIME_ZONE, now));
  return row;
}

export function invoiceSummaryQuery(db: Executor, today: string) {
  const r = schema.invoiceStatusRollup;
  const t = schema.invoiceStatusTotals;
  // Owed and not overdue: overdueSql's complement among owed rows (owed and due >= today).
  const notYetDue = db.$with("not_yet_due").as(
    db
      .select({
        pending: sql<number>`coalesce(sum(${t.n}) filter (where ${t.paymentStatus} = 'pending'), 0)`.as(
          "pending_not_due",
        ),
        partial: sql<number>`coalesce(sum(${t.n}) filter (where ${t.paymentStatus} = 'partial'), 0)`.as(
          "partial_not_due",
        ),
        owed: sql<number>`coalesce(sum(${t.n}), 0)`.as("owed_not_due"),
      })
      .from(t)
      .where(and(t.owed, gte(t.dueDate, today))),
  );
  const count = (where: SQL) => sql`coalesce(sum(${r.n}) filter (where ${where}), 0)`;
  const money = (value: SQL, where: SQL = sql`true`) =>
    sql<string>`coalesce(sum(${value}) filter (where ${where}), 0)::numeric(18,2)::text`;
  return db
    .with(notYetDue)
    .select({
      pending: sql<number>`(${count(sql`${r.paymentStatus} = 'pending' and not ${r.owed}`)} + max(${notYetDue.pending}))::int`,
      partial: sql<number>`(${count(sql`${r.paymentStatus} = 'partial' and not ${r.owed}`)} + max(${notYetDue.partial}))::int`,
      overdue: sql<number>`(${count(sql`${r.owed}`)} - max(${notYetDue.owed}))::int`,
      paid: sql<number>`${count(sql`${r.paymentStatus} = 'paid'`)}::int`,
      invoiced: money(sql`${r.amount}`),
      paidAmount: money(sql`${r.amountPaid}`),
      creditedAmount: money(sql`${r.amountCredited}`),
      // Void invoices have no rows here (the trigger leaves them out): they count in no total.
      outstanding: money(sql`${r.amount} - ${r.amountPaid} - ${r.amountCredited}`, sql`${r.owed}`),
    })
    .from(notYetDue)
    .leftJoin(r, sql`true`);
}

/** The most urgent unpaid invoices (earliest due first), through the owed-by-due-date index. */
export async function urgentInvoices(actor: Actor, limit: number, now = new Date()): Promise<InvoiceView[]> {
  assertCan(actor, "invoice.manage", "invoices/urgent");
  const today = todayIn(env().APP_TIME_ZONE, now);
  const rows = await urgentInvoicesQuery(await getDb(), limit);
  return rows.map((r) => toInvoiceView(r, today));
}

export function urgentInvoicesQuery(db: Executor, limit: number) {
  return db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(owed)
    .orderBy(asc(schema.invoices.expectedPaymentDate), asc(schema.invoices.id))
    .limit(limit);
}

// ---- One invoice: its page and GET /api/invoices/{id} (issue 14).

export const INVOICE_LINES_PAGE_SIZE = 50;
/** Payments and credit notes shown on the page: the newest this many, with the count of all. */
export const INVOICE_RELATED_LIMIT = 50;

export type InvoiceLineView = {
  deliveryId: number;
  date: string;
  agentName: string | null;
  truckNo: string | null;
  location: string;
  tons: string;
  sellingRate: string | null;
  /** tons x rate, to the kobo. */
  amount: string;
};

export type InvoicePaymentView = {
  id: number;
  amount: string;
  paymentDate: string;
  reference: string | null;
  createdAt: string;
  /** On a reversal: the payment it takes back; its reason is `note` (docs/decisions/0920). */
  reversesPaymentId: number | null;
  note: string | null;
  /** On a payment that was reversed: the day of its reversal. */
  reversedOn: string | null;
  /** A refund to the client (negative, its reason in `note`). */
  refund: boolean;
  /** On a credit moved between invoices: the other invoice's number (decision 0920). */
  creditMovedToInvoiceNo: string | null;
  creditFromInvoiceNo: string | null;
  /** On a reversal: what it takes back (a payment, a refund, half of a credit move). */
  reversesKind: string | null;
};

export type InvoiceCreditNoteView = {
  id: number;
  /** Null on a reversal, which has no number of its own. */
  creditNoteNo: string | null;
  /** Negative on a reversal. */
  amount: string;
  reason: string;
  issueDate: string;
  createdAt: string;
  /** On a reversal: the credit note it takes back, and its number (docs/decisions/0920). */
  reversesCreditNoteId: number | null;
  reversesCreditNoteNo: string | null;
  /** On a credit note that was reversed: the day of its reversal. */
  reversedOn: string | null;
};

export type InvoiceDetail = InvoiceView & {
  /** Its own events in the audit trail (created, voided), newest first: the newest INVOICE_RELATED_LIMIT. */
  history: AuditEventView[];
  lines: Page<InvoiceLineView> & { count: number; tons: string };
  payments: { items: InvoicePaymentView[]; count: number };
  creditNotes: { items: InvoiceCreditNoteView[]; count: number };
};

const LINE_KEYSET = { key: schema.invoiceLines.date, id: schema.invoiceLines.deliveryId };

/**
 * Everything the invoice page shows. The deliveries it covers are keyset-paged (a month's
 * invoice can cover hundreds) through invoice_lines (invoice, date, delivery); payments and
 * credit notes show the newest INVOICE_RELATED_LIMIT with the count of all (docs/decisions/0921).
 */
export async function getInvoiceDetail(
  actor: Actor,
  id: number,
  {
    linesPage = FIRST_PAGE,
    linesLimit = INVOICE_LINES_PAGE_SIZE,
  }: { linesPage?: PageRequest; linesLimit?: number } = {},
  now = new Date(),
): Promise<InvoiceDetail | null> {
  assertCan(actor, "invoice.view", `invoice/${id}`);
  const db = await getDb();
  const today = todayIn(env().APP_TIME_ZONE, now);
  const [row] = await db
    .select(invoiceColumns)
    .from(schema.invoices)
    .innerJoin(schema.clients, eq(schema.clients.id, schema.invoices.clientId))
    .where(eq(schema.invoices.id, id));
  if (!row) return null;
  const l = schema.invoiceLines;
  const p = schema.payments;
  const c = schema.creditNotes;
  const [lineRows, [lineTotals], paymentRows, [paymentCount], creditRows, [creditCount], history] = await Promise.all([
    db
      .select()
      .from(l)
      .where(and(eq(l.invoiceId, id), keysetWhere(LINE_KEYSET, linesPage)))
      .orderBy(...keysetOrder(LINE_KEYSET, linesPage))
      .limit(linesLimit + 1),
    db
      .select({ n: sql<number>`count(*)::int`, tons: sql<string>`coalesce(sum(${l.tons}), 0)::numeric(20,2)::text` })
      .from(l)
      .where(eq(l.invoiceId, id)),
    db
      .select({ ...getTableColumns(p), ...paymentLinkColumns() })
      .from(p)
      .where(eq(p.invoiceId, id))
      .orderBy(desc(p.paymentDate), desc(p.id))
      .limit(INVOICE_RELATED_LIMIT),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(p)
      .where(eq(p.invoiceId, id)),
    db
      .select(creditNoteEntryColumns())
      .from(c)
      .where(eq(c.invoiceId, id))
      .orderBy(desc(c.id))
      .limit(INVOICE_RELATED_LIMIT),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(c)
      .where(eq(c.invoiceId, id)),
    listAuditEvents(actor, { entityType: "invoice", entityId: String(id) }, { limit: INVOICE_RELATED_LIMIT }),
  ]);
  const lines = toPage(lineRows, linesLimit, linesPage, (r) => ({ key: r.date, id: r.deliveryId }));
  return {
    ...toInvoiceView(row, today),
    history: history.events,
    lines: {
      ...lines,
      items: lines.items.map((r) => ({
        deliveryId: r.deliveryId,
        date: r.date,
        agentName: r.agentName,
        truckNo: r.truckNo,
        location: r.location,
        tons: r.tons,
        sellingRate: r.sellingRate,
        amount: toFixed(r.amount),
      })),
      count: lineTotals.n,
      tons: lineTotals.tons,
    },
    payments: {
      items: paymentRows.map((r) => ({
        id: r.id,
        amount: r.amount,
        paymentDate: r.paymentDate,
        reference: r.reference,
        createdAt: r.createdAt.toISOString(),
        reversesPaymentId: r.reversesPaymentId,
        note: r.note,
        // A reversal is newer than its payment, so it is on this page whenever the payment is.
        reversedOn: paymentRows.find((x) => x.reversesPaymentId === r.id)?.paymentDate ?? null,
        refund: r.refund,
        creditMovedToInvoiceNo: r.creditMovedToInvoiceNo,
        creditFromInvoiceNo: r.creditFromInvoiceNo,
        reversesKind: r.reversesKind,
      })),
      count: paymentCount.n,
    },
    creditNotes: {
      items: creditRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
      count: creditCount.n,
    },
  };
}

// ---- Void (docs/decisions/0920): only an invoice nothing has settled; its number stays taken,
// its deliveries go back to confirmed (invoice_lines keeps what it covered).

export const VOID_HAS_SETTLEMENTS =
  "This invoice has payments or credit notes and cannot be voided: issue a credit note instead";
export const ALREADY_VOID = "This invoice is already void";

/** How many deliveries a void freed, and the lowest and highest id (its invoice_lines list them). */
export type VoidInvoiceResult = Result<{ invoice: Invoice; freedDeliveries: IdSpan }>;

/**
 * How many payments (reversals and the payments they took back included) and credit notes an
 * invoice has. An invoice with any cannot be voided: its history shows money moving on it
 * (docs/decisions/0920); the Void dialog asks the same question before it offers the form.
 */
async function settlementEntries(invoiceId: number, db?: Executor): Promise<{ payments: number; credits: number }> {
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

export async function voidInvoice(
  actor: Actor,
  invoiceId: number,
  input: Record<string, unknown>,
  now = new Date(),
): Promise<VoidInvoiceResult> {
  const refused = refuse(actor, "invoice.void", `invoice/${invoiceId}/void`);
  if (refused) return refused;
  const parsed = parseFields(VoidInvoiceSchema, input);
  if (!parsed.ok) return parsed;
  const { reason } = parsed.data;
  const db = await getDb();
  try {
    return await db.transaction(async (tx): Promise<VoidInvoiceResult> => {
      // The invoice row lock queues a void behind any payment or credit note being recorded.
      const [invoice] = await tx.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId)).for("update");
      if (!invoice) throw new Refusal(fail(404, "Invoice not found"));
      if (isVoid(invoice)) throw new Refusal(fail(409, ALREADY_VOID));
      const settlements = await settlementEntries(invoiceId, tx);
      if (settlements.payments > 0 || settlements.credits > 0 || compare(settledOf(invoice), "0") !== 0)
        throw new Refusal(fail(409, VOID_HAS_SETTLEMENTS));
      // The invoice's date and its deliveries' dates (they go back to confirmed): none may be
      // in a closed month (decision 0901).
      const [earliest] = await tx
        .select({ date: sql<string | null>`min(${schema.deliveries.date})::text` })
        .from(schema.deliveries)
        .where(eq(schema.deliveries.invoiceId, invoiceId));
      await assertPeriodOpen(tx, invoice.issueDate, earliest?.date);
      const [voided] = await tx
        .update(schema.invoices)
        .set({ paymentStatus: "void", voidReason: reason, voidedAt: now, voidedBy: actor.id, updatedAt: now })
        .where(eq(schema.invoices.id, invoiceId))
        .returning();
      const freed = await tx
        .update(schema.deliveries)
        .set({ status: "confirmed", invoiceId: null, updatedAt: now })
        .where(eq(schema.deliveries.invoiceId, invoiceId))
        .returning({ id: schema.deliveries.id });
      // One event for the void: how many deliveries it freed and the first and last id (a month's
      // invoice frees thousands; its invoice_lines keep the list).
      const freedDeliveries = idSpan(freed.map((d) => d.id));
      await recordAudit(tx, {
        actor,
        action: "invoice.void",
        entityType: "invoice",
        entityId: invoiceId,
        before: invoice,
        after: { ...voided, ...idSpanFields("freedDelivery", freedDeliveries) },
      });
      return { ok: true, invoice: voided, freedDeliveries };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.failure;
    if (isPeriodClosed(error)) return error.failure;
    throw error;
  }
}

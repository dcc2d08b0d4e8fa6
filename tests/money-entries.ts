// What the money-correction tests (payment, payout and credit note reversals, refunds) read back
// to check a write: the invoice row, its paid total against a recount of its payments, how many
// audit events an action wrote, a CSV export's rows as text, and whether the totals the triggers
// keep equal a rebuild from the rows.
import { eq, sql, type SQL } from "drizzle-orm";
import { expect } from "vitest";
import { getDb, rowsOf, schema, type Tx, type User } from "../app/db.server";
import { createInvoiceForDelivery } from "../app/services/invoices/create-invoice.server";
import { createClient, createDelivery } from "./factories";

/** An invoice of 10,000.00 (10 tons at 1,000.00, delivered 5 March 2026) issued by `manager`, for `clientId` or a new client. */
export async function invoiceOfTenThousand(manager: User, agentId: number, clientId?: number) {
  clientId ??= (await createClient()).id;
  const delivery = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.id,
    date: "2026-03-05",
    tons: "10.00",
    sellingRate: "1000.00",
  });
  const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
  if (!made.ok) throw new Error(made.message);
  return { clientId, invoice: made.invoice };
}

/**
 * A test fixture's rewrite of an issued invoice (back-dating it, moving its due date, setting
 * what was paid), which the app never does and the table refuses (migrations 0022 and 0027). The guard trigger is off only inside
 * this transaction (DDL is transactional, and the table is locked until it commits); the totals
 * triggers still run, so the kept totals follow the change.
 */
export async function rewriteInvoice(invoiceId: number, values: Partial<typeof schema.invoices.$inferInsert>) {
  const db = await getDb();
  await db.transaction(async (tx) => {
    // The totals' check too (migration 0027): a fixture may set what was paid without payments.
    await tx.execute(sql`alter table invoices disable trigger invoices_keep_document`);
    await tx.execute(sql`alter table invoices disable trigger invoices_totals_match`);
    await tx.update(schema.invoices).set(values).where(eq(schema.invoices.id, invoiceId));
    await tx.execute(sql`alter table invoices enable trigger invoices_totals_match`);
    await tx.execute(sql`alter table invoices enable trigger invoices_keep_document`);
  });
}

/**
 * Runs a statement behind the app's back: "done" when the database took it, else the database's
 * own message (drizzle wraps the error; a trigger's refusal is its cause). For the tests that
 * show a table refusing a rewrite whoever sends it.
 */
export async function statementOutcome(statement: SQL | string): Promise<string> {
  const db = await getDb();
  return db.execute(typeof statement === "string" ? sql.raw(statement) : statement).then(
    () => "done",
    (error: Error & { cause?: Error }) => String(error.cause?.message ?? error.message),
  );
}

export async function invoiceRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(schema.invoices).where(eq(schema.invoices.id, id));
  return row;
}

/** The invoice's paid total against a recount of its payments (refunds and reversals included). */
export async function paidAndRecount(invoiceId: number) {
  const db = await getDb();
  return rowsOf<{ kept: string; recount: string }>(
    await db.execute(sql`
      select i.amount_paid::text as kept,
        (select coalesce(sum(p.amount), 0) from payments p where p.invoice_id = i.id)::numeric(20,2)::text as recount
      from invoices i where i.id = ${invoiceId}`),
  )[0];
}

/** How many audit events of `action` the trail holds. */
export async function auditEvents(action: string) {
  const db = await getDb();
  return (
    await db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.auditEvents)
      .where(eq(schema.auditEvents.action, action))
  )[0].n;
}

/** An export's batches as text, a JSON line a row, to search for cells. */
export async function csvText(batches: AsyncIterable<unknown[]>) {
  let text = "";
  for await (const batch of batches) for (const row of batch) text += JSON.stringify(row) + "\n";
  return text;
}

/** The rows of kept-totals tables, numbers normalised and empty rows dropped, to compare. */
async function keptTotals(tables: string[]) {
  const db = await getDb();
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`select * from ${table}`)));
    out[table] = rows
      .filter((r) => !("n" in r && r.n === 0) && !("owed" in r && Number(r.owed) === 0 && Number(r.credit) === 0))
      .map((r) =>
        JSON.stringify(
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [
              k,
              typeof v === "string" && /^-?\d+\.\d+$/.test(v) ? String(Number(v)) : String(v),
            ]),
          ),
        ),
      )
      .sort();
  }
  return out;
}

/** The totals the triggers kept equal what `pks_rebuild_totals()` recounts from the rows. */
export async function expectKeptTotalsToMatchRebuild(tables: string[]) {
  const kept = await keptTotals(tables);
  await (await getDb()).execute(sql`select pks_rebuild_totals()`);
  expect(kept).toEqual(await keptTotals(tables));
}

/**
 * Runs `write` with the invoice totals' check off (migration 0027), for the tests of a money
 * table's own rules that insert rows behind the app without moving the invoice's totals: with the
 * check on, every such row would be refused for that reason, hiding the rule under test.
 */
export async function behindTotals<T>(write: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await tx.execute(sql`alter table payments disable trigger payments_totals_match`);
    await tx.execute(sql`alter table credit_notes disable trigger credit_notes_totals_match`);
    return write(tx);
  });
}

// Invoices at their edges: a total the money columns cannot hold is a clear 409, not a
// 500; a month PostgreSQL has not got is "Choose a month"; an invoiced delivery resent with its
// own values in another spelling is no change; and a month's batch and a single invoice take the
// invoice counter in the same order, so they queue instead of deadlocking (PostgreSQL only:
// PGlite has one connection, so two transactions never overlap there).
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { updateDelivery } from "../../app/models/delivery-changes.server";
import { MAX_INVOICE_AMOUNT } from "../../app/models/invoice.server";
import { createInvoicesForMonth } from "../../app/services/invoices/create-month-invoices.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { addDays, todayIn } from "../../app/utils/dates";
import { testDriver } from "../db/template";
import { createAgent, createClient, createDelivery, createUser } from "../factories";

let manager: User;
let admin: User;
let agentId: number;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  admin = await createUser({ role: "admin" });
  agentId = (await createAgent()).id;
});

/** A delivery of the file's agent for `clientId`, recorded by the manager. */
const deliveryFor = (clientId: number, fields: Partial<Parameters<typeof createDelivery>[0]>) =>
  createDelivery({ agentId, clientId, createdBy: manager.id, ...fields });

const invoiceCount = async () => (await (await getDb()).select().from(schema.invoices)).length;

describe("an invoice too large for its columns", () => {
  it("refuses one delivery whose amount would overflow, naming the figure, and writes nothing", async () => {
    const client = await createClient({ name: "Overflow Single Ltd" });
    // 200,000 t x 60,000.00 = 12,000,000,000.00, over 9,999,999,999.99.
    const delivery = await deliveryFor(client.id, { tons: "200000.00", sellingRate: "60000.00", buyingRate: "1.00" });
    const before = await invoiceCount();
    const result = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(result).toMatchObject({ ok: false, status: 409 });
    if (result.ok) return;
    expect(result.message).toBe(
      "The invoice for Overflow Single Ltd comes to ₦12,000,000,000.00, more than one invoice can hold " +
        "(₦9,999,999,999.99); check its tons and rates",
    );
    expect(await invoiceCount()).toBe(before);
    const [row] = await (
      await getDb()
    )
      .select()
      .from(schema.deliveries)
      .where(sql`id = ${delivery.id}`);
    expect(row.status).toBe("confirmed");
  });

  it("refuses a month whose one client's invoice would overflow, and advises invoicing one at a time", async () => {
    const client = await createClient({ name: "Overflow Month Ltd" });
    // Two deliveries of 6,000,000,000.00 each: either alone fits, together they do not.
    for (const date of ["2025-03-03", "2025-03-04"]) {
      await deliveryFor(client.id, { date, tons: "100000.00", sellingRate: "60000.00", buyingRate: "1.00" });
    }
    const before = await invoiceCount();
    const result = await createInvoicesForMonth(manager, "2025-03");
    expect(result).toMatchObject({ ok: false, status: 409 });
    if (result.ok) return;
    expect(result.message).toMatch(/^The invoice for Overflow Month Ltd comes to ₦12,000,000,000\.00, more than/);
    expect(result.message).toMatch(/invoice its deliveries one at a time$/);
    expect(await invoiceCount()).toBe(before);
  });

  it("refuses a loss too large for the profit column as well", async () => {
    const client = await createClient({ name: "Overflow Loss Ltd" });
    const delivery = await deliveryFor(client.id, { tons: "200000.00", sellingRate: "1.00", buyingRate: "60000.00" });
    const result = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(result).toMatchObject({ ok: false, status: 409 });
    if (!result.ok)
      expect(result.message).toMatch(/ has a profit of -₦11,999,800,000\.00, more than one invoice can hold/);
  });

  it("still makes an invoice of exactly the largest amount", async () => {
    const client = await createClient({ name: "At The Limit Ltd" });
    const delivery = await deliveryFor(client.id, {
      tons: "1.00",
      sellingRate: MAX_INVOICE_AMOUNT,
      buyingRate: MAX_INVOICE_AMOUNT,
    });
    const result = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(result.ok, result.ok ? "" : result.message).toBe(true);
    if (result.ok) expect(result.invoice.amount).toBe(MAX_INVOICE_AMOUNT);
  });
});

describe("a month for Generate Invoice", () => {
  it("answers 'Choose a month' for a year PostgreSQL has not got, and for other odd months", async () => {
    for (const month of ["0000-01", "0999-12", "2026-13", "2026-1", "x"]) {
      expect(await createInvoicesForMonth(manager, month)).toEqual({
        ok: false,
        status: 400,
        message: "Choose a month",
      });
    }
  });
});

describe("an invoiced delivery resent with its own values", () => {
  it("is no change when the numbers are the same in another spelling, and still refused when they differ", async () => {
    const client = await createClient();
    const delivery = await deliveryFor(client.id, { tons: "10.00", buyingRate: "65000.00", sellingRate: "70000.50" });
    const made = await createInvoiceForDelivery(manager, { deliveryId: delivery.id });
    expect(made.ok).toBe(true);
    const same = await updateDelivery(admin, delivery.id, {
      tons: "10",
      buyingRate: "65000",
      sellingRate: "70000.5",
      clientId: client.id,
      logisticsCost: "1200",
    });
    expect(same.ok, same.ok ? "" : same.message).toBe(true);
    const changed = await updateDelivery(admin, delivery.id, { tons: "10.01" });
    expect(changed).toMatchObject({
      ok: false,
      status: 409,
      message: "This delivery is invoiced: its tons, rates and client can no longer change",
    });
  });
});

describe.runIf(testDriver() === "postgres")("a month's batch beside a single invoice", () => {
  it("queues on the invoice counter instead of deadlocking", async () => {
    const db = await getDb();
    const client = await createClient({ name: "Lock Order Ltd", taxRate: "7.50" });
    // The batch's month, and a delivery of another month at the same tax rate for the single
    // invoice (a delivery of the batch's month would queue on its own row lock first).
    const month = addDays(todayIn("Africa/Lagos"), -400).slice(0, 7);
    await deliveryFor(client.id, { date: `${month}-10` });
    const other = await deliveryFor(client.id, { date: addDays(`${month}-10`, -60) });

    // A writer holding the kept totals makes the batch wait there, after its first locks.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const blocker = db.transaction(async (tx) => {
      await tx.execute(sql`lock table payment_day_totals in row exclusive mode`);
      holding();
      await released;
    });
    await held;
    const batch = createInvoicesForMonth(manager, month);
    await waitForLockWaits(1);
    const single = createInvoiceForDelivery(manager, { deliveryId: other.id });
    await waitForLockWaits(2);
    release();
    await blocker;
    const [batchResult, singleResult] = await Promise.all([batch, single]);
    expect(batchResult.ok, batchResult.ok ? "" : batchResult.message).toBe(true);
    expect(singleResult.ok, singleResult.ok ? "" : singleResult.message).toBe(true);
  });
});

/** Waits until `n` sessions of this database wait on a lock (at most 5 s). */
async function waitForLockWaits(n: number) {
  const db = await getDb();
  for (let i = 0; i < 100; i++) {
    const [{ waiting }] = rowsOf<{ waiting: number }>(
      await db.execute(
        sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      ),
    );
    if (waiting >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`fewer than ${n} sessions waited on a lock`);
}

// Timestamps shown as days (docs/decisions/0952): a row written at 23:30 UTC was
// written at 00:30 the next day in Lagos, and the CSV exports and the settings cards show that
// day, as the invoice's document and the tax report do.
import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, schema } from "../../app/db.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import * as invoicesExport from "../../app/routes/_app.invoices.export";
import * as paymentsExport from "../../app/routes/_app.payments.export";
import * as settingsPage from "../../app/routes/_app.settings";
import { createAgent, createClient, createDelivery, loginAs } from "../factories";
import { makeRequest } from "../http";
import { rewriteInvoice } from "../money-entries";

// 00:30 on 1 March in Lagos (UTC+1); still 28 February in UTC.
const LAGOS_EARLY_MARCH_1 = new Date("2026-02-28T23:30:00Z");

type Loader = (args: { request: Request; params: object; context: object }) => Promise<unknown>;
const load = (route: { loader: unknown }, path: string, cookie: string) =>
  (route.loader as Loader)({ request: makeRequest(path, { cookie }), params: {}, context: {} });

/** The CSV's rows as objects keyed by the header. */
async function csvRecords(route: { loader: unknown }, path: string, cookie: string) {
  const res = (await load(route, path, cookie)) as Response;
  expect(res.status, await res.clone().text()).toBe(200);
  const [header, ...rows] = parse(await res.text(), { bom: true }) as string[][];
  return rows.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]])));
}

describe("CSV day columns at 23:30 UTC", () => {
  it("write the Lagos day: the invoice's Created is its issue date, a payment's Recorded its day", async () => {
    const manager = await loginAs("manager");
    const admin = await loginAs("admin");
    const client = await createClient();
    const delivery = await createDelivery({
      agentId: (await createAgent()).id,
      clientId: client.id,
      createdBy: manager.user.id,
      date: "2026-02-27",
      sellingRate: "1000.00",
    });
    const made = await createInvoiceForDelivery(manager.user, { deliveryId: delivery.id });
    if (!made.ok) throw new Error(made.message);
    const { invoice } = made;
    // Made at 00:30 on 1 March in Lagos, as the app would have dated it (decision 0990).
    await rewriteInvoice(invoice.id, { createdAt: LAGOS_EARLY_MARCH_1, issueDate: "2026-03-01" });
    const paid = await recordPayment(manager.user, {
      invoiceId: invoice.id,
      amount: "100.00",
      paymentDate: "2026-03-01",
    });
    if (!paid.ok) throw new Error(paid.message);
    // Recorded at the same moment (payments are append-only: a fixture written behind the app).
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table payments disable trigger payments_no_update_delete`);
      await tx
        .update(schema.payments)
        .set({ createdAt: LAGOS_EARLY_MARCH_1 })
        .where(eq(schema.payments.id, paid.payment.id));
      await tx.execute(sql`alter table payments enable trigger payments_no_update_delete`);
    });

    const invoices = await csvRecords(invoicesExport, `/invoices/export?invoiceNo=${invoice.invoiceNo}`, admin.cookie);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ "Invoice No": invoice.invoiceNo, Created: "2026-03-01" });

    const payments = await csvRecords(paymentsExport, `/payments/export?invoiceNo=${invoice.invoiceNo}`, admin.cookie);
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ "Payment Date": "2026-03-01", Amount: "100.00", Recorded: "2026-03-01" });
  });
});

describe("the settings cards at 23:30 UTC", () => {
  it("give the Lagos day a user and a passkey were added and last used", async () => {
    const admin = await loginAs("admin");
    const db = await getDb();
    await db
      .update(schema.users)
      .set({ createdAt: new Date("2026-03-14T23:30:00Z") })
      .where(eq(schema.users.id, admin.user.id));
    await db.insert(schema.passkeys).values({
      userId: admin.user.id,
      credentialId: `cred-${admin.user.id}`,
      credentialPublicKey: "key",
      deviceName: "Phone",
      createdAt: new Date("2026-03-14T23:30:00Z"),
      lastUsedAt: new Date("2026-03-15T23:10:00Z"),
    });
    const data = (await load(settingsPage, "/settings", admin.cookie)) as Awaited<
      ReturnType<typeof settingsPage.loader>
    >;
    expect(data.security.passkeys).toEqual([
      expect.objectContaining({ deviceName: "Phone", addedOn: "2026-03-15", lastUsedOn: "2026-03-16" }),
    ]);
    expect(data.security.users?.find((u) => u.id === admin.user.id)).toMatchObject({ addedOn: "2026-03-15" });
  });
});

// The database keeps invoices as issued (migrations 0022-0024, docs/decisions/0920 "The tables
// hold it too"), on both drivers: an invoice's document fields, its lines
// and its deliveries' tons, rates and client are refused any change by the tables themselves,
// not only by the models; a void is final; nothing on an invoice is deleted or truncated. What
// the product itself writes (payments, credit notes, a void that frees its deliveries, edits of
// an uninvoiced delivery, deleting a draft) still goes through.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, schema, type User } from "../../app/db.server";
import { reverseCreditNote } from "../../app/services/invoices/reverse-credit-note.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { deleteDelivery, updateDelivery } from "../../app/models/delivery-changes.server";
import { reversePayment } from "../../app/services/payments/reverse-payment.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import * as deleteDialog from "../../app/routes/_app.deliveries.$id.delete";
import * as deliveryApi from "../../app/routes/api.deliveries.$id";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { expectKeptTotalsToMatchRebuild, invoiceOfTenThousand, invoiceRow, statementOutcome } from "../money-entries";

let admin: User;
let manager: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
});

async function deliveriesOf(invoiceId: number) {
  const db = await getDb();
  return db.select().from(schema.deliveries).where(eq(schema.deliveries.invoiceId, invoiceId));
}

describe("an issued invoice", () => {
  it("refuses a change of what the document says, by any writer, and keeps the row as it was", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const before = await invoiceRow(invoice.id);
    for (const change of [
      sql`update invoices set amount = 1 where id = ${invoice.id}`,
      sql`update invoices set tax_rate = 0 where id = ${invoice.id}`,
      sql`update invoices set profit = 0 where id = ${invoice.id}`,
      sql`update invoices set invoice_no = '999999' where id = ${invoice.id}`,
      sql`update invoices set issue_date = issue_date - 40 where id = ${invoice.id}`,
      sql`update invoices set expected_payment_date = expected_payment_date + 1 where id = ${invoice.id}`,
      sql`update invoices set client_id = (select id from clients where id <> invoices.client_id limit 1) where id = ${invoice.id}`,
      sql`update invoices set created_at = created_at - interval '1 day' where id = ${invoice.id}`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/is issued: its number, client, deliveries, amount, tax rate/);
    }
    expect(await invoiceRow(invoice.id)).toEqual(before);
  });

  it("is written only for a delivery that exists", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect(
      await statementOutcome(sql`insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit,
        expected_payment_date, issue_date) select '999998', 2147483000, client_id, 1, 0, 0, current_date, current_date
        from invoices where id = ${invoice.id}`),
    ).toMatch(/names delivery 2147483000, which does not exist/);
  });

  it("refuses DELETE and TRUNCATE", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect(await statementOutcome(sql`delete from invoices where id = ${invoice.id}`)).toMatch(
      /invoices keeps every invoice \(void it instead\): DELETE is not allowed/,
    );
    expect(await statementOutcome(sql`truncate invoices cascade`)).toMatch(/invoices keeps every invoice.*TRUNCATE/);
    expect(await invoiceRow(invoice.id)).toBeDefined();
  });

  it("still takes what payments and credit notes write: paid and credited totals, status", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const paid = await recordPayment(manager, { invoiceId: invoice.id, amount: "4000.00", reference: "G-1" });
    expect(paid.ok).toBe(true);
    const credited = await createCreditNote(admin, invoice.id, { amount: "1000.00", reason: "Short weight" });
    expect(credited.ok).toBe(true);
    const row = await invoiceRow(invoice.id);
    expect([row.amountPaid, row.amountCredited, row.paymentStatus]).toEqual(["4000.00", "1000.00", "partial"]);
  });

  it("refuses, at commit, paid or credited totals that are not the sum of the invoice's entries", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect(await recordPayment(manager, { invoiceId: invoice.id, amount: "4000.00" })).toMatchObject({ ok: true });
    for (const change of [
      sql`update invoices set amount_paid = amount, payment_status = 'paid' where id = ${invoice.id}`,
      sql`update invoices set amount_credited = 1 where id = ${invoice.id}`,
      sql`insert into payments (invoice_id, amount, payment_date) values (${invoice.id}, 10, current_date)`,
      sql`insert into credit_notes (invoice_id, credit_note_no, amount, reason, issue_date) values (${invoice.id}, 'CN-999998', 10, 'x', current_date)`,
    ]) {
      expect(await statementOutcome(change)).toMatch(
        /^invoice \d+ says paid [\d.]+ and credited [\d.]+, but its payments add up to [\d.]+ and its credit notes to [\d.]+$/,
      );
    }
    expect(await invoiceRow(invoice.id)).toMatchObject({ amountPaid: "4000.00", amountCredited: "0.00" });
  });

  it("keeps its lines: no UPDATE, DELETE or TRUNCATE", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    for (const change of [
      sql`update invoice_lines set tons = 1 where invoice_id = ${invoice.id}`,
      sql`delete from invoice_lines where invoice_id = ${invoice.id}`,
      sql`truncate invoice_lines`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/invoice_lines is append-only/);
    }
  });
});

describe("a void invoice", () => {
  it("is voided and frees its deliveries through the product, and then stays void", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const [delivery] = await deliveriesOf(invoice.id);
    const voided = await voidInvoice(admin, invoice.id, { reason: "Wrong client" });
    expect(voided.ok).toBe(true);
    expect(await deliveriesOf(invoice.id)).toEqual([]);
    for (const change of [
      sql`update invoices set payment_status = 'pending', voided_at = null, void_reason = null where id = ${invoice.id}`,
      sql`update invoices set void_reason = 'Another reason' where id = ${invoice.id}`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/is void, and a void is final/);
    }
    // The freed delivery is an ordinary confirmed delivery again: editable, and deletable although
    // the void invoice still names it as its first delivery (that was a foreign key until 0023).
    const edited = await updateDelivery(admin, delivery.id, { tons: "9.50" });
    expect(edited.ok).toBe(true);
    expect(await deleteDelivery(admin, delivery.id)).toEqual({ ok: true });
    // A recount still finds the void invoice's month (its line keeps the delivery's date).
    await expectKeptTotalsToMatchRebuild(["delivery_month_totals"]);
  });
});

describe("voiding an invoice money moved on", () => {
  // An invoice with payments or credit notes is never voided (voidInvoice refuses it): a void
  // invoice's lines count nowhere, while the kept payment day totals count every payment row. The
  // table refuses it too, even when the money was reversed to nothing (migration 0030, decision
  // 0970).
  const consoleVoid = (id: number) =>
    sql`update invoices set payment_status = 'void', void_reason = 'From a console', voided_at = now() where id = ${id}`;

  it("is refused after a payment and its reversal, and after a credit note and its reversal", async () => {
    const paid = (await invoiceOfTenThousand(manager, agentId)).invoice;
    const payment = await recordPayment(manager, { invoiceId: paid.id, amount: "100.00" });
    if (!payment.ok) throw new Error(payment.message);
    expect((await reversePayment(admin, payment.payment.id, { reason: "Bounced" })).ok).toBe(true);
    const credited = (await invoiceOfTenThousand(manager, agentId)).invoice;
    const note = await createCreditNote(manager, credited.id, { amount: "100.00", reason: "Moisture" });
    if (!note.ok) throw new Error(note.message);
    expect((await reverseCreditNote(admin, note.creditNote.id, { reason: "Issued in error" })).ok).toBe(true);
    for (const invoice of [paid, credited]) {
      const before = await invoiceRow(invoice.id);
      expect(before).toMatchObject({ amountPaid: "0.00", amountCredited: "0.00" });
      expect(await statementOutcome(consoleVoid(invoice.id))).toMatch(
        /has payments or credit notes and cannot be voided: issue a credit note instead/,
      );
      expect(await invoiceRow(invoice.id)).toEqual(before);
    }
  });

  it("refuses a payment, a payment with its reversal, or a credit note on a void invoice, by any writer", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect((await voidInvoice(admin, invoice.id, { reason: "Raised twice" })).ok).toBe(true);
    const before = await invoiceRow(invoice.id);
    for (const change of [
      sql`insert into payments (invoice_id, amount, payment_date) values (${invoice.id}, 100, '2026-03-06')`,
      sql`with paid as (insert into payments (invoice_id, amount, payment_date) values (${invoice.id}, 100, '2026-03-06')
          returning id)
        insert into payments (invoice_id, amount, payment_date, reverses_payment_id, note)
        select ${invoice.id}, -100, '2026-03-06', id, 'Bounced' from paid`,
      sql`insert into credit_notes (invoice_id, credit_note_no, amount, reason, issue_date)
        values (${invoice.id}, 'CN-99999', 100, 'From a console', '2026-03-06')`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/is void: no payment or credit note is recorded on it/);
    }
    expect(await invoiceRow(invoice.id)).toEqual(before);
    // What the product does on a void invoice: refused with its own message, nothing written.
    const refused = await recordPayment(manager, { invoiceId: invoice.id, amount: "100.00" });
    expect(refused.ok).toBe(false);
  });

  it("still lets an invoice nothing was paid or credited on be voided by any writer", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect(await statementOutcome(consoleVoid(invoice.id))).toBe("done");
  });
});

describe("deleting a delivery a void freed, through the form and the JSON call", () => {
  // Each was a 500 while invoices.delivery_id was a foreign key (until 0023).
  async function freedDelivery() {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const [delivery] = await deliveriesOf(invoice.id);
    expect((await voidInvoice(admin, invoice.id, { reason: "Recorded twice" })).ok).toBe(true);
    return delivery.id;
  }

  it("the Delete dialog's form redirects to the list with its toast", async () => {
    const id = await freedDelivery();
    const { cookie } = await loginAs("admin");
    const deleted = await call(
      deleteDialog.action,
      makeRequest(`/deliveries/${id}/delete`, { method: "POST", cookie, form: {} }),
      { id: String(id) },
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/deliveries");
  });

  it("DELETE /api/deliveries/{id} answers 200", async () => {
    const id = await freedDelivery();
    const { cookie } = await loginAs("admin");
    const deleted = await call(deliveryApi.action, makeRequest(`/api/deliveries/${id}`, { method: "DELETE", cookie }), {
      id: String(id),
    });
    expect(deleted.status).toBe(200);
  });
});

describe("a delivery on an invoice", () => {
  it("refuses a change of its tons, rates or client, and deletion, by any writer", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const [delivery] = await deliveriesOf(invoice.id);
    for (const change of [
      sql`update deliveries set tons = 11 where id = ${delivery.id}`,
      sql`update deliveries set selling_rate = 1 where id = ${delivery.id}`,
      sql`update deliveries set buying_rate = 1 where id = ${delivery.id}`,
      sql`update deliveries set client_id = null where id = ${delivery.id}`,
      // The weights behind what was invoiced and paid (docs/decisions/1220).
      sql`update deliveries set received_tons = 9 where id = ${delivery.id}`,
      sql`update deliveries set pay_basis = 'received' where id = ${delivery.id}`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/is on an invoice: its weights, rates and client never change/);
    }
    expect(await statementOutcome(sql`delete from deliveries where id = ${delivery.id}`)).toMatch(
      /is on an invoice and is never removed/,
    );
    expect(await statementOutcome(sql`truncate deliveries cascade`)).toMatch(
      /^deliveries keeps its invoiced deliveries: TRUNCATE/,
    );
    expect(await statementOutcome(sql`update deliveries set status = 'draft' where id = ${delivery.id}`)).toMatch(
      /is on an invoice: its status stays invoiced/,
    );
    expect((await deliveriesOf(invoice.id)).map((d) => [d.id, d.tons, d.sellingRate])).toEqual([
      [delivery.id, "10.000", "1000.00"],
    ]);
  });

  it("leaves its invoice only when the invoice is void, never for another one", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const { invoice: other } = await invoiceOfTenThousand(manager, agentId);
    const [delivery] = await deliveriesOf(invoice.id);
    for (const change of [
      sql`update deliveries set invoice_id = null, status = 'confirmed' where id = ${delivery.id}`,
      sql`update deliveries set invoice_id = ${other.id} where id = ${delivery.id}`,
    ]) {
      expect(await statementOutcome(change)).toMatch(/leaves its invoice only when the invoice is void/);
    }
  });

  it("still takes the edits the product allows: location and costs", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    const [delivery] = await deliveriesOf(invoice.id);
    const edited = await updateDelivery(admin, delivery.id, {
      location: "Second yard",
      logisticsCost: "2500.00",
      mobilizationPayment: "300.00",
    });
    expect(edited.ok).toBe(true);
    const [row] = await deliveriesOf(invoice.id);
    expect([row.location, row.logisticsCost, row.mobilizationPayment]).toEqual(["Second yard", "2500.00", "300.00"]);
  });

  it("leaves a draft or confirmed delivery free to change and to delete", async () => {
    const draft = await createDelivery({ agentId, createdBy: manager.id, tons: "3.00" });
    expect(await statementOutcome(sql`update deliveries set tons = 4 where id = ${draft.id}`)).toBe("done");
    expect(await statementOutcome(sql`delete from deliveries where id = ${draft.id}`)).toBe("done");
  });
});

// Last in the file: it leaves a void invoice with money rows behind (payments are never deleted).
describe("db:check", () => {
  it("lists a void invoice that has payment rows, written past the guard", async () => {
    const { invoice } = await invoiceOfTenThousand(manager, agentId);
    expect((await voidInvoice(admin, invoice.id, { reason: "Raised twice" })).ok).toBe(true);
    const db = await getDb();
    const onVoid = async () =>
      (await findBreaches(db as unknown as Db)).filter(
        (b) => b.check === "no payment or credit note on a void invoice",
      );
    expect(await onVoid()).toEqual([]);
    await db.transaction(async (tx) => {
      await tx.execute(sql`alter table payments disable trigger payments_not_on_void`);
      await tx.execute(sql`with paid as (insert into payments (invoice_id, amount, payment_date)
          values (${invoice.id}, 100, '2026-03-06') returning id)
        insert into payments (invoice_id, amount, payment_date, reverses_payment_id, note)
        select ${invoice.id}, -100, '2026-03-06', id, 'Bounced' from paid`);
    });
    // After the commit: the rows' deferred totals check (migration 0027) is still pending inside.
    await db.execute(sql`alter table payments enable trigger payments_not_on_void`);
    expect(await onVoid()).toEqual([
      {
        check: "no payment or credit note on a void invoice",
        detail: `invoice ${invoice.invoiceNo}: 2 payment rows, 0 credit note rows`,
      },
    ]);
  });
});

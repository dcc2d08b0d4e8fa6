// Docs/decisions/0970: a client's statement of account on PGlite and
// PostgreSQL alike: opening and closing balances against hand-computed figures with a void
// invoice and a credit note in them, the running balance across keyset pages, the ageing box
// adding up to the closing balance, bad periods refused, and staff refused.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { testDriver } from "../db/template";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { createCreditNote } from "../../app/services/invoices/issue-credit-note.server";
import { voidInvoice } from "../../app/services/invoices/void-invoice.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordPayment } from "../../app/services/payments/record-payment.server";
import { ageingAsOf, holdSnapshot } from "../../app/models/statement.server";
import { clientStatement } from "../../app/presenters/client-statement.server";
import { parseStatementCursor, parseStatementPeriod } from "../../app/schemas/statement-query.server";
import { ageingBucket, ageingBucketSql, ageingOf } from "../../app/rules/statements.server";
import { clientStatementExport } from "../../app/presenters/statement-exports.server";
import { add, sub, toFixed } from "../../app/utils/money";
import type { Db } from "../../db/client.server";
import { findBreaches } from "../../db/ops";
import { createAgent, createClient, createDelivery, createUser } from "../factories";
import { rewriteInvoice } from "../money-entries";

let agentId: number;
let clientId: number;
let manager: User;
let staff: User;
const MARCH = { from: "2026-03-01", to: "2026-03-31" };

/** An invoice of `amount` to `client` issued on `day` (Lagos), due on `due`. */
async function invoiceOn(amount: string, day: string, due: string, client = clientId) {
  const d = await createDelivery({
    agentId,
    clientId: client,
    createdBy: manager.id,
    tons: "1.00",
    sellingRate: amount,
    date: day,
  });
  const made = await createInvoiceForDelivery(manager, { deliveryId: d.id });
  if (!made.ok) throw new Error(made.message);
  await rewriteInvoice(made.invoice.id, {
    createdAt: new Date(`${day}T12:00:00+01:00`),
    issueDate: day,
    expectedPaymentDate: due,
  });
  return made.invoice;
}

async function pay(invoiceId: number, amount: string, paymentDate: string) {
  const paid = await recordPayment(manager, { invoiceId, amount, paymentDate }, new Date("2026-06-01T10:00:00Z"));
  if (!paid.ok) throw new Error(paid.message);
}

/** A credit note issued (by the clock) on `issueDate`: credit notes are never rewritten, so it is not backdated after. */
async function credit(invoiceId: number, amount: string, issueDate: string) {
  const made = await createCreditNote(
    manager,
    invoiceId,
    { amount, reason: "Moisture above contract" },
    new Date(`${issueDate}T12:00:00+01:00`),
  );
  if (!made.ok) throw new Error(made.message);
}

beforeAll(async () => {
  agentId = (await createAgent()).id;
  clientId = (await createClient({ taxRate: "7.50", paymentTermsDays: 30 })).id;
  manager = await createUser({ role: "manager" });
  staff = await createUser({ role: "staff" });
  // Before March: A 1,000.00 (due 9 Feb) paid 400.00; B 2,150.00 (due 17 Mar).
  const a = await invoiceOn("1000.00", "2026-01-10", "2026-02-09");
  await pay(a.id, "400.00", "2026-01-20");
  const b = await invoiceOn("2150.00", "2026-02-15", "2026-03-17");
  // In March: V 5,000.00 voided; a 150.00 credit note and a 1,000.00 payment on B; D 700.00.
  const v = await invoiceOn("5000.00", "2026-03-02", "2026-04-01");
  const voided = await voidInvoice(manager, v.id, { reason: "Raised for the wrong client" });
  if (!voided.ok) throw new Error(voided.message);
  await credit(b.id, "150.00", "2026-03-05");
  await pay(b.id, "1000.00", "2026-03-10");
  await invoiceOn("700.00", "2026-03-20", "2026-04-19");
  // After March: E 300.00 and 100.00 more on A, in no March figure.
  await invoiceOn("300.00", "2026-04-05", "2026-05-05");
  await pay(a.id, "100.00", "2026-04-02");
});

describe("a client's statement of account", () => {
  it("brings forward the opening balance, runs every line, and closes at the hand-computed balance", async () => {
    const result = await clientStatement(manager, clientId, MARCH);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.statement;
    // Opening: A 1,000.00 - 400.00 + B 2,150.00.
    expect(s.openingBalance).toBe("2750.00");
    expect(s.lines.map((l) => [l.date, l.kind, l.debit, l.credit, l.balance, l.void])).toEqual([
      ["2026-03-02", "invoice", "0.00", "0.00", "2750.00", true],
      ["2026-03-05", "credit_note", "0.00", "150.00", "2600.00", false],
      ["2026-03-10", "payment", "0.00", "1000.00", "1600.00", false],
      ["2026-03-20", "invoice", "700.00", "0.00", "2300.00", false],
    ]);
    expect(s).toMatchObject({ totalDebits: "700.00", totalCredits: "1150.00", closingBalance: "2300.00" });
    expect(s.nextCursor).toBeNull();
    // As of 31 March: A 600.00 is 50 days overdue, B 1,000.00 14 days, D 700.00 not yet due.
    expect(s.ageing).toEqual({
      current: "700.00",
      d1_30: "1000.00",
      d31_60: "600.00",
      d61_90: "0.00",
      over90: "0.00",
      total: "2300.00",
    });
  });

  it("ages later: at the end of May the March figures move buckets and still add up", async () => {
    const result = await clientStatement(manager, clientId, { from: "2026-05-01", to: "2026-05-31" });
    if (!result.ok) throw new Error(result.message);
    const s = result.statement;
    // 2,300.00 + E 300.00 - 100.00 on A.
    expect(s.openingBalance).toBe("2500.00");
    expect(s.closingBalance).toBe("2500.00");
    expect(s.lines).toEqual([]);
    // A 500.00 due 9 Feb: 111 days; B 1,000.00 due 17 Mar: 75; D 700.00 due 19 Apr: 42; E 300.00 due 5 May: 26.
    expect(s.ageing).toEqual({
      current: "0.00",
      d1_30: "300.00",
      d31_60: "700.00",
      d61_90: "1000.00",
      over90: "500.00",
      total: "2500.00",
    });
  });

  it("keeps the running balance across keyset pages of lines", async () => {
    const first = await clientStatement(manager, clientId, MARCH, null, 3);
    if (!first.ok) throw new Error(first.message);
    expect(first.statement.lines).toHaveLength(3);
    const cursor = parseStatementCursor(first.statement.nextCursor);
    expect(cursor).not.toBeNull();
    if (cursor === null || cursor === "invalid") return;
    const second = await clientStatement(manager, clientId, MARCH, cursor, 3);
    if (!second.ok) throw new Error(second.message);
    expect(second.statement).toMatchObject({ continued: true, nextCursor: null, closingBalance: "2300.00" });
    expect(second.statement.lines.map((l) => [l.date, l.balance])).toEqual([["2026-03-20", "2300.00"]]);
    expect(parseStatementCursor("2026-02-30.1.4")).toBe("invalid");
  });

  it("exports the same figures as CSV", async () => {
    const out = await clientStatementExport(manager, clientId, new URLSearchParams(MARCH));
    if (!out || "invalid" in out) throw new Error("no export");
    const rows: string[][] = [];
    for await (const batch of out.batches) for (const r of batch) rows.push([r.date, r.type, r.balance]);
    expect(rows.slice(0, 6)).toEqual([
      ["2026-03-01", "Opening balance", "2750.00"],
      ["2026-03-02", "Invoice (void)", "2750.00"],
      ["2026-03-05", "Credit note", "2600.00"],
      ["2026-03-10", "Payment", "1600.00"],
      ["2026-03-20", "Invoice", "2300.00"],
      ["2026-03-31", "Closing balance", "2300.00"],
    ]);
    expect(rows.find((r) => r[1] === "Ageing: 31–60 days")?.[2]).toBe("600.00");
    expect(await clientStatementExport(manager, 2_000_000_000, new URLSearchParams(MARCH))).toBeNull();
  });

  it("buckets in SQL exactly as the JavaScript rule does at every boundary", async () => {
    const db = await getDb();
    const asOf = "2026-06-30";
    for (const [due, amount] of [
      ["2026-07-01", "5.00"],
      ["2026-06-30", "5.00"],
      ["2026-06-29", "5.00"],
      ["2026-05-31", "5.00"],
      ["2026-05-30", "5.00"],
      ["2026-05-01", "5.00"],
      ["2026-04-30", "5.00"],
      ["2026-04-01", "5.00"],
      ["2026-03-31", "5.00"],
      ["2020-01-01", "-5.00"],
    ]) {
      const result = await db.execute(
        sql`select ${ageingBucketSql(asOf, sql`${due}::date`, sql`${amount}::numeric`)} as bucket`,
      );
      const [row] = rowsOf<{ bucket: string }>(result);
      expect(row.bucket, due).toBe(ageingBucket(due, asOf, amount));
    }
  });

  it("refuses a bad period with a clear message", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    const bad = (q: Record<string, string>) => parseStatementPeriod(new URLSearchParams(q), now);
    expect(bad({ from: "2026-03-31", to: "2026-03-01" })).toMatchObject({
      ok: false,
      status: 400,
      message: "The start date is after the end date",
    });
    expect(bad({ from: "2026-02-30", to: "2026-03-01" })).toMatchObject({ ok: false, status: 400 });
    expect(bad({ from: "2026-03-01", to: "yesterday" })).toMatchObject({ ok: false, status: 400 });
    expect(bad({ from: "2021-03-01", to: "2026-03-01" })).toMatchObject({
      ok: false,
      message: "A statement covers at most 5 years",
    });
    expect(bad({ from: "2021-03-01", to: "2026-02-28" })).toMatchObject({ ok: true });
    // The default: this month so far.
    expect(bad({})).toEqual({ ok: true, period: { from: "2026-11-01", to: "2026-11-23" } });
  });

  it("answers 404 for no such client and refuses staff", async () => {
    expect(await clientStatement(manager, 2_000_000_000, MARCH)).toMatchObject({ ok: false, status: 404 });
    await expect(clientStatement(staff, clientId, MARCH)).rejects.toMatchObject({ status: 403 });
    await expect(clientStatementExport(staff, clientId, new URLSearchParams(MARCH))).rejects.toMatchObject({
      status: 403,
    });
  });
});

// What a client owes is kept per due date (migration 0010, decision 0970 "Kept totals"); the
// statement's balance and ageing start from those rows and correct only the invoices that changed
// after the statement's end. Against the definition, invoice by invoice, from the tables.
describe("the kept totals behind the balance and the ageing", () => {
  let other: number;
  const issued = new Map<number, string>();

  async function invoiceFor(client: number, amount: string, day: string, due: string) {
    const invoice = await invoiceOn(amount, day, due, client);
    issued.set(invoice.id, day);
    return invoice;
  }

  /** The ageing at the end of `asOf` by its definition: every invoice that is not void, one by one. */
  async function ageingByDefinition(client: number, asOf: string) {
    const db = await getDb();
    const invoices = await db.select().from(schema.invoices).where(eq(schema.invoices.clientId, client));
    const payments = await db.select().from(schema.payments);
    const credits = await db.select().from(schema.creditNotes);
    const rows = invoices
      .filter((i) => i.paymentStatus !== "void" && issued.get(i.id)! <= asOf)
      .map((i) => {
        const paid = payments.filter((p) => p.invoiceId === i.id && p.paymentDate <= asOf).map((p) => p.amount);
        const credited = credits.filter((c) => c.invoiceId === i.id && c.issueDate <= asOf).map((c) => c.amount);
        return { due: i.expectedPaymentDate, outstanding: toFixed(sub(sub(i.amount, add(...paid)), add(...credited))) };
      })
      .filter((r) => r.outstanding !== "0.00");
    return ageingOf(rows, asOf);
  }

  beforeAll(async () => {
    other = (await createClient({ name: "Ageing Client", taxRate: "0", paymentTermsDays: 30 })).id;
    // P: 1,000.00 paid 300.00 in February, credited 900.00 in April: owed 700.00 at the end of
    // March, a credit of 200.00 now (its sign changes after March).
    const p = await invoiceFor(other, "1000.00", "2026-01-05", "2026-02-04");
    await pay(p.id, "300.00", "2026-02-10");
    await credit(p.id, "900.00", "2026-04-10");
    // Q: 500.00 issued in March, paid in full in May.
    const q = await invoiceFor(other, "500.00", "2026-03-15", "2026-04-14");
    await pay(q.id, "500.00", "2026-05-01");
    // R: 800.00 issued in April, unpaid. T: 250.00 from January, unpaid. S: voided.
    await invoiceFor(other, "800.00", "2026-04-20", "2026-05-20");
    await invoiceFor(other, "250.00", "2026-01-20", "2026-02-19");
    const s = await invoiceFor(other, "400.00", "2026-02-01", "2026-03-03");
    const voided = await voidInvoice(manager, s.id, { reason: "Raised twice" });
    if (!voided.ok) throw new Error(voided.message);
  });

  it("age every day as the definition does, across a change of sign and an invoice issued later", async () => {
    for (const asOf of ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-15", "2026-05-31", "2026-11-25"]) {
      expect({ asOf, ageing: await ageingAsOf(other, asOf) }).toEqual({
        asOf,
        ageing: await ageingByDefinition(other, asOf),
      });
    }
    // At the end of March: P owes 700.00 (55 days), T 250.00 (40 days), Q 500.00 (not yet due).
    expect(await ageingAsOf(other, "2026-03-31")).toEqual({
      current: "500.00",
      d1_30: "0.00",
      d31_60: "950.00",
      d61_90: "0.00",
      over90: "0.00",
      total: "1450.00",
    });
    // Now: P is a credit of 200.00 (Current), R owes 800.00, T 250.00.
    const now = await clientStatement(manager, other, { from: "2026-11-01", to: "2026-11-25" });
    if (!now.ok) throw new Error(now.message);
    expect(now.statement.closingBalance).toBe("850.00");
    expect(now.statement.ageing.total).toBe("850.00");
    expect(now.statement.ageing.current).toBe("-200.00");
  });

  it("ages an invoice over 90 days late that was paid and credited after the date, on both sides of 90 days", async () => {
    // The kept rows are read one by one only for the 90 days before the date (decision 0970); what was owed on an older due date then is corrected the same way.
    const late = (await createClient({ name: "Late Payer", taxRate: "0", paymentTermsDays: 30 })).id;
    const old = await invoiceFor(late, "1000.00", "2025-06-01", "2025-07-01");
    await pay(old.id, "400.00", "2026-03-10");
    await credit(old.id, "100.00", "2026-04-20");
    await invoiceFor(late, "300.00", "2026-01-10", "2026-02-09");
    for (const asOf of ["2025-09-29", "2025-09-30", "2026-01-31", "2026-03-31", "2026-04-30", "2026-05-31"]) {
      expect({ asOf, ageing: await ageingAsOf(late, asOf) }).toEqual({
        asOf,
        ageing: await ageingByDefinition(late, asOf),
      });
    }
    // 90 days after its due date the old invoice is 61-90; a day later, Over 90.
    expect(await ageingAsOf(late, "2025-09-29")).toMatchObject({ d61_90: "1000.00", over90: "0.00" });
    expect(await ageingAsOf(late, "2025-09-30")).toMatchObject({ d61_90: "0.00", over90: "1000.00" });
    expect(await ageingAsOf(late, "2026-03-31")).toMatchObject({ d31_60: "300.00", over90: "600.00", total: "900.00" });
  });

  it("give each period's totals exactly as its lines add up, read page by page", async () => {
    // The totals come from the kept day totals (decision 0970), the lines
    // from the rows; both clients, periods that cut through payments, credit notes and a void.
    const periods = [
      { from: "2026-01-01", to: "2026-05-31" },
      { from: "2026-01-15", to: "2026-02-10" },
      { from: "2026-02-11", to: "2026-04-09" },
      { from: "2026-03-01", to: "2026-03-31" },
      { from: "2026-04-10", to: "2026-04-10" },
      { from: "2026-05-01", to: "2026-05-31" },
    ];
    let lines = 0;
    for (const client of [clientId, other]) {
      for (const period of periods) {
        let after = null;
        const debits: string[] = [];
        const credits: string[] = [];
        let head: { totalDebits: string; totalCredits: string; openingBalance: string; closingBalance: string };
        let last = "";
        do {
          const result = await clientStatement(manager, client, period, after, 2);
          if (!result.ok) throw new Error(result.message);
          const s = result.statement;
          head = s;
          for (const l of s.lines) {
            debits.push(l.debit);
            credits.push(l.credit);
            last = l.balance;
          }
          after = s.nextCursor ? parseStatementCursor(s.nextCursor) : null;
          if (after === "invalid") throw new Error("bad cursor");
        } while (after);
        lines += debits.length;
        expect({ client, period, debits: head.totalDebits, credits: head.totalCredits }).toEqual({
          client,
          period,
          debits: toFixed(add("0", ...debits)),
          credits: toFixed(add("0", ...credits)),
        });
        if (debits.length > 0) expect(last).toBe(head.closingBalance);
      }
    }
    expect(lines).toBeGreaterThan(20);
  });

  it("page a busy day's lines in the same order as one page holds them, whatever the page size", async () => {
    // A page reads only the days its lines can reach (decision 0970): the
    // days are counted from the invoices and the kept payment counts, without credit notes.
    const busy = (await createClient({ name: "Busy Day Client", taxRate: "0", paymentTermsDays: 30 })).id;
    const first = await invoiceOn("9000.00", "2026-05-11", "2026-07-01", busy);
    const second = await invoiceOn("500.00", "2026-05-12", "2026-07-02", busy);
    for (const amount of ["100.00", "200.00", "300.00", "400.00", "500.00"]) await pay(first.id, amount, "2026-05-12");
    await credit(first.id, "50.00", "2026-05-12");
    await credit(second.id, "25.00", "2026-05-13");
    await credit(first.id, "75.00", "2026-05-13");
    await pay(second.id, "100.00", "2026-05-14");
    await invoiceOn("700.00", "2026-05-15", "2026-07-05", busy);
    const may = { from: "2026-05-11", to: "2026-05-31" };
    const read = async (limit: number, period = may) => {
      const seen: string[] = [];
      let after = null;
      do {
        const result = await clientStatement(manager, busy, period, after, limit);
        if (!result.ok) throw new Error(result.message);
        seen.push(...result.statement.lines.map((l) => `${l.date} ${l.kind} ${l.debit} ${l.credit} ${l.balance}`));
        after = result.statement.nextCursor ? parseStatementCursor(result.statement.nextCursor) : null;
        if (after === "invalid") throw new Error("bad cursor");
      } while (after);
      return seen;
    };
    const whole = await read(1000);
    expect(whole).toHaveLength(12);
    expect(whole.at(-1)).toBe("2026-05-15 invoice 700.00 0.00 8450.00");
    for (const limit of [1, 2, 3, 5, 6, 7, 11])
      expect({ limit, lines: await read(limit) }).toEqual({ limit, lines: whole });
    // A period that starts on the busy day and one that ends on it.
    const from2 = { from: "2026-05-12", to: "2026-05-31" };
    expect(await read(2, from2)).toEqual(await read(1000, from2));
    const to2 = { from: "2026-05-11", to: "2026-05-12" };
    expect(await read(4, to2)).toEqual(whole.slice(0, 8));
  });

  it("equal a recount from the invoices, and db:check finds a row that does not", async () => {
    const db = await getDb();
    const owedBreaches = async () =>
      (await findBreaches(db as unknown as Db)).filter((b) => b.check.startsWith("client owed totals"));
    expect(await owedBreaches()).toEqual([]);
    const kept = rowsOf<{ owed: string; credit: string }>(
      await db.execute(
        sql`select coalesce(sum(owed), 0)::text as owed, coalesce(sum(credit), 0)::text as credit from client_owed_totals where client_id = ${other}`,
      ),
    )[0];
    expect(kept).toEqual({ owed: "1050.00", credit: "-200.00" });
    await db.execute(
      sql`update client_owed_totals set owed = owed + 1 where client_id = ${other} and due_date = '2026-05-20'`,
    );
    expect(await owedBreaches()).toEqual([
      expect.objectContaining({ detail: expect.stringContaining(`client ${other} due 2026-05-20`) }),
    ]);
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(await owedBreaches()).toEqual([]);
  });

  it("keep the payments per client and day as a recount does, and db:check finds a day that does not", async () => {
    const db = await getDb();
    const dayBreaches = async () =>
      (await findBreaches(db as unknown as Db)).filter((b) => b.check === "payment day totals equal their payments");
    expect(await dayBreaches()).toEqual([]);
    await db.execute(
      sql`update payment_day_totals set n = n + 1 where client_id = ${other} and payment_date = '2026-02-10'`,
    );
    expect(await dayBreaches()).toEqual([
      expect.objectContaining({ detail: `client ${other} on 2026-02-10: kept 2 for 300.00, recount 1 for 300.00` }),
    ]);
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(await dayBreaches()).toEqual([]);
  });
});

describe("one snapshot for a statement (decision 0970)", () => {
  // PGlite has one connection: a download does not hold it between batches (see the last test).
  it.runIf(testDriver() === "postgres")(
    "reads a download's figures and every line in one snapshot, while a payment lands between them",
    async () => {
      const client = (await createClient({ paymentTermsDays: 30 })).id;
      const invoice = await invoiceOn("1000.00", "2026-03-03", "2026-04-02", client);
      const out = await clientStatementExport(manager, client, new URLSearchParams(MARCH));
      if (!out || "invalid" in out) throw new Error("no export");
      // A payment of the period, committed once the opening and closing balances and the ageing
      // are read and before the lines are.
      await pay(invoice.id, "250.00", "2026-03-15");
      const rows: string[][] = [];
      for await (const batch of out.batches) for (const r of batch) rows.push([r.date, r.type, r.balance]);
      expect(rows).toEqual([
        ["2026-03-01", "Opening balance", "0.00"],
        ["2026-03-03", "Invoice", "1000.00"],
        ["2026-03-31", "Closing balance", "1000.00"],
        ["2026-03-31", "Ageing: Current", "1000.00"],
        ["2026-03-31", "Ageing: 1–30 days", "0.00"],
        ["2026-03-31", "Ageing: 31–60 days", "0.00"],
        ["2026-03-31", "Ageing: 61–90 days", "0.00"],
        ["2026-03-31", "Ageing: Over 90 days", "0.00"],
      ]);
      // The next statement has the payment, in its lines and its figures alike.
      const after = await clientStatement(manager, client, MARCH);
      if (!after.ok) throw new Error(after.message);
      expect(after.statement.lines.map((l) => [l.kind, l.balance])).toEqual([
        ["invoice", "1000.00"],
        ["payment", "750.00"],
      ]);
      expect(after.statement).toMatchObject({
        closingBalance: "750.00",
        ageing: { current: "750.00", total: "750.00" },
      });
    },
  );

  it.runIf(testDriver() === "postgres")(
    "lets go of a snapshot whose reader stops asking, and fails the reader that comes back",
    async () => {
      const held = await holdSnapshot(
        async () => "head",
        async function* (tx) {
          yield rowsOf<{ one: number }>(await tx.execute(sql`select 1 as one`));
        },
        50,
      );
      if (!held) throw new Error("no snapshot");
      await new Promise((resolve) => setTimeout(resolve, 150));
      await expect(held.rows.next()).rejects.toThrow(/stalled/);
      // The connection is free again (PGlite has only one).
      const db = await getDb();
      expect(rowsOf<{ two: number }>(await db.execute(sql`select 2 as two`))).toEqual([{ two: 2 }]);
      // A reader that stops at once lets go at once; a head that finds nothing ends the transaction.
      const stopped = await holdSnapshot(
        async () => "head",
        async function* () {
          yield 1;
        },
      );
      await stopped?.rows.return?.();
      expect(
        await holdSnapshot(
          async () => null,
          async function* () {},
        ),
      ).toBeNull();
      expect(rowsOf<{ three: number }>(await db.execute(sql`select 3 as three`))).toEqual([{ three: 3 }]);
    },
  );

  it.runIf(testDriver() === "pglite")(
    "on PGlite, reads the figures in one snapshot and does not hold the one connection between batches",
    async () => {
      const client = (await createClient({ paymentTermsDays: 30 })).id;
      await invoiceOn("1000.00", "2026-03-03", "2026-04-02", client);
      const out = await clientStatementExport(manager, client, new URLSearchParams(MARCH));
      if (!out || "invalid" in out) throw new Error("no export");
      // Between the figures and the lines, another request gets the connection at once.
      const db = await getDb();
      const other = db.execute(sql`select 1 as one`).then(() => "answered");
      const late = new Promise((resolve) => setTimeout(() => resolve("waited"), 2_000));
      expect(await Promise.race([other, late])).toBe("answered");
      const rows: string[] = [];
      for await (const batch of out.batches) for (const r of batch) rows.push(r.type);
      expect(rows).toContain("Closing balance");
    },
  );
});

// The bank statement import (docs/decisions/1241), on both drivers: a statement read into its
// account's lines, an overlapping one adding nothing twice, bad files and mappings refused with
// nothing written, proposals (invoice number, learnt account number, name, amount short by
// withholding), a confirmed match recording the receipt and its withholding once, two people
// confirming one line at once (one receipt, one 409), "not a client receipt", and db:check.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf, schema, type User } from "../../app/db.server";
import { importStatement, markNotReceipt } from "../../app/models/bank-statement.server";
import { listBankLines, owedByBalanceQuery } from "../../app/presenters/bank-lines.server";
import { matchBankLine } from "../../app/services/bank/match-bank-line.server";
import { todayIn } from "../../app/utils/dates";
import { findBreaches } from "../../db/ops";
import { expectEveryEventWorded } from "../audit-words";
import { createAgent, createClient, createUser } from "../factories";
import { invoiceOfTenThousand, invoiceRow } from "../money-entries";

const today = todayIn("Africa/Lagos");
const day = today.split("-").reverse().join("/"); // dd/MM/yyyy
let manager: User;
let other: User;
let staff: User;
let agentId: number;

const MAPPING = {
  dateColumn: "Trans Date",
  dateFormat: "dd/MM/yyyy",
  narrationColumn: "Narration",
  referenceColumn: "Reference",
  amountStyle: "split",
  creditColumn: "Credit",
  debitColumn: "Debit",
};

const csv = (...lines: string[]) =>
  ["Account,PKS main", "Trans Date,Reference,Narration,Debit,Credit,Balance", ...lines].join("\r\n");
const line = (ref: string, narration: string, credit: string, debit = "") =>
  `${day},${ref},"${narration}",${debit},"${credit}",0.00`;

beforeAll(async () => {
  manager = await createUser({ role: "manager" });
  other = await createUser({ role: "manager" });
  staff = await createUser({ role: "staff" });
  agentId = (await createAgent()).id;
});

async function counts() {
  const db = await getDb();
  return rowsOf<Record<string, number>>(
    await db.execute(sql`select (select count(*) from bank_accounts)::int as accounts,
      (select count(*) from bank_statements)::int as statements, (select count(*) from bank_lines)::int as lines,
      (select count(*) from receipts)::int as receipts, (select count(*) from withholdings)::int as withholdings`),
  )[0];
}

async function importInto(accountName: string, text: string, extra: Record<string, unknown> = {}) {
  const made = await importStatement(manager, { ...MAPPING, accountName, ...extra }, { name: "nov.csv", text });
  if (!made.ok) throw new Error(made.message);
  return made;
}

async function lineByRef(reference: string) {
  const db = await getDb();
  const [row] = await db.select().from(schema.bankLines).where(eq(schema.bankLines.reference, reference));
  return row;
}

describe("importing a statement", () => {
  it("reads the lines, debits marked as no receipt, and an overlapping statement adds only what is new", async () => {
    const first = await importInto(
      "Zenith current",
      csv(
        line("R1", "TRF A", "1,000.00"),
        line("R2", "TRF B", "2,000.00"),
        line("R2", "TRF B", "2,000.00"), // the same transfer twice in one day: two lines
        line("D1", "SMS charge", "", "50.00"),
      ),
    );
    expect(first).toMatchObject({ linesRead: 4, linesAdded: 4, duplicates: 0 });
    const again = await importStatement(
      manager,
      { ...MAPPING, bankAccountId: String(first.bankAccountId) },
      {
        name: "overlap.csv",
        text: csv(
          line("R2", "TRF   b", "2,000.00"),
          line("R2", "TRF B", "2,000.00"),
          line("D1", "SMS charge", "", "50.00"),
          line("R3", "TRF C", "3,000.00"),
        ),
      },
    );
    expect(again).toMatchObject({ ok: true, linesRead: 4, linesAdded: 1, duplicates: 3 });
    const db = await getDb();
    const rows = await db
      .select()
      .from(schema.bankLines)
      .where(eq(schema.bankLines.bankAccountId, first.bankAccountId));
    expect(rows.map((r) => [r.reference, r.amount, r.status]).sort()).toEqual([
      ["D1", "-50.00", "not_receipt"],
      ["R1", "1000.00", "unmatched"],
      ["R2", "2000.00", "unmatched"],
      ["R2", "2000.00", "unmatched"],
      ["R3", "3000.00", "unmatched"],
    ]);
    // The mapping is saved on the account.
    const [account] = await db
      .select()
      .from(schema.bankAccounts)
      .where(eq(schema.bankAccounts.id, first.bankAccountId));
    expect(account.mapping).toMatchObject({ creditColumn: "Credit", dateFormat: "dd/MM/yyyy" });
  });

  it("refuses a file that is no CSV, too large, without a credit column, a mapping that does not fit: nothing written", async () => {
    const before = await counts();
    const tries: [Record<string, unknown>, string, number, RegExp][] = [
      [{}, "\u0000\u0001PK binary", 400, /not a CSV/],
      [{}, "x".repeat(2 * 1024 * 1024 + 1), 413, /2 MB/],
      [{}, "Trans Date,Reference,Narration,Debit\n01/11/2026,a,b,1", 400, /no credit column/],
      [{ dateColumn: "Value Date" }, csv(line("Q1", "x", "1.00")), 400, /does not fit/],
      [{ dateFormat: "yyyy-MM-dd" }, csv(line("Q1", "x", "1.00")), 400, /Line 3: the date/],
      [{ amountStyle: "signed" }, csv(line("Q1", "x", "1.00")), 400, /Amount column is required/],
      [{ dateFormat: "dd.MM.yyyy" }, csv(line("Q1", "x", "1.00")), 400, /Date format/],
      [{ accountName: "" }, csv(line("Q1", "x", "1.00")), 400, /Choose a bank account/],
    ];
    for (const [fields, text, status, message] of tries) {
      const result = await importStatement(
        manager,
        { ...MAPPING, accountName: "Refused", ...fields },
        { name: "f.csv", text },
      );
      expect(result, String(message)).toMatchObject({ ok: false, status, message: expect.stringMatching(message) });
    }
    expect(
      await importStatement(staff, { ...MAPPING, accountName: "Staff" }, { name: "f", text: "a,b" }),
    ).toMatchObject({ ok: false, status: 403 });
    expect(await counts()).toEqual(before);
  });
});

describe("proposals and the match", () => {
  it("proposes by invoice number, name and amount; Confirm records the receipt and its WHT once", async () => {
    const client = await createClient({ name: `Acme Farms ${Date.now()} Ltd`, whtRate: "5.00" });
    const a = (await invoiceOfTenThousand(manager, agentId, client.id)).invoice;
    const b = (await invoiceOfTenThousand(manager, agentId, client.id)).invoice;
    const byName = client.name.replace(/ Ltd$/, "").toUpperCase();
    await importInto(
      "GTB collections",
      csv(
        line("M1", `NIP FRM 0123456789 INV ${a.invoiceNo}`, "9,534.88"),
        line("M2", `TRF FROM ${byName} NIG LTD`, "9,534.88"),
        line("M3", "CASH DEPOSIT", "9,534.88"),
      ),
    );
    const page = await listBankLines(manager, { status: "unmatched" });
    const view = (ref: string) => page.items.find((x) => x.reference === ref)!;
    expect(view("M1").proposals[0]).toMatchObject({
      rule: "invoice",
      clientId: client.id,
      fit: "withholding",
      invoices: [{ id: a.id, balance: "10000.00" }],
    });
    expect(view("M2").proposals[0]).toMatchObject({ rule: "name", clientId: client.id, fit: "withholding" });
    expect(view("M3").proposals.map((p) => p.rule)).toEqual(["amount", "amount"]);
    expect(
      view("M3")
        .proposals.flatMap((p) => p.invoices.map((i) => i.id))
        .sort(),
    ).toEqual([a.id, b.id].sort());

    const m1 = await lineByRef("M1");
    const before = await counts();
    const key = { idempotencyKey: `match-${m1.id}` };
    const made = await matchBankLine(manager, m1.id, { clientId: client.id, invoiceIds: [a.id] }, new Date(), key);
    if (!made.ok) throw new Error(made.message);
    expect(made.receipt).toMatchObject({ amount: "9534.88", settled: "10000.00", withheld: "465.12" });
    expect(made.receipt.allocations).toEqual([
      expect.objectContaining({ invoiceId: a.id, cash: "9534.88", wht: "465.12" }),
    ]);
    expect(await invoiceRow(a.id)).toMatchObject({ paymentStatus: "paid", amountWithheld: "465.12" });
    expect(await lineByRef("M1")).toMatchObject({ status: "matched", receiptId: made.receipt.id });
    // The same key again is the same receipt; anyone else is told it is matched.
    const replay = await matchBankLine(manager, m1.id, { clientId: client.id, invoiceIds: [a.id] }, new Date(), key);
    expect(replay).toMatchObject({ ok: true, replayed: true, receipt: { id: made.receipt.id } });
    expect(await matchBankLine(other, m1.id, { clientId: client.id })).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringMatching(/already matched/),
    });
    expect(await counts()).toEqual({ ...before, receipts: before.receipts + 1, withholdings: before.withholdings + 1 });

    // The account number the narration showed is now the client's: a later line with only it is proposed.
    await importInto("GTB collections 2", csv(line("M4", "NIP FRM 0123456789", "9,534.88")));
    const later = await listBankLines(manager, { status: "unmatched" });
    expect(later.items.find((x) => x.reference === "M4")!.proposals[0]).toMatchObject({
      rule: "account",
      clientId: client.id,
      invoices: [{ id: b.id }],
    });
    expect(await findBreaches(await getDb())).toEqual([]);
  });

  it("two people confirming one line at the same moment: one receipt, one 409", async () => {
    const client = await createClient({ whtRate: "5.00" });
    const a = (await invoiceOfTenThousand(manager, agentId, client.id)).invoice;
    await invoiceOfTenThousand(manager, agentId, client.id);
    await importInto("Race account", csv(line("RACE1", `INV ${a.invoiceNo}`, "9,534.88")));
    const race = await lineByRef("RACE1");
    const before = await counts();
    const results = await Promise.all([
      matchBankLine(manager, race.id, { clientId: client.id, invoiceIds: [a.id] }, new Date(), {
        idempotencyKey: "race-1",
      }),
      matchBankLine(other, race.id, { clientId: client.id }, new Date(), { idempotencyKey: "race-2" }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.status === 409)).toHaveLength(1);
    expect((await counts()).receipts).toBe(before.receipts + 1);
    expect(await findBreaches(await getDb())).toEqual([]);
  });

  it("refuses a debit, another client's invoice, staff; a line marked as no receipt is not matched", async () => {
    const client = await createClient({ whtRate: "5.00" });
    const stranger = await createClient();
    const theirs = (await invoiceOfTenThousand(manager, agentId, stranger.id)).invoice;
    await invoiceOfTenThousand(manager, agentId, client.id);
    await importInto(
      "Refusals account",
      csv(line("X1", "TRF", "9,534.88"), line("X2", "LOAN", "500,000.00"), line("X3", "FEE", "", "10.00")),
    );
    const [x1, x2, x3] = await Promise.all(["X1", "X2", "X3"].map(lineByRef));
    const before = await counts();
    expect(await matchBankLine(manager, x3.id, { clientId: client.id })).toMatchObject({ status: 409 });
    expect(await matchBankLine(manager, x1.id, { clientId: client.id, invoiceIds: [theirs.id] })).toMatchObject({
      status: 400,
      fieldErrors: { allocations: [expect.any(String)] },
    });
    expect(await matchBankLine(staff, x1.id, { clientId: client.id })).toMatchObject({ status: 403 });
    expect(await matchBankLine(manager, 2_000_000, { clientId: client.id })).toMatchObject({ status: 404 });
    expect(await counts()).toEqual(before);

    expect(await markNotReceipt(staff, x2.id)).toMatchObject({ ok: false, status: 403 });
    expect(await markNotReceipt(manager, x2.id)).toMatchObject({ ok: true });
    expect(await markNotReceipt(other, x2.id)).toMatchObject({ ok: false, status: 409 });
    expect(await matchBankLine(manager, x2.id, { clientId: client.id })).toMatchObject({ ok: false, status: 409 });
    expect(await lineByRef("X2")).toMatchObject({ status: "not_receipt", receiptId: null });
    expect(await counts()).toEqual(before);
    await expectEveryEventWorded();
  });

  it("db:check names a matched line whose receipt is not of its amount", async () => {
    const client = await createClient();
    const a = (await invoiceOfTenThousand(manager, agentId, client.id)).invoice;
    await importInto("Check account", csv(line("C1", `INV ${a.invoiceNo}`, "4,000.00"), line("C2", "TRF", "1.00")));
    const c1 = await lineByRef("C1");
    const made = await matchBankLine(manager, c1.id, { clientId: client.id, invoiceIds: [a.id] });
    if (!made.ok) throw new Error(made.message);
    expect(await findBreaches(await getDb())).toEqual([]);
    // A hand edit the app never makes: another line pointed at the receipt instead.
    const db = await getDb();
    await db.transaction(async (tx) => {
      await tx
        .update(schema.bankLines)
        .set({ status: "unmatched", receiptId: null })
        .where(eq(schema.bankLines.id, c1.id));
      await tx
        .update(schema.bankLines)
        .set({ status: "matched", receiptId: made.receipt.id })
        .where(eq(schema.bankLines.reference, "C2"));
    });
    expect(await findBreaches(db)).toEqual([
      expect.objectContaining({ check: "a matched bank line's receipt has its amount" }),
    ]);
    await db
      .update(schema.bankLines)
      .set({ status: "unmatched", receiptId: null })
      .where(eq(schema.bankLines.reference, "C2"));
    await db
      .update(schema.bankLines)
      .set({ status: "matched", receiptId: made.receipt.id })
      .where(eq(schema.bankLines.id, c1.id));
    expect(await findBreaches(db)).toEqual([]);
  });
});

describe("the proposals' reads stay on indexes", () => {
  it("the match by amount reads three invoices a balance, not every owed invoice nor every one of that balance", async () => {
    const db = await getDb();
    const client = await createClient();
    const user = await createUser({ role: "manager" });
    // 6,000 owed invoices of 3,000 balances, two each, and 1,000 more of one balance (650,000,
    // as ten tons make thousands of one figure at a million deliveries), due in turn; loaded in
    // bulk with the totals triggers off.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into deliveries (date, agent_id, client_id, tons, location, status, created_by, buying_rate, selling_rate)
        select date '2024-01-01' + g / 20, ${agentId}, ${client.id}, case when g > 6000 then 1000 else 10 + g % 3000 end,
               'Yard', 'confirmed', ${user.id}::uuid, 52000, 65000
        from generate_series(1, 7000) g`);
      await tx.execute(sql`
        insert into invoices (invoice_no, delivery_id, client_id, amount, tax_rate, profit, expected_payment_date, payment_status, amount_paid, issue_date)
        select (900000 + d.id)::text, d.id, d.client_id, d.tons * 650, 0, 0, d.date + 30, 'pending', 0, d.date
        from deliveries d where d.client_id = ${client.id}`);
    });
    await db.execute(sql`analyze invoices`);
    const query = owedByBalanceQuery(["650000.00", "12345.67", "651300.00"]);
    const [row] = rowsOf<Record<string, unknown>>(await db.execute(sql`explain (analyze, format json) ${query}`));
    type Node = { "Index Name"?: string; "Actual Rows"?: number; "Node Type"?: string; Plans?: Node[] };
    const nodes: Node[] = [];
    const walk = (n: Node) => (nodes.push(n), (n.Plans ?? []).forEach(walk));
    walk((Object.values(row)[0] as { Plan: Node }[])[0].Plan);
    const probes = nodes.filter((n) => n["Index Name"] === "invoices_owed_balance_idx");
    expect(probes).toHaveLength(1);
    expect(probes[0]["Actual Rows"]).toBeLessThanOrEqual(3); // a loop's rows, one loop a balance
    expect(nodes.map((n) => n["Node Type"])).not.toContain("Sort");
    const ids = rowsOf<{ id: number }>(await db.execute(query)).map((r) => Number(r.id));
    // The same three a figure as a plain read of every owed invoice of that figure, oldest due
    // first: three of the 1,002 at 650,000, none at 12,345.67, and both at 651,300 (1,002 tons).
    const expected = [];
    for (const balance of ["650000.00", "12345.67", "651300.00"])
      expected.push(
        ...rowsOf<{ id: number }>(
          await db.execute(sql`select id from invoices
            where amount_paid + amount_withheld + amount_credited < amount and payment_status <> 'void'
              and amount - (amount_paid + amount_withheld + amount_credited) = ${balance}
            order by expected_payment_date, id limit 3`),
        ).map((r) => Number(r.id)),
      );
    expect(expected).toHaveLength(5);
    expect(ids.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
  });
});

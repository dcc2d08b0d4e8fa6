// A client statement with what the client withheld (docs/decisions/0970, 1240), on both drivers:
// each withholding's WHT and VAT are lines of their own, by the receipt's date, after the receipt's
// cash; a reversed receipt's withholding comes back as reversal lines on the day it was reversed;
// the running and closing balances equal the invoices' balances (amount - paid - withheld -
// credited); pages of any size give the same lines; the CSV and the PDF carry them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { User } from "../../app/db.server";
import { clientStatement, type StatementLine } from "../../app/presenters/client-statement.server";
import { clientStatementExport } from "../../app/presenters/statement-exports.server";
import { loadSharedDocument } from "../../app/presenters/shared-document.server";
import * as clientPdf from "../../app/routes/_app.clients_.$id_.statement_.pdf";
import { parseStatementCursor } from "../../app/schemas/statement-query.server";
import { createInvoiceForDelivery } from "../../app/services/invoices/create-invoice.server";
import { recordReceipt } from "../../app/services/receipts/record-receipt.server";
import { reverseReceipt } from "../../app/services/receipts/reverse-receipt.server";
import { todayIn } from "../../app/utils/dates";
import { clientLineReference, clientLineType } from "../../app/utils/money-line-words";
import { findBreaches } from "../../db/ops";
import { getDb } from "../../app/db.server";
import { createAgent, createClient, createDelivery, createUser, loginAs } from "../factories";
import { invoiceRow, rewriteInvoice } from "../money-entries";

const MARCH = { from: "2026-03-01", to: "2026-03-31" };
let admin: User;
let manager: User;
let clientId: number;
let receiptId: number;
const invoiceIds: number[] = [];

/** An invoice of 10,000.00 (VAT 7.5 % inside it) issued on `day`, due on `due`. */
async function invoiceOn(agentId: number, day: string, due: string) {
  const d = await createDelivery({
    agentId,
    clientId,
    createdBy: manager.id,
    tons: "10.00",
    sellingRate: "1000.00",
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

const shown = (lines: StatementLine[]) =>
  lines.map((l) => [l.date, clientLineType(l), clientLineReference(l), l.invoiceNo, l.debit, l.credit, l.balance]);

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  const agentId = (await createAgent()).id;
  clientId = (await createClient({ name: "Withholding Client", taxRate: "7.50", whtRate: "5.00", withholdsVat: true }))
    .id;
  invoiceIds.push((await invoiceOn(agentId, "2026-03-02", "2026-04-01")).id);
  invoiceIds.push((await invoiceOn(agentId, "2026-03-03", "2026-03-20")).id);
  // 13,000.00 cash on 10 March, all automatic: B (due first) whole, 10,000 = 8,837.21 cash + WHT
  // 465.12 (10,000 x 5 / 107.5) + VAT 697.67 (10,000 x 7.5 / 107.5); A takes the 4,162.79 left,
  // grossed up: 4,162.79 x 107.5 / 95 = 4,710.5255 -> 4,710.53 settled, VAT 4,710.53 x 7.5 / 107.5
  // = 328.64, WHT 4,710.53 - 4,162.79 - 328.64 = 219.10.
  const made = await recordReceipt(manager, { clientId, date: "2026-03-10", amount: "13000.00", reference: "NIP-77" });
  if (!made.ok) throw new Error(made.message);
  receiptId = made.receipt.id;
  const byInvoice = Object.fromEntries(made.receipt.allocations.map((a) => [a.invoiceId, a]));
  expect(byInvoice[invoiceIds[0]]).toMatchObject({
    amount: "4710.53",
    cash: "4162.79",
    wht: "219.10",
    vatWithheld: "328.64",
  });
  expect(byInvoice[invoiceIds[1]]).toMatchObject({
    amount: "10000.00",
    cash: "8837.21",
    wht: "465.12",
    vatWithheld: "697.67",
  });
});

describe("a client statement with withholding", () => {
  it("lists the receipt's cash, then its WHT, then its VAT withheld, each reducing the balance", async () => {
    const result = await clientStatement(manager, clientId, MARCH);
    if (!result.ok) throw new Error(result.message);
    const { statement } = result;
    const [a, b] = [statement.lines[0].invoiceNo, statement.lines[1].invoiceNo];
    const r = `Receipt #${receiptId}`;
    expect(shown(statement.lines)).toEqual([
      ["2026-03-02", "Invoice", a, a, "10000.00", "0.00", "10000.00"],
      ["2026-03-03", "Invoice", b, b, "10000.00", "0.00", "20000.00"],
      ["2026-03-10", "Payment", "NIP-77", a, "0.00", "4162.79", "15837.21"],
      ["2026-03-10", "Payment", "NIP-77", b, "0.00", "8837.21", "7000.00"],
      ["2026-03-10", "WHT withheld", `${r}, invoice #${a}`, a, "0.00", "219.10", "6780.90"],
      ["2026-03-10", "WHT withheld", `${r}, invoice #${b}`, b, "0.00", "465.12", "6315.78"],
      ["2026-03-10", "VAT withheld", `${r}, invoice #${a}`, a, "0.00", "328.64", "5987.14"],
      ["2026-03-10", "VAT withheld", `${r}, invoice #${b}`, b, "0.00", "697.67", "5289.47"],
    ]);
    expect(statement).toMatchObject({
      openingBalance: "0.00",
      totalDebits: "20000.00",
      totalCredits: "14710.53",
      closingBalance: "5289.47",
    });
    // The closing balance is what the invoices still owe: A 10,000 - 4,710.53, B nothing.
    expect(await invoiceRow(invoiceIds[0])).toMatchObject({ amountPaid: "4162.79", amountWithheld: "547.74" });
    expect(statement.ageing.current).toBe("5289.47");
  });

  it("pages the lines at every size in the same order, the running balance carried across", async () => {
    const whole = await clientStatement(manager, clientId, MARCH);
    if (!whole.ok) throw new Error(whole.message);
    for (let size = 1; size <= 5; size++) {
      const lines: StatementLine[] = [];
      let cursor: string | null = null;
      do {
        const after = cursor ? parseStatementCursor(cursor) : null;
        if (after === "invalid") throw new Error("bad cursor");
        const page = await clientStatement(manager, clientId, MARCH, after, size);
        if (!page.ok) throw new Error(page.message);
        lines.push(...page.statement.lines);
        cursor = page.statement.nextCursor;
      } while (cursor);
      expect(shown(lines), `pages of ${size}`).toEqual(shown(whole.statement.lines));
    }
  });

  it("exports the lines as CSV and draws them in the PDF", async () => {
    const out = await clientStatementExport(manager, clientId, new URLSearchParams(MARCH));
    if (!out || "invalid" in out) throw new Error("no export");
    const rows: string[][] = [];
    for await (const batch of out.batches) for (const r of batch) rows.push([r.type, r.credit ?? "", r.balance]);
    expect(rows.filter((r) => r[0].endsWith("withheld"))).toEqual([
      ["WHT withheld", "219.10", "6780.90"],
      ["WHT withheld", "465.12", "6315.78"],
      ["VAT withheld", "328.64", "5987.14"],
      ["VAT withheld", "697.67", "5289.47"],
    ]);
    expect(rows.find((r) => r[0] === "Closing balance")?.[2]).toBe("5289.47");

    const { cookie } = await loginAs("manager");
    const response = await clientPdf.loader({
      request: new Request(`http://localhost/clients/${clientId}/statement/pdf?from=${MARCH.from}&to=${MARCH.to}`, {
        headers: { Cookie: cookie },
      }),
      params: { id: String(clientId) },
      context: {},
    });
    expect(response.status).toBe(200);
    const file = path.join(mkdtempSync(path.join(tmpdir(), "statement-wht-")), "s.pdf");
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("WHT withheld");
    expect(text).toContain("VAT withheld");
    expect(text).toContain(`Receipt #${receiptId}`);
    expect(text).toContain("₦5,289.47");
  });

  it("takes a reversed receipt's withholding back on the day it was reversed, as its payments", async () => {
    const reversed = await reverseReceipt(admin, receiptId, { reason: "Wrong client" });
    if (!reversed.ok) throw new Error(reversed.message);
    const today = todayIn("Africa/Lagos");
    const result = await clientStatement(manager, clientId, { from: `${today.slice(0, 8)}01`, to: today });
    if (!result.ok) throw new Error(result.message);
    const { statement } = result;
    expect(statement.openingBalance).toBe("5289.47");
    expect(statement.lines.map((l) => [clientLineType(l), l.credit, l.balance])).toEqual([
      ["Payment reversal", "-4162.79", "9452.26"],
      ["Payment reversal", "-8837.21", "18289.47"],
      ["WHT withheld reversed", "-219.10", "18508.57"],
      ["WHT withheld reversed", "-465.12", "18973.69"],
      ["VAT withheld reversed", "-328.64", "19302.33"],
      ["VAT withheld reversed", "-697.67", "20000.00"],
    ]);
    expect(clientLineReference(statement.lines[2])).toBe(
      `Receipt reversed #${receiptId}, invoice #${statement.lines[2].invoiceNo}`,
    );
    // Both invoices are owed whole again.
    expect(statement.closingBalance).toBe("20000.00");

    // The shared statement (decision 1260) reads the same lines over its own months.
    const shared = await loadSharedDocument({
      id: 0,
      scope: "client-statement",
      subjectId: clientId,
      createdBy: admin.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    if (shared?.kind !== "client-statement") throw new Error("no shared statement");
    expect(shared.statement.lines.filter((l) => l.kind.endsWith("_withheld_reversal")).map((l) => l.credit)).toEqual([
      "-219.10",
      "-465.12",
      "-328.64",
      "-697.67",
    ]);
    expect(shared.statement.closingBalance).toBe("20000.00");
    expect(await findBreaches(await getDb())).toEqual([]);
  });
});

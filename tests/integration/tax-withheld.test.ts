// The tax report's withholding (docs/decisions/0990, 1240), on both drivers: what clients withheld
// from their receipts (WHT and VAT) counts in the month of the receipt's date, a reversal takes it
// back in the month it was made, a month with a withholding and no document is a month of the
// report; the kept totals (migration 0041) equal their rebuild and db:check recounts them; the
// page, the CSV and the JSON call carry the figures.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb, type User } from "../../app/db.server";
import { listTaxMonths, taxMonth } from "../../app/presenters/tax-report.server";
import * as taxPage from "../../app/routes/_app.tax";
import * as taxExport from "../../app/routes/_app.tax.export";
import * as taxApi from "../../app/routes/api.tax-months";
import { recordReceipt } from "../../app/services/receipts/record-receipt.server";
import { reverseReceipt } from "../../app/services/receipts/reverse-receipt.server";
import { todayIn } from "../../app/utils/dates";
import { findBreaches } from "../../db/ops";
import { createAgent, createClient, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";
import { expectKeptTotalsToMatchRebuild, invoiceOfTenThousand, rewriteInvoice } from "../money-entries";

const thisMonth = () => todayIn("Africa/Lagos").slice(0, 7);
let admin: User;
let manager: User;
let agentId: number;

beforeAll(async () => {
  admin = await createUser({ role: "admin" });
  manager = await createUser({ role: "manager" });
  agentId = (await createAgent()).id;
});

/** A client at VAT 7.5 % with an invoice of 10,000.00 issued on `day`. */
async function invoiceIssuedOn(day: string, whtRate: string, withholdsVat: boolean) {
  const clientId = (await createClient({ taxRate: "7.50", whtRate, withholdsVat })).id;
  const { invoice } = await invoiceOfTenThousand(manager, agentId, clientId);
  await rewriteInvoice(invoice.id, { issueDate: day, createdAt: new Date(`${day}T12:00:00+01:00`) });
  return { clientId, invoice };
}

describe("the tax report's withholding", () => {
  it("counts WHT and VAT withheld by the receipt's month, net of a reversal in its own month", async () => {
    // 10,000 at VAT 7.5, WHT 5 and the VAT withheld: WHT 10,000 x 5 / 107.5 = 465.116 -> 465.12,
    // VAT 10,000 x 7.5 / 107.5 = 697.674 -> 697.67, cash 8,837.21.
    const first = await invoiceIssuedOn("2023-08-01", "5.00", true);
    const one = await recordReceipt(manager, { clientId: first.clientId, date: "2023-08-15", amount: "8837.21" });
    if (!one.ok) throw new Error(one.message);
    expect(one.receipt.allocations[0]).toMatchObject({ wht: "465.12", vatWithheld: "697.67" });
    // WHT 2 %, no VAT withheld: 10,000 x 2 / 107.5 = 186.046 -> 186.05, cash 9,813.95; received in
    // September, a month with no invoice or credit note.
    const second = await invoiceIssuedOn("2023-08-02", "2.00", false);
    const two = await recordReceipt(manager, { clientId: second.clientId, date: "2023-09-05", amount: "9813.95" });
    if (!two.ok) throw new Error(two.message);
    expect(two.receipt.allocations[0]).toMatchObject({ wht: "186.05", vatWithheld: "0.00" });

    expect((await taxMonth(manager, "2023-08"))!.withheld).toEqual({
      withholdingCount: 1,
      withholdingReversalCount: 0,
      whtWithheld: "465.12",
      vatWithheld: "697.67",
    });
    const september = (await taxMonth(manager, "2023-09"))!;
    expect(september.rates).toEqual([]);
    expect(september.total).toMatchObject({ invoiceCount: 0, netTax: "0.00" });
    expect(september.withheld).toMatchObject({ withholdingCount: 1, whtWithheld: "186.05", vatWithheld: "0.00" });

    const reversed = await reverseReceipt(admin, one.receipt.id, { reason: "Wrong client" });
    if (!reversed.ok) throw new Error(reversed.message);
    // August keeps what was withheld then; the reversal gives it back in the month it was made.
    expect((await taxMonth(manager, "2023-08"))!.withheld).toMatchObject({ whtWithheld: "465.12" });
    expect((await taxMonth(manager, thisMonth()))!.withheld).toEqual({
      withholdingCount: 0,
      withholdingReversalCount: 1,
      whtWithheld: "-465.12",
      vatWithheld: "-697.67",
    });

    const { months } = await listTaxMonths(manager);
    const byMonth = Object.fromEntries(months.map((m) => [m.month, m]));
    expect(Object.keys(byMonth)).toEqual([thisMonth(), "2023-09", "2023-08"]);
    expect(byMonth["2023-09"]).toMatchObject({ invoiceCount: 0, whtWithheld: "186.05", vatWithheld: "0.00" });
    expect(byMonth["2023-08"]).toMatchObject({ invoiceCount: 2, whtWithheld: "465.12", vatWithheld: "697.67" });
    expect(byMonth[thisMonth()]).toMatchObject({ invoiceCount: 0, whtWithheld: "-465.12", vatWithheld: "-697.67" });

    expect(await findBreaches(await getDb())).toEqual([]);
    await expectKeptTotalsToMatchRebuild(["withholding_month_totals", "tax_month_totals"]);
  });

  it("answers the page, the CSV and the JSON call with the withheld figures", async () => {
    const { cookie } = await loginAs("manager");
    const page = await call(taxPage.loader, makeRequest("/tax?month=2023-09", { cookie }));
    expect(page.status).toBe(200);
    const data = page.body as Awaited<ReturnType<typeof taxPage.loader>>;
    expect(data.month?.withheld.whtWithheld).toBe("186.05");
    expect(data.months.find((m) => m.month === "2023-09")?.whtWithheld).toBe("186.05");

    const csv = await call(taxExport.loader, makeRequest("/tax/export", { cookie }));
    expect(csv.status).toBe(200);
    const lines = String(csv.body).split("\r\n");
    expect(lines[0]).toContain("WHT Withheld,VAT Withheld,Books");
    expect(lines.find((l) => l.startsWith("2023-08,"))).toMatch(/,465\.12,697\.67,Open$/);
    expect(lines.find((l) => l.startsWith("2023-09,"))).toMatch(/,186\.05,0\.00,Open$/);

    const api = await call(taxApi.loader, makeRequest("/api/tax-months?month=2023-09", { cookie }));
    expect(api.status).toBe(200);
    expect(api.body).toMatchObject({ month: "2023-09", rates: [], withheld: { whtWithheld: "186.05" } });
    const list = await call(taxApi.loader, makeRequest("/api/tax-months", { cookie }));
    expect(list.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ month: "2023-08", whtWithheld: "465.12", vatWithheld: "697.67" }),
      ]),
    );
  });

  it("db:check names a month whose kept withholding differs from its rows", async () => {
    const db = await getDb();
    await db.execute(sql`update withholding_month_totals set wht = wht + 1 where month = '2023-09-01'`);
    expect(await findBreaches(db)).toEqual([
      {
        check: "withholding month totals equal their withholdings",
        detail: "2023-09: kept WHT 187.05 VAT 0.00, recount WHT 186.05 VAT 0.00",
      },
    ]);
    await db.execute(sql`select pks_rebuild_totals()`);
    expect(await findBreaches(db)).toEqual([]);
  });
});

// Proposing a bank line's match (docs/decisions/1241): invoice numbers and account numbers in a
// narration, client names as a bank spells them, how the cash fits (short by withholding is a
// fit), the gross-up's candidates, the plan of the receipt a match records, and the ranking.
import { describe, expect, it } from "vitest";
import {
  accountNumbersIn,
  fitOf,
  invoiceNumbersIn,
  namesClient,
  planMatch,
  rankProposals,
  settledCandidates,
  type Proposal,
} from "./bank-matching";
import { settle } from "./withholding";

const wht5 = { whtRate: "5.00", withholdsVat: false };
const inv = (id: number, balance: string) => ({ id, invoiceNo: String(126 + id), balance, taxRate: "7.50" });

describe("reading a narration", () => {
  it("finds invoice numbers after INV, invoice or #, never bare numbers", () => {
    expect(invoiceNumbersIn("TRF FROM ACME INV 127")).toEqual(["127"]);
    expect(invoiceNumbersIn("inv#131/132 and 133")).toEqual(["131", "132", "133"]);
    expect(invoiceNumbersIn("Invoice No. 140 & 141, ref 99")).toEqual(["140", "141"]);
    expect(invoiceNumbersIn("payment for #0150")).toEqual(["150"]);
    expect(invoiceNumbersIn("INVOICES 200,201")).toEqual(["200", "201"]);
    expect(invoiceNumbersIn("NIP TRF 0123456789 5000")).toEqual([]);
    expect(invoiceNumbersIn("investment 2000")).toEqual([]);
  });
  it("finds ten-digit account numbers, alone", () => {
    expect(accountNumbersIn("FRM 0123456789 TO 98765432101")).toEqual(["0123456789"]);
  });
  it("names a client by its words, without the company suffixes, in a bank's capitals", () => {
    expect(namesClient("TRF FRM DANGOTE CEMENT PLC/INV", "Dangote Cement Plc")).toBe(true);
    expect(namesClient("NIP/ACME FARMS NIG LTD", "Acme Farms Limited")).toBe(true);
    expect(namesClient("ACME FARMSTEAD", "Acme Farms")).toBe(false);
    expect(namesClient("CO LTD", "Co Ltd")).toBe(false);
  });
});

describe("how the cash fits", () => {
  it("the balance, the balance short by the WHT, less, more, or no invoice named", () => {
    // 10,000 at VAT 7.5, WHT 5: 465.12 withheld, 9,534.88 cash.
    expect(fitOf("10000.00", [inv(1, "10000.00")], wht5)).toBe("exact");
    expect(fitOf("9534.88", [inv(1, "10000.00")], wht5)).toBe("withholding");
    expect(fitOf("19069.76", [inv(1, "10000.00"), inv(2, "10000.00")], wht5)).toBe("withholding");
    expect(fitOf("5000.00", [inv(1, "10000.00")], wht5)).toBe("part");
    expect(fitOf("12000.00", [inv(1, "10000.00")], wht5)).toBe("over");
    expect(fitOf("12000.00", [], wht5)).toBe("oldest");
  });
  it("the settled amounts a cash figure may be: itself and its gross-up a kobo either side", () => {
    const rates = [
      { vatRate: "7.50", whtRate: "5.00", withholdsVat: false },
      { vatRate: "7.50", whtRate: "0.00", withholdsVat: false },
    ];
    const candidates = settledCandidates("9534.88", rates);
    expect(candidates).toContain("9534.88");
    expect(candidates).toContain("10000.00");
    expect(candidates).toHaveLength(4);
    // Over many balances, the balance a short payment settles is always among the candidates.
    for (let kobo = 100_00; kobo < 100_000_00; kobo += 7_919_37) {
      const balance = (kobo / 100).toFixed(2);
      const cash = settle(balance, rates[0]).cash;
      expect(settledCandidates(cash, rates), balance).toContain(balance);
    }
  });
});

describe("the receipt a match records", () => {
  it("settles the invoices named in order, the last by the gross-up of what is left", () => {
    expect(planMatch("9534.88", [inv(1, "10000.00"), inv(2, "10000.00")], wht5)).toEqual([
      { invoiceId: 1, amount: "10000.00" },
    ]);
    expect(planMatch("14534.88", [inv(1, "10000.00"), inv(2, "10000.00")], wht5)).toEqual([
      { invoiceId: 1, amount: "10000.00" },
      { invoiceId: 2, amount: "5243.90" },
    ]);
    expect(planMatch("100.00", [], wht5)).toEqual([]);
  });
});

describe("ranking", () => {
  const p = (rule: Proposal["rule"], clientId: number, fit: Proposal["fit"], ids: number[] = []): Proposal => ({
    rule,
    clientId,
    clientName: `C${clientId}`,
    fit,
    invoices: ids.map((id) => inv(id, "1.00")),
  });
  it("invoice number, then account, then name, then amount; better fits first; each client and set once", () => {
    const ranked = rankProposals([
      p("amount", 3, "exact", [9]),
      p("name", 2, "oldest"),
      p("invoice", 1, "over", [1]),
      p("name", 2, "withholding", [5]),
      p("amount", 1, "exact", [1]),
    ]);
    expect(ranked.map((x) => `${x.rule}:${x.clientId}:${x.fit}`)).toEqual([
      "invoice:1:over",
      "name:2:withholding",
      "name:2:oldest",
    ]);
  });
});

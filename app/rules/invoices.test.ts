import { describe, expect, it } from "vitest";
import { balanceOf, dueDateOf, statusAfterSettlement, taxContained } from "./invoices.server";

describe("tax contained in a tax-inclusive amount: A x r / (100 + r), half away from zero to the kobo", () => {
  it("takes the tax out of the amount, not on top of it", () => {
    // 2,150.00 at 7.5% is 2,000.00 net plus 150.00 tax.
    expect(taxContained("2150.00", "7.50")).toBe("150.00");
    expect(taxContained("107.50", "7.5")).toBe("7.50");
    // 1,985,765.28 x 7.5 / 107.5 = 138,541.7637...
    expect(taxContained("1985765.28", "7.50")).toBe("138541.76");
    // 1,000 x 7.5 / 107.5 = 69.7674...
    expect(taxContained("1000.00", "7.50")).toBe("69.77");
    // 1.00 x 5.25 / 105.25 = 0.04988...
    expect(taxContained("1.00", "5.25")).toBe("0.05");
  });

  it("rounds an exact half kobo away from zero (not to even)", () => {
    expect(taxContained("0.01", "100")).toBe("0.01"); // 0.005
    expect(taxContained("0.05", "100")).toBe("0.03"); // 0.025: banker's rounding would give 0.02
    expect(taxContained("99999999.99", "100.00")).toBe("50000000.00"); // 49,999,999.995
  });

  it("is zero at a zero rate or amount", () => {
    expect(taxContained("1234.56", "0")).toBe("0.00");
    expect(taxContained("0.00", "7.50")).toBe("0.00");
  });
});

describe("balance and status after payments and credit notes", () => {
  const invoice = (amountPaid: string, amountCredited: string, amountWithheld = "0") => ({
    amount: "1000.00",
    amountPaid,
    amountCredited,
    amountWithheld,
    paymentStatus: "partial" as const,
  });

  it("balance = amount - paid - credited; beyond what is unpaid it is the client's credit (negative)", () => {
    expect(balanceOf(invoice("300.00", "200.00"))).toBe("500.00");
    expect(balanceOf(invoice("1000.00", "250.00"))).toBe("-250.00");
    expect(balanceOf({ ...invoice("0", "0"), paymentStatus: "void" })).toBe("0.00");
  });

  it("paid once paid + credited reaches the amount, partial once anything is settled, pending before", () => {
    expect(statusAfterSettlement(invoice("0", "0"))).toBe("pending");
    expect(statusAfterSettlement(invoice("0", "0.01"))).toBe("partial");
    expect(statusAfterSettlement(invoice("999.99", "0"))).toBe("partial");
    expect(statusAfterSettlement(invoice("600.00", "400.00"))).toBe("paid");
    expect(statusAfterSettlement(invoice("1000.00", "300.00"))).toBe("paid");
  });

  it("counts what the client withheld as settled: balance = amount - paid - withheld - credited (decision 1240)", () => {
    expect(balanceOf(invoice("900.00", "0", "60.00"))).toBe("40.00");
    expect(statusAfterSettlement(invoice("900.00", "0", "60.00"))).toBe("partial");
    expect(statusAfterSettlement(invoice("940.00", "0", "60.00"))).toBe("paid");
    expect(statusAfterSettlement(invoice("0", "0", "0.01"))).toBe("partial");
  });
});

describe("due date: the issue date plus the client's terms (decision 0300, Due date)", () => {
  it("counts from the day the invoice is issued, not from its deliveries", () => {
    // June's deliveries invoiced on 28 Nov on 30-day terms: due 28 Dec, not 29 Jul.
    expect(dueDateOf("2026-11-28", 30)).toBe("2026-12-28");
    expect(dueDateOf("2026-02-15", 45)).toBe("2026-04-01");
  });

  it("is the issue date itself on terms of 0 days, never before it", () => {
    expect(dueDateOf("2026-11-28", 0)).toBe("2026-11-28");
  });
});

// Reading a bank's CSV (docs/decisions/1241): the RFC 4180 reader, amounts as exact decimals,
// dates in the mapping's format, the header found under a preamble, refusals naming the problem,
// and fingerprints that make an overlapping statement add nothing twice.
import { describe, expect, it } from "vitest";
import type { BankMapping } from "~/db.server";
import {
  applyMapping,
  fingerprints,
  MAX_STATEMENT_LINES,
  parseAmount,
  parseDate,
  readCsv,
} from "./bank-statement.server";

const split: BankMapping = {
  dateColumn: "Trans Date",
  dateFormat: "dd/MM/yyyy",
  narrationColumn: "Narration",
  referenceColumn: "Reference",
  amountStyle: "split",
  creditColumn: "Credit",
  debitColumn: "Debit",
};
const TODAY = "2026-11-29";

const rowsOf = (text: string) => {
  const rows = readCsv(text);
  if (!Array.isArray(rows)) throw new Error(rows.message);
  return rows;
};

describe("readCsv", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, CRLF and a byte-order mark", () => {
    expect(rowsOf('\uFEFFa,b\r\n"1,000.00","say ""hi""\nthere"\r\n\r\nx,\n')).toEqual([
      ["a", "b"],
      ["1,000.00", 'say "hi"\nthere'],
      ["x", ""],
    ]);
  });
  it("refuses binary data, an unclosed quote, one column throughout, an empty file, too many lines", () => {
    expect(readCsv("a,b\n\u0000\u0001")).toMatchObject({ status: 400, message: expect.stringMatching(/not a CSV/) });
    expect(readCsv('a,b\n"open,2\n')).toMatchObject({ status: 400, message: expect.stringMatching(/never closed/) });
    expect(readCsv("just some text\nanother line")).toMatchObject({ status: 400 });
    expect(readCsv("")).toMatchObject({ status: 400, message: "The file is empty" });
    const big = "a,b\n" + "1,2\n".repeat(MAX_STATEMENT_LINES + 30);
    expect(readCsv(big)).toMatchObject({ status: 413, message: expect.stringMatching(/10,000/) });
  });
});

describe("parseAmount", () => {
  it.each([
    ["1,234,567.50", "1234567.50"],
    ["  5000 ", "5000.00"],
    ["₦12,000.5", "12000.50"],
    ["NGN 250.00", "250.00"],
    ["(1,000.00)", "-1000.00"],
    ["-75.25", "-75.25"],
    ["300.00 CR", "300.00"],
    ["300.00DR", "-300.00"],
    ["0.00", "0.00"],
  ])("%s is %s", (raw, value) => expect(parseAmount(raw)).toBe(value));
  it("blank is no amount, and what is no number is invalid (never a float)", () => {
    expect(parseAmount("")).toBeNull();
    expect(parseAmount(" - ")).toBeNull();
    for (const bad of ["1.234", "12,34.00", "abc", "1e5", "0.1.2", "1,2345.00", "9999999999999.00"])
      expect(parseAmount(bad), bad).toBe("invalid");
  });
});

describe("parseDate", () => {
  it("reads each format, ignores a time after the date, refuses what is not a day", () => {
    expect(parseDate("03/11/2026", "dd/MM/yyyy")).toBe("2026-11-03");
    expect(parseDate("11/03/2026", "MM/dd/yyyy")).toBe("2026-11-03");
    expect(parseDate("2026-11-03 14:22:05", "yyyy-MM-dd")).toBe("2026-11-03");
    expect(parseDate("03-Nov-2026", "dd-MMM-yyyy")).toBe("2026-11-03");
    expect(parseDate("03 Nov 2026", "dd MMM yyyy")).toBe("2026-11-03");
    expect(parseDate("03-Nov-26", "dd-MMM-yy")).toBe("2026-11-03");
    expect(parseDate("31/02/2026", "dd/MM/yyyy")).toBeNull();
    expect(parseDate("2026-11-03", "dd/MM/yyyy")).toBeNull();
    expect(parseDate("", "dd/MM/yyyy")).toBeNull();
  });
});

describe("applyMapping", () => {
  const file = [
    "Account Name,PKS Trading Ltd",
    "Period,01/11/2026 - 28/11/2026",
    "Trans Date,Reference,Narration,Debit,Credit,Balance",
    "01/11/2026,,Opening balance,,,100.00",
    '02/11/2026,FT001,"TRF FROM ACME LTD INV 127",,"9,534.88","9,634.88"',
    "03/11/2026,CHG9,SMS charges,50.00,,9584.88",
  ].join("\n");

  it("finds the header under a preamble, skips rows without an amount, signs debits", () => {
    const read = applyMapping(rowsOf(file), split, TODAY);
    expect(read).toEqual({
      ok: true,
      data: {
        skipped: 1,
        lines: [
          { date: "2026-11-02", amount: "9534.88", narration: "TRF FROM ACME LTD INV 127", reference: "FT001" },
          { date: "2026-11-03", amount: "-50.00", narration: "SMS charges", reference: "CHG9" },
        ],
      },
    });
  });

  it("reads one signed amount column", () => {
    const signed: BankMapping = {
      dateColumn: "date",
      dateFormat: "yyyy-MM-dd",
      narrationColumn: "details",
      amountStyle: "signed",
      amountColumn: "amount",
    };
    const read = applyMapping(rowsOf("Date,Details,Amount\n2026-11-02,In,1000\n2026-11-03,Out,-20.5"), signed, TODAY);
    expect(read.ok && read.data.lines.map((l) => l.amount)).toEqual(["1000.00", "-20.50"]);
  });

  it("names what does not fit: no credit column, a column missing, a bad date or amount, a future day", () => {
    const noCredit = applyMapping(rowsOf("Trans Date,Narration,Debit,Reference\n01/11/2026,x,1,r"), split, TODAY);
    expect(noCredit).toMatchObject({
      status: 400,
      message: expect.stringMatching(/no credit column/),
      fieldErrors: { creditColumn: [expect.any(String)] },
    });
    const otherNames = applyMapping(rowsOf("When,What,In\n01/11/2026,x,1"), split, TODAY);
    expect(otherNames).toMatchObject({ status: 400, message: expect.stringMatching(/does not fit/) });
    const badDate = applyMapping(rowsOf(file.replace("02/11/2026", "2026-11-02")), split, TODAY);
    expect(badDate).toMatchObject({ status: 400, message: expect.stringMatching(/^Line 5: the date/) });
    const badAmount = applyMapping(rowsOf(file.replace('"9,534.88"', "lots")), split, TODAY);
    expect(badAmount).toMatchObject({ status: 400, message: expect.stringMatching(/^Line 5: the credit/) });
    const future = applyMapping(rowsOf(file.replace("02/11/2026", "02/12/2026")), split, TODAY);
    expect(future).toMatchObject({ status: 400, message: expect.stringMatching(/future/) });
    const both = applyMapping(rowsOf(file.replace(',,"9,534.88"', ',1.00,"9,534.88"')), split, TODAY);
    expect(both).toMatchObject({ status: 400, message: expect.stringMatching(/both a credit and a debit/) });
  });
});

describe("fingerprints", () => {
  const line = { date: "2026-11-02", amount: "5000.00", narration: "POS  transfer", reference: null };
  it("the same line is the same print in any file; identical lines in one file are told apart by their order", () => {
    const [a, b] = fingerprints([line, line]);
    expect(a).not.toBe(b);
    const again = fingerprints([{ ...line, narration: "pos transfer" }, line, line]);
    expect(again.slice(0, 2)).toEqual([a, b]);
    expect(new Set(again).size).toBe(3);
    expect(fingerprints([{ ...line, amount: "5000.01" }])[0]).not.toBe(a);
  });
});

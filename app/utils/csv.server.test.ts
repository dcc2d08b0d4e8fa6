import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvCell, csvResponse, guardFormula, type CsvColumn } from "./csv.server";

describe("formula guard", () => {
  it("prefixes ' to text a spreadsheet would run", () => {
    for (const hostile of ['=HYPERLINK("x")', "+2+3", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd"]) {
      expect(guardFormula(hostile)).toBe(`'${hostile}`);
    }
  });
  it("leaves other text alone, including a sign further in", () => {
    for (const plain of ["Musa Ibrahim", "Ikorodu = yard", " =x", "'quoted", "", "₦ rate"]) {
      expect(guardFormula(plain)).toBe(plain);
    }
  });
  it("guards text cells only: amounts, dates and numbers are written as they are", () => {
    expect(csvCell("text", "-5 bags")).toBe("'-5 bags");
    expect(csvCell("amount", "-1250.5")).toBe("-1250.50");
    expect(csvCell("amount", "65000")).toBe("65000.00");
    expect(csvCell("number", "-3")).toBe("-3");
    expect(csvCell("date", "2026-01-15")).toBe("2026-01-15");
    expect(csvCell("date", new Date("2026-03-04T10:00:00Z"))).toBe("2026-03-04");
    expect(csvCell("text", null)).toBe("");
    expect(csvCell("amount", undefined)).toBe("");
  });
});

describe("csvResponse", () => {
  type Row = { name: string; amount: string };
  const columns: CsvColumn<Row>[] = [
    { header: "Name", kind: "text", value: (r) => r.name },
    { header: "Amount", kind: "amount", value: (r) => r.amount },
  ];
  async function* batches() {
    yield [{ name: '=HYPERLINK("x")', amount: "-10" }];
    yield [{ name: "Line\nbreak, comma", amount: "1000000.05" }];
  }

  it("starts with a byte-order mark, ends rows with CRLF, and parses back to the guarded cells", async () => {
    const res = csvResponse("t.csv", columns, batches());
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="t.csv"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    expect(text).toContain("Name,Amount\r\n");
    expect(parse(text, { bom: true })).toEqual([
      ["Name", "Amount"],
      ['\'=HYPERLINK("x")', "-10.00"],
      ["Line\nbreak, comma", "1000000.05"],
    ]);
  });

  it("reads a batch only when the client asks for more", async () => {
    let read = 0;
    async function* counted() {
      for (let i = 0; i < 5; i++) {
        read++;
        yield [{ name: `n${i}`, amount: "1" }];
      }
    }
    const reader = csvResponse("t.csv", columns, counted()).body!.getReader();
    await reader.read(); // header
    await reader.read(); // first batch
    expect(read).toBeLessThanOrEqual(2);
    await reader.cancel();
  });
});

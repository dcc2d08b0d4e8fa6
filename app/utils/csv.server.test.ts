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

  it("writes a timestamp in a date column as its day in the business time zone", () => {
    // 23:30 UTC on 28 February is 00:30 on 1 March in Lagos; 22:59 UTC is still 28 February.
    expect(csvCell("date", "2026-02-28T23:30:00.000Z", "Africa/Lagos")).toBe("2026-03-01");
    expect(csvCell("date", new Date("2026-02-28T23:30:00Z"), "Africa/Lagos")).toBe("2026-03-01");
    expect(csvCell("date", "2026-02-28T22:59:59.999Z", "Africa/Lagos")).toBe("2026-02-28");
    // The zone is APP_TIME_ZONE unless given (Africa/Lagos in the tests' environment).
    expect(csvCell("date", "2026-02-28T23:00:00.000Z")).toBe("2026-03-01");
    expect(csvCell("date", "2026-02-28T23:30:00.000Z", "UTC")).toBe("2026-02-28");
    // A calendar date stays the date it is, whatever the zone.
    expect(csvCell("date", "2026-03-01", "America/Los_Angeles")).toBe("2026-03-01");
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

  it("writes a row's timestamps as days of APP_TIME_ZONE", async () => {
    type Stamped = { at: string };
    async function* stamped() {
      yield [{ at: "2026-02-28T23:30:00.000Z" }];
    }
    const stampedColumns: CsvColumn<Stamped>[] = [{ header: "Recorded", kind: "date", value: (r) => r.at }];
    const text = await csvResponse("t.csv", stampedColumns, stamped()).text();
    expect(parse(text, { bom: true })).toEqual([["Recorded"], ["2026-03-01"]]);
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

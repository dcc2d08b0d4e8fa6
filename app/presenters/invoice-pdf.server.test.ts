import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleInvoice } from "../../tests/invoice-sample";
import { fontRuns, renderInvoicePdf } from "./invoice-pdf.server";

describe("invoice PDF", () => {
  it("draws ₦ in the latin-ext font and the rest in latin", () => {
    expect(fontRuns("₦1,234.50")).toEqual([
      { font: "LatinExt", text: "₦" },
      { font: "Latin", text: "1,234.50" },
    ]);
    expect(fontRuns("Rate (₦/ton)", "bold").map((r) => r.font)).toEqual(["LatinBold", "LatinExtBold", "LatinBold"]);
  });

  it("is a PDF whose text holds the number, the naira amounts and the amount in words", async () => {
    const pdf = await renderInvoicePdf(sampleInvoice(60));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const dir = mkdtempSync(path.join(tmpdir(), "invoice-pdf-"));
    const file = path.join(dir, "invoice.pdf");
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("4242");
    expect(text).toContain("₦5,957,295.83");
    expect(text.replace(/\s+/g, " ")).toContain("Five Million Nine Hundred Fifty Seven Thousand");
    expect(text).toContain("Page 2 of 2");
  });
});

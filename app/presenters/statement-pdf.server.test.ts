import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleInvoice } from "../../tests/invoice-sample";
import { CLIENT_STATEMENT_COLUMNS, renderLedgerPdf, type Ledger } from "./statement-pdf.server";

async function bytesOf(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

function textOf(pdf: Buffer, dir = mkdtempSync(path.join(tmpdir(), "statement-pdf-"))) {
  const file = path.join(dir, "statement.pdf");
  writeFileSync(file, pdf);
  return {
    file,
    page: (n: number) =>
      execFileSync("pdftotext", ["-layout", "-f", String(n), "-l", String(n), file, "-"], { encoding: "utf8" }),
    pages: Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1]),
  };
}

function ledger(rows: number, overrides: Partial<Ledger> = {}): Ledger {
  async function* batches() {
    // Fed in batches, as the keyset pages come.
    for (let start = 0; start < rows; start += 50) {
      yield Array.from({ length: Math.min(50, rows - start) }, (_, i) => [
        "01/03/2026",
        "Payment",
        `TRF-${start + i}`,
        "4242",
        "",
        "1,000.00",
        `₦${start + i},000.00`,
      ]);
    }
  }
  return {
    title: "STATEMENT",
    documentTitle: "Statement of account: Okomu Oil Palm",
    business: sampleInvoice().business,
    facts: [
      ["Statement of account", ""],
      ["From", "01/03/2026"],
      ["To", "31/03/2026"],
    ],
    party: { label: "STATEMENT FOR", name: "Okomu Oil Palm", lines: ["Km 5 Benin Road"] },
    summary: [
      ["Opening balance", "₦1,000.00"],
      ["Closing balance", "₦12,345.67"],
    ],
    columns: CLIENT_STATEMENT_COLUMNS,
    rows: batches(),
    closing: ["Closing balance at 31/03/2026", "12,345.67"],
    box: {
      title: "Ageing as of 31/03/2026",
      figures: [
        ["Current", "₦12,345.67"],
        ["Over 90 days", "₦0.00"],
        ["Total", "₦12,345.67"],
      ],
    },
    footer: "Statement · Okomu Oil Palm",
    ...overrides,
  };
}

describe("statement PDF", () => {
  it("draws every row fed to it across pages, the column header on each page, the closing row and the box", async () => {
    const pdf = await bytesOf(renderLedgerPdf(ledger(120)));
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const doc = textOf(pdf);
    expect(doc.pages).toBeGreaterThan(1);
    const first = doc.page(1);
    expect(first).toContain("STATEMENT");
    expect(first).toContain("Okomu Oil Palm");
    expect(first).toContain("₦12,345.67");
    expect(first).toContain("TRF-0");
    const second = doc.page(2);
    expect(second).toMatch(/DATE\s+TYPE\s+REFERENCE/);
    expect(second).toContain("Page 2");
    const last = doc.page(doc.pages);
    expect(last).toContain("TRF-119");
    expect(last).toContain("Closing balance at 31/03/2026");
    expect(last).toContain("AGEING AS OF 31/03/2026");
    expect(last).toContain("Over 90 days");
  });

  it("fails the stream when a batch cannot be read, rather than ending a short document", async () => {
    async function* broken() {
      yield [["01/03/2026", "Payment", "TRF-1", "4242", "", "1.00", "1.00"]];
      throw new Error("database went away");
    }
    await expect(bytesOf(renderLedgerPdf(ledger(0, { rows: broken() })))).rejects.toThrow();
  });
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sampleInvoice } from "../../tests/invoice-sample";
import { outside, overlaps, pdfWords } from "../../tests/pdf-words";
import { fontRuns, renderInvoicePdf, streamInvoicePdf } from "./invoice-pdf.server";
import { MARGIN } from "./pdf-kit.server";

async function textOf(pdf: Buffer) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "invoice-pdf-")), "invoice.pdf");
  writeFileSync(file, pdf);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

/** Invoices with nothing left to pay: void, paid in full, and paid past the amount (a credit). */
const settled = {
  void: sampleInvoice(3, {
    voided: true,
    voidReason: "Raised for the wrong client",
    status: "void",
    received: [],
    paid: "0.00",
    balance: "0.00",
  }),
  paid: sampleInvoice(3, {
    status: "paid",
    received: [{ kind: "payment", date: "2026-03-05", reference: "TRF-1", amount: "5957295.83" }],
    paid: "5957295.83",
    balance: "0.00",
  }),
  overCredited: sampleInvoice(3, {
    status: "paid",
    received: [
      { kind: "payment", date: "2026-03-05", reference: "TRF-1", amount: "5957295.83" },
      { kind: "credit", date: "2026-03-06", reference: "CN-1: moisture", amount: "1500.25" },
    ],
    paid: "5957295.83",
    credited: "1500.25",
    balance: "-1500.25",
  }),
};

describe("invoice PDF", () => {
  it("draws ₦ in the latin-ext font and the rest in latin", () => {
    expect(fontRuns("₦1,234.50")).toEqual([
      { font: "LatinExt", text: "₦" },
      { font: "Latin", text: "1,234.50" },
    ]);
    expect(fontRuns("Rate (₦/ton)", "bold").map((r) => r.font)).toEqual(["LatinBold", "LatinExtBold", "LatinBold"]);
  });

  it("is whole with a logo: pdfkit decodes a PNG with alpha after end(), and the trailer still comes", async () => {
    // 1 x 1 RGBA: its pixels are inflated asynchronously, so pdfkit ends its stream later.
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const invoice = sampleInvoice(3);
    const withLogo = { ...invoice, business: { ...invoice.business, logoUrl: "/logo?v=1" } };
    const pdf = await renderInvoicePdf(withLogo, { logo: { bytes: png, type: "image/png", version: "1" } });
    expect(pdf.subarray(-8).toString()).toContain("%%EOF");
    expect(await textOf(pdf)).toContain(invoice.invoiceNo);
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

  it("asks for payment only while something is due, and calls a balance below zero a credit", async () => {
    const due = await textOf(await renderInvoicePdf(sampleInvoice(3)));
    expect(due).toContain("PAYMENT INSTRUCTIONS");
    expect(due).toContain("Please pay by Mar 31, 2026 into:");
    expect(due).toMatch(/Balance Due\s+₦4,957,295.83/);
    for (const [name, invoice] of Object.entries(settled)) {
      const text = await textOf(await renderInvoicePdf(invoice));
      expect(text, name).not.toContain("PAYMENT INSTRUCTIONS");
      expect(text, name).not.toContain("Please pay by");
      expect(text, name).not.toContain("First Bank");
    }
    const credit = await textOf(await renderInvoicePdf(settled.overCredited));
    expect(credit).toMatch(/Credit\s+₦1,500.25/);
    expect(credit).not.toContain("Balance Due");
    expect(await textOf(await renderInvoicePdf(settled.paid))).toMatch(/Balance Due\s+₦0.00/);
  });

  it("prints Yoruba and Igbo names (ọ ẹ ị ụ) as letters, not missing-glyph boxes", async () => {
    const name = "Ẹmẹka Ọkọrọ";
    const text = await textOf(
      await renderInvoicePdf(
        sampleInvoice(3, {
          client: { name, address: "12 Ọkọta Road, Ịkẹja", email: null, phone: null, taxNo: null },
        }),
      ),
    );
    expect(text).toContain(name);
    expect(text).toContain("12 Ọkọta Road, Ịkẹja");
  });

  it("keeps 200-character names inside their boxes: nothing drawn over another word or off the page", async () => {
    const long = `${"Ẹmẹka Ọkọrọ Plantation Holdings ".repeat(7)}Limited`.slice(0, 200);
    const unbroken = "W".repeat(200);
    const business = sampleInvoice().business;
    for (const [companyName, clientName] of [
      [long, long],
      [unbroken, unbroken],
    ]) {
      const invoice = sampleInvoice(3, {
        business: { ...business, companyName },
        client: { name: clientName, address: "Km 5 Benin Road", email: null, phone: null, taxNo: null },
      });
      const [page] = pdfWords(await renderInvoicePdf(invoice));
      expect(overlaps(page.words).map(([a, b]) => `${a.text} / ${b.text}`)).toEqual([]);
      expect(outside(page, MARGIN).map((w) => w.text)).toEqual([]);
      const text = page.words.map((w) => w.text).join(" ");
      for (const label of ["INVOICE", "Invoice No", "BILL TO", "Amount (tax inclusive)", "Balance Due"]) {
        expect(text).toContain(label);
      }
    }
  });

  it("draws a batch of lines at a time as the reader takes the bytes: each once, in order, Page n of m", async () => {
    const invoice = sampleInvoice(1_000);
    let asked = 0;
    async function* batches() {
      for (let i = 0; i < 10; i++) {
        asked += 1;
        yield invoice.lines.slice(i * 100, (i + 1) * 100);
      }
    }
    const reader = streamInvoicePdf(invoice, batches()).getReader();
    const chunks: Uint8Array[] = [];
    const first = await reader.read();
    chunks.push(first.value!);
    // Not drawn ahead of its reader: the first bytes are out before the lines are read.
    expect(asked).toBeLessThanOrEqual(2);
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(asked).toBe(10);
    expect(chunks.length).toBeGreaterThan(10);
    const text = await textOf(Buffer.concat(chunks));
    expect(Array.from(text.matchAll(/LAG-\d+/g), (m) => m[0])).toEqual(invoice.lines.map((l) => l.truckNo));
    expect(text).toContain("1000 deliveries");
    const pages = text.split("\f").slice(0, -1);
    expect(pages.length).toBeGreaterThan(15);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
  });
});

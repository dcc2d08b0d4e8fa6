// The printable invoice rendered on the server: payment instructions only while something is
// due, and a balance below zero worded as the invoice page words it ("Credit ₦x").
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { sampleInvoice } from "../../../tests/invoice-sample";
import { InvoiceDocumentView, InvoiceLineRows } from "./invoice-document";

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

const view = (doc: ReturnType<typeof sampleInvoice>) => text(renderToStaticMarkup(<InvoiceDocumentView doc={doc} />));

describe("the printable invoice", () => {
  it("asks a client who owes something to pay, with the bank details", () => {
    const page = view(sampleInvoice(3));
    expect(page).toContain("Payment Instructions");
    expect(page).toContain("Please pay by Mar 31, 2026 into:");
    expect(page).toContain("Bank: First Bank");
    expect(page).toContain("Balance Due ₦4,957,295.83");
  });

  it("asks nothing of a void invoice, a paid one or one paid past its amount", () => {
    const settled = [
      sampleInvoice(3, { voided: true, voidReason: "Wrong client", status: "void", received: [], balance: "0.00" }),
      sampleInvoice(3, { status: "paid", balance: "0.00" }),
      sampleInvoice(3, { status: "paid", balance: "-1500.25" }),
    ];
    for (const doc of settled) {
      const page = view(doc);
      expect(page).not.toContain("Payment Instructions");
      expect(page).not.toContain("Please pay by");
      expect(page).not.toContain("First Bank");
    }
  });

  it("calls a balance below zero a credit, as the invoice page does, never “Balance Due -₦”", () => {
    const page = view(sampleInvoice(3, { status: "paid", balance: "-1500.25" }));
    expect(page).toContain("Credit ₦1,500.25");
    expect(page).not.toContain("Balance Due");
    expect(view(sampleInvoice(3, { status: "paid", balance: "0.00" }))).toContain("Balance Due ₦0.00");
  });

  it("leaves its table's body empty for the print page to stream the rows into, and counts every line", () => {
    const doc = sampleInvoice(3, { lineCount: 6_200 });
    const html = renderToStaticMarkup(<InvoiceDocumentView doc={doc} />);
    expect(html.split("<tbody></tbody>")).toHaveLength(2);
    expect(text(html)).toContain("6200 deliveries");
    const rows = renderToStaticMarkup(<InvoiceLineRows lines={doc.lines} />);
    expect(rows.match(/<tr /g)).toHaveLength(3);
    expect(text(rows)).toContain(" Feb 01, 2026 LAG-100 Ikorodu yard 30.55 65,000.50 1,985,765.28 ");
    expect(text(rows)).toContain(" Feb 03, 2026 LAG-102 ");
  });
});

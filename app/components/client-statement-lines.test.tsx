import type { ComponentProps } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { ClientStatementLines } from "~/components/client-statement-lines";
import type { StatementLine } from "~/presenters/client-statement.server";

const line = (over: Partial<StatementLine>): StatementLine => ({
  kind: "invoice",
  id: 1,
  date: "2026-03-02",
  reference: "131",
  invoiceId: 7,
  invoiceNo: "131",
  debit: "1000.00",
  credit: "0.00",
  balance: "1500.00",
  void: false,
  reversesPaymentId: null,
  note: null,
  reversesKind: null,
  cursor: "2026-03-02.1.1",
  ...over,
});
const page = (lines: StatementLine[], over: { continued?: boolean; nextCursor?: string | null } = {}) => ({
  period: { from: "2026-03-01", to: "2026-03-31" },
  openingBalance: "500.00",
  closingBalance: "1500.00",
  lines,
  continued: false,
  nextCursor: null,
  ...over,
});
const renderStatementLines = (statement: ComponentProps<typeof ClientStatementLines>["statement"]) =>
  renderToStaticMarkup(<ClientStatementLines statement={statement} />);

describe("a client statement's lines", () => {
  test("an invoice line: its date, type, invoice link and debit, with the opening and closing rows", () => {
    expect(renderStatementLines(page([line({})]))).toBe(
      '<tr><td>Mar 01, 2026</td><td colSpan="5">Opening balance</td><td class="text-right">₦500.00</td></tr>' +
        '<tr><td>Mar 02, 2026</td><td>Invoice</td><td></td><td><a href="/invoices/7" data-discover="true">131</a></td>' +
        '<td class="text-right">₦1,000.00</td><td class="text-right"></td><td class="text-right">₦1,500.00</td></tr>' +
        '<tr class="font-semibold"><td>Mar 31, 2026</td><td colSpan="5">Closing balance</td><td class="text-right">₦1,500.00</td></tr>',
    );
  });

  test("the opening row only on the first page, the closing row only on the last", () => {
    const middle = renderStatementLines(page([line({})], { continued: true, nextCursor: "2026-03-02.1.1" }));
    expect(middle).not.toContain("Opening balance");
    expect(middle).not.toContain("Closing balance");
    expect(renderStatementLines(page([], { continued: true }))).toBe(
      '<tr class="font-semibold"><td>Mar 31, 2026</td><td colSpan="5">Closing balance</td><td class="text-right">₦1,500.00</td></tr>',
    );
  });

  test("credits in the Credit column, negative ones with their sign; a void invoice greyed and marked", () => {
    const html = renderStatementLines(
      page([
        line({ kind: "payment", reference: "TRF-1", debit: "0.00", credit: "400.00" }),
        line({
          kind: "payment_reversal",
          reversesPaymentId: 9,
          note: "Bounced",
          reversesKind: "payment",
          debit: "0.00",
          credit: "-400.00",
        }),
        line({ kind: "invoice", void: true, debit: "0.00" }),
      ]),
    );
    expect(html).toContain(
      '<td>Payment</td><td>TRF-1</td><td><a href="/invoices/7" data-discover="true">131</a></td><td class="text-right"></td><td class="text-right">₦400.00</td>',
    );
    expect(html).toContain("<td>Payment reversal</td><td>Reverses payment #9: Bounced</td>");
    expect(html).toContain('<td class="text-right">-₦400.00</td>');
    expect(html).toContain('<tr class="text-slate-400"><td>Mar 02, 2026</td><td>Invoice (void)</td><td></td>');
  });

  test("names every kind as the page, the CSV and the PDF do", () => {
    const html = renderStatementLines(
      page([
        line({ kind: "credit_note", reference: "CN-1", debit: "0.00", credit: "100.00" }),
        line({
          kind: "credit_note_reversal",
          reference: "CN-1",
          note: "Issued in error",
          debit: "0.00",
          credit: "-100.00",
        }),
        line({ kind: "refund", reference: "RF-1", note: "Cash back", debit: "0.00", credit: "-200.00" }),
        line({ kind: "credit_moved_out", note: "140", debit: "0.00", credit: "-50.00" }),
        line({ kind: "credit_moved_in", note: "131", debit: "0.00", credit: "50.00" }),
      ]),
    );
    for (const cells of [
      "<td>Credit note</td><td>CN-1</td>",
      "<td>Credit note reversal</td><td>Reverses CN-1: Issued in error</td>",
      "<td>Refund</td><td>",
      "<td>Credit moved</td><td>To invoice #140</td>",
      "<td>Credit moved</td><td>From invoice #131</td>",
    ])
      expect(html).toContain(cells);
  });

  test("references, reasons and invoice numbers from the database stay text", () => {
    const html = renderStatementLines(
      page([
        line({ kind: "payment", reference: "<script>alert(1)</script>", debit: "0.00", credit: "1.00" }),
        line({
          kind: "credit_note_reversal",
          reference: "CN-1",
          note: '"><img src=x onerror=alert(1)>',
          debit: "0.00",
          credit: "-1.00",
        }),
        line({ invoiceNo: "<b>131</b>" }),
      ]),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain('href="/invoices/7" data-discover="true">&lt;b&gt;131&lt;/b&gt;</a>');
  });
});

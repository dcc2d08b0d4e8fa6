import { describe, expect, test } from "vitest";
import { invoiceCardsHtml, type InvoiceCard } from "~/components/invoices/invoice-cards-html";

const base: InvoiceCard = {
  id: 7,
  invoiceNo: "131",
  clientName: "Kodan",
  paymentStatus: "partial",
  payable: true,
  voidReason: null,
  amount: "1234567.5",
  amountPaid: "1000",
  amountCredited: "567.50",
  balance: "1233000.00",
  expectedPaymentDate: "2026-03-04",
  profit: "-20.00",
};

describe("invoice cards as HTML", () => {
  test("a card shows what the list promises, with its links as RowLinks", () => {
    const out = invoiceCardsHtml([base]);
    expect(out).toBe(
      '<li class="card p-4" aria-label="Invoice #131"><div class="flex items-start justify-between gap-2"><div>' +
        '<a href="/invoices/7" data-discover="true" class="block font-semibold underline-offset-2 hover:underline">Invoice #131</a>' +
        '<p class="page-subtitle">Kodan</p></div><span class="badge capitalize tone-blue">partial</span></div>' +
        '<dl class="facts"><dt>Amount</dt><dd>₦1,234,567.50</dd><dt>Paid</dt><dd>₦1,000.00</dd>' +
        "<dt>Credited</dt><dd>₦567.50</dd><dt>Balance</dt><dd>₦1,233,000.00</dd>" +
        "<dt>Due Date</dt><dd>Mar 04, 2026</dd><dt>Profit</dt><dd>-₦20.00</dd></dl>" +
        '<div class="mt-3 flex flex-wrap gap-2">' +
        '<a href="/invoices/7/pay" data-discover="true" data-keep-scroll="" class="btn-outline btn-sm">Record Payment</a>' +
        '<a href="/invoices/7/print" class="btn-ghost btn-sm" aria-label="Print invoice #131">Print</a>' +
        '<a href="/invoices/7/pdf" class="btn-ghost btn-sm" download="" aria-label="PDF of invoice #131">PDF</a></div></li>',
    );
  });

  test("a card carrying a client credit shows the credit in place of the balance", () => {
    const out = invoiceCardsHtml([{ ...base, amountPaid: "1234567.50", balance: "-567.50", clientCredit: "567.50" }]);
    expect(out).toContain("<dt>Credited</dt><dd>₦567.50</dd><dt>Client credit</dt><dd>₦567.50</dd>");
    expect(out).not.toContain("<dt>Balance</dt>");
  });

  test("a void card is struck through, says why and offers no payment", () => {
    const out = invoiceCardsHtml([{ ...base, paymentStatus: "void", payable: false, voidReason: "Wrong client" }]);
    expect(out).toContain('hover:underline line-through">Invoice #131</a>');
    expect(out).toContain('<p class="mt-2 text-sm text-slate-600 dark:text-slate-300">Void: Wrong client</p>');
    expect(out).toContain('<dl class="facts line-through">');
    expect(out).toContain('<span class="badge capitalize tone-slate">void</span>');
    expect(out).not.toContain("Record Payment");
  });

  test("names and reasons typed by people are text, never markup", () => {
    const out = invoiceCardsHtml([
      { ...base, clientName: '<script>alert("x")</script> & Co', voidReason: "<b onclick='x'>no</b>", payable: false },
    ]);
    expect(out).toContain('<p class="page-subtitle">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co</p>');
    expect(out).toContain("Void: &lt;b onclick=&#39;x&#39;&gt;no&lt;/b&gt;</p>");
    expect(out).not.toContain("<script>");
    expect(out).not.toContain("<b ");
  });

  test("one card per invoice, in the order given", () => {
    const out = invoiceCardsHtml([base, { ...base, id: 8, invoiceNo: "130" }]);
    expect(out.match(/<li /g)).toHaveLength(2);
    expect(out.indexOf("Invoice #131")).toBeLessThan(out.indexOf("Invoice #130"));
    expect(invoiceCardsHtml([])).toBe("");
  });
});

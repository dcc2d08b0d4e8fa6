import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { PaymentLines, PLAIN_ENTRY, type PaymentLine } from "~/components/payments/payment-lines";

const renderLines = (lines: PaymentLine[], canReverse: boolean, listSearch: URLSearchParams) =>
  renderToStaticMarkup(<PaymentLines lines={lines} canReverse={canReverse} listSearch={listSearch} />);

const base: PaymentLine = {
  id: 9,
  amount: "1234.5",
  paymentDate: "2026-03-04",
  invoiceId: 3,
  invoiceNo: "131",
  clientName: "Kodan",
  reference: "TRF-1",
  ...PLAIN_ENTRY,
};
const noSearch = new URLSearchParams();

describe("payment lines", () => {
  test("a payment shows its amount, day, invoice link, client, reference and Reverse", () => {
    expect(renderLines([base], true, new URLSearchParams("client=3&cursor=x"))).toBe(
      '<li class="flex flex-wrap items-center justify-between gap-2 p-4"><div>' +
        '<p class="font-semibold tabular-nums">₦1,234.50</p>' +
        '<p class="page-subtitle">Payment #9 · Mar 04, 2026 · ' +
        '<a href="/invoices/3" data-discover="true" class="underline">Invoice #131</a> · Kodan</p></div>' +
        '<div class="flex flex-wrap items-center gap-3">' +
        '<p class="text-sm text-slate-600 dark:text-slate-300">Ref: TRF-1</p>' +
        '<a href="/payments/9/reverse?client=3&amp;cursor=x" data-discover="true" data-keep-scroll="" class="btn-ghost text-sm" aria-label="Reverse payment #9">Reverse</a>' +
        "</div></li>",
    );
  });

  test("Reverse only for a user who may reverse, on an entry that is not a reversal and not reversed", () => {
    expect(renderLines([base], false, noSearch)).not.toContain("Reverse");
    const reversed = renderLines([{ ...base, reversedOn: "2026-03-05" }], true, noSearch);
    expect(reversed).toContain('<span class="badge tone-slate ml-2">Reversed</span>');
    expect(reversed).not.toContain(">Reverse<");
    const reversal = renderLines(
      [{ ...base, id: 10, amount: "-1234.5", reversesPaymentId: 9, note: "Bounced", reversesKind: "payment" }],
      true,
      noSearch,
    );
    expect(reversal).toContain('-₦1,234.50<span class="badge tone-amber ml-2">Reversal</span></p>');
    expect(reversal).toContain('<p class="text-sm">Reverses payment #9: Bounced</p>');
    expect(reversal).not.toContain(">Reverse<");
  });

  test("a refund and both halves of a credit move carry their mark and their line", () => {
    const [refund, movedOut, movedIn] = [
      { ...base, id: 11, amount: "-50", refund: true, note: "Overpaid" },
      { ...base, id: 12, amount: "-20", creditMovedToInvoiceNo: "140" },
      { ...base, id: 13, amount: "20", creditFromInvoiceNo: "131" },
    ].map((line) => renderLines([line], false, noSearch));
    expect(refund).toContain('-₦50.00<span class="badge tone-blue ml-2">Refund</span></p>');
    expect(refund).toContain('<p class="text-sm">Refund to the client: Overpaid</p>');
    expect(movedOut).toContain('-₦20.00<span class="badge tone-slate ml-2">Credit moved</span></p>');
    expect(movedOut).toContain('<p class="text-sm">Credit moved to invoice #140</p>');
    expect(movedIn).toContain('₦20.00<span class="badge tone-slate ml-2">Credit moved</span></p>');
    expect(movedIn).toContain('<p class="text-sm">Credit from invoice #131</p>');
  });

  test("a reversed refund carries both marks in order and no Reverse; a refund's reversal names it", () => {
    const reversedRefund = renderLines(
      [{ ...base, id: 11, amount: "-50", refund: true, note: "Overpaid", reversedOn: "2026-03-06" }],
      true,
      noSearch,
    );
    expect(reversedRefund).toContain(
      '-₦50.00<span class="badge tone-blue ml-2">Refund</span><span class="badge tone-slate ml-2">Reversed</span></p>',
    );
    expect(reversedRefund).not.toContain(">Reverse<");
    const reversal = renderLines(
      [{ ...base, id: 14, amount: "50", reversesPaymentId: 11, note: null, reversesKind: "refund" }],
      true,
      noSearch,
    );
    expect(reversal).toContain('<p class="text-sm">Reverses refund #11: </p>');
  });

  test("names, references and reasons typed by people are text, never markup", () => {
    const out = renderLines(
      [
        {
          ...base,
          clientName: "<script>x</script>",
          reference: '"><b>',
          refund: true,
          note: "<img src=x onerror='y'>",
        },
      ],
      true,
      noSearch,
    );
    expect(out).toContain("· &lt;script&gt;x&lt;/script&gt;</p>");
    expect(out).toContain("Ref: &quot;&gt;&lt;b&gt;</p>");
    expect(out).toContain("Refund to the client: &lt;img src=x onerror=&#x27;y&#x27;&gt;</p>");
    expect(out).not.toMatch(/<script|<b>|<img/);
    const reversal = renderLines(
      [{ ...base, invoiceNo: "<i>1</i>", reversesPaymentId: 9, note: '"><svg onload=x>', reversesKind: "payment" }],
      true,
      noSearch,
    );
    expect(reversal).toContain(">Invoice #&lt;i&gt;1&lt;/i&gt;</a>");
    expect(reversal).toContain("Reverses payment #9: &quot;&gt;&lt;svg onload=x&gt;</p>");
    expect(reversal).not.toMatch(/<i>|<svg/);
  });

  test("the list's own query rides on Reverse encoded, and cannot leave the attribute", () => {
    const out = renderLines([base], true, new URLSearchParams({ reference: '"><script>x</script>', client: "a&b" }));
    expect(out).toContain(
      'href="/payments/9/reverse?reference=%22%3E%3Cscript%3Ex%3C%2Fscript%3E&amp;client=a%26b" data-discover="true"',
    );
    expect(out).not.toContain("<script");
  });

  test("one line per payment, in the order given", () => {
    const out = renderLines([base, { ...base, id: 8 }], false, noSearch);
    expect(out.match(/<li /g)).toHaveLength(2);
    expect(out.indexOf("Payment #9")).toBeLessThan(out.indexOf("Payment #8"));
    expect(renderLines([], true, noSearch)).toBe("");
  });
});

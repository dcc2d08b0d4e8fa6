// The invoice as a PDF (issue 15, docs/decisions/0951): drawn on the server with pdfkit from the
// same InvoiceDocument the printable page shows, with the shared fonts and letterhead of
// pdf-kit.server.ts (docs/decisions/0954).
import type { BusinessLogo } from "~/models/business.server";
import { formatDeliveryDate } from "~/utils/dates";
import { formatAmount, formatNaira } from "~/utils/money";
import type { InvoiceDocument } from "./invoice-document.server";
import { receivedAmount, receivedLabel } from "~/components/invoices/invoice-received";
import { asksForPayment, balanceLine } from "~/components/invoices/invoice-document";
import {
  A4,
  BOTTOM,
  collect,
  CONTENT,
  createDocument,
  fit,
  GREY,
  label,
  letterhead,
  line,
  MARGIN,
  paragraph,
  RIGHT,
  tableHeader,
  wrapped,
  type Doc,
  type TextOptions,
} from "./pdf-kit.server";

export { fontRuns } from "./pdf-kit.server";

const COLUMNS = [
  { title: "Date", width: 72, align: "left" as const },
  { title: "Truck", width: 70, align: "left" as const },
  { title: "Location", width: 150, align: "left" as const },
  { title: "Tons", width: 55, align: "right" as const },
  { title: "Rate (₦/ton)", width: 78, align: "right" as const },
  { title: "Amount (₦)", width: CONTENT - 72 - 70 - 150 - 55 - 78, align: "right" as const },
];
const ROW = 15;

const header = (doc: Doc, y: number) => tableHeader(doc, COLUMNS, y, { size: 7.5, rowHeight: ROW, inset: 4 });

export type PdfOptions = { logo?: BusinessLogo | null; compress?: boolean };

/** The invoice as PDF bytes. */
export async function renderInvoicePdf(invoice: InvoiceDocument, { logo, compress = true }: PdfOptions = {}) {
  const doc = createDocument(
    {
      Title: `Invoice ${invoice.invoiceNo}`,
      Author: invoice.business.companyName ?? "PKS",
      Subject: `Invoice ${invoice.invoiceNo} for ${invoice.client.name}`,
    },
    { compress, bufferPages: true },
  );
  const done = collect(doc);

  const { business, client } = invoice;
  // Header: the company on the left, the invoice's number and dates on the right.
  let y = letterhead(doc, business, logo, "INVOICE", [
    ["Invoice No", invoice.invoiceNo],
    ["Date", formatDeliveryDate(invoice.issueDate)],
    ["Due Date", formatDeliveryDate(invoice.dueDate)],
  ]);

  if (invoice.voided) {
    const text = `VOID${invoice.voidReason ? `: ${invoice.voidReason}` : ""}. Nothing is due on this invoice.`;
    y += paragraph(doc, text, MARGIN, y, CONTENT, { weight: "bold", color: "#b91c1c", size: 10 }) + 8;
  }
  // Bill to.
  label(doc, "BILL TO", MARGIN, y);
  y += 11;
  y += wrapped(doc, client.name, MARGIN, y, { size: 10, weight: "bold", width: 300, maxLines: 2, lineHeight: 14 });
  for (const text of [
    client.address,
    [client.phone, client.email].filter(Boolean).join(" · "),
    client.taxNo ? `TIN: ${client.taxNo}` : null,
  ].filter(Boolean) as string[]) {
    y += paragraph(doc, text, MARGIN, y, 300);
  }
  y += 10;

  // One line per delivery; the header repeats on each new page.
  y = header(doc, y);
  for (const l of invoice.lines) {
    if (y + ROW > BOTTOM) {
      doc.addPage();
      y = header(doc, MARGIN);
    }
    const cells = [
      formatDeliveryDate(l.date),
      l.truckNo ?? "-",
      l.location,
      formatAmount(l.tons),
      l.rate ? formatAmount(l.rate) : "-",
      l.amount ? formatAmount(l.amount) : "-",
    ];
    let x = MARGIN;
    COLUMNS.forEach((c, i) => {
      const text = c.align === "left" ? fit(doc, cells[i], c.width - 6) : cells[i];
      line(doc, text, x + (c.align === "left" ? 0 : -4), y, { align: c.align, width: c.width });
      x += c.width;
    });
    y += ROW;
    doc
      .moveTo(MARGIN, y - 3)
      .lineTo(RIGHT, y - 3)
      .lineWidth(0.3)
      .strokeColor("#e2e8f0")
      .stroke();
  }
  const count = invoice.lines.length;
  line(doc, `${count} ${count === 1 ? "delivery" : "deliveries"}`, MARGIN, y + 2, { weight: "bold" });
  const tonsX = MARGIN + COLUMNS[0].width + COLUMNS[1].width + COLUMNS[2].width;
  line(doc, formatAmount(invoice.totalTons), tonsX - 4, y + 2, { weight: "bold", align: "right", width: 55 });
  line(doc, formatAmount(invoice.amount), RIGHT - 100, y + 2, { weight: "bold", align: "right", width: 100 });
  y += ROW + 12;

  // Totals on the right; amount in words and payment instructions on the left.
  const totals: [string, string, TextOptions][] = [
    ["Amount (tax inclusive)", formatNaira(invoice.amount), {}],
    ["Net of tax", formatNaira(invoice.net), { color: GREY }],
    [`Tax included (${formatAmount(invoice.taxRate)}%)`, formatNaira(invoice.tax), { color: GREY }],
    ...invoice.received.map((r): [string, string, TextOptions] => [
      receivedLabel(r),
      receivedAmount(r),
      { color: GREY },
    ]),
  ];
  const blockHeight = (totals.length + 1) * 14 + 90;
  if (y + blockHeight > BOTTOM) {
    doc.addPage();
    y = MARGIN;
  }
  const totalsX = RIGHT - 250;
  let ty = y;
  for (const [label, value, options] of totals) {
    line(doc, fit(doc, label, 160, options), totalsX, ty, { ...options, width: 160 });
    line(doc, value, RIGHT - 90, ty, { ...options, align: "right", width: 90 });
    ty += 14;
  }
  doc.moveTo(totalsX, ty).lineTo(RIGHT, ty).lineWidth(0.8).strokeColor("#94a3b8").stroke();
  ty += 5;
  const balance = balanceLine(invoice);
  line(doc, balance.label, totalsX, ty, { size: 10, weight: "bold" });
  line(doc, balance.amount, RIGHT - 110, ty, { size: 10, weight: "bold", align: "right", width: 110 });

  let ly = y;
  label(doc, "AMOUNT IN WORDS", MARGIN, ly);
  ly += 11;
  ly += paragraph(doc, invoice.amountInWords, MARGIN, ly, 240) + 10;
  if (asksForPayment(invoice)) {
    label(doc, "PAYMENT INSTRUCTIONS", MARGIN, ly);
    ly += 11;
    const bank = [
      `Please pay by ${formatDeliveryDate(invoice.dueDate)} into:`,
      business.bankName ? `Bank: ${business.bankName}` : null,
      business.bankAccountName ? `Account name: ${business.bankAccountName}` : null,
      business.bankAccountNo ? `Account number: ${business.bankAccountNo}` : null,
      `Reference: Invoice ${invoice.invoiceNo}`,
    ].filter(Boolean) as string[];
    for (const text of bank) ly += paragraph(doc, text, MARGIN, ly, 240);
  }

  // Page numbers, and VOID across every page of a voided invoice.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    if (invoice.voided) {
      doc.save();
      doc.fillOpacity(0.15);
      doc.rotate(-30, { origin: [A4.width / 2, A4.height / 2] });
      line(doc, "VOID", A4.width / 2 - 150, A4.height / 2 - 60, {
        size: 120,
        weight: "bold",
        color: "#dc2626",
      });
      doc.restore();
    }
    const footer = `Invoice ${invoice.invoiceNo} · Page ${i - range.start + 1} of ${range.count}`;
    line(doc, footer, MARGIN, A4.height - MARGIN, { size: 7.5, color: GREY, align: "right", width: CONTENT });
  }
  doc.end();
  return done;
}

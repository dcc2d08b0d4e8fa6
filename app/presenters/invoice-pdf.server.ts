// The invoice as a PDF (docs/decisions/0951): drawn on the server with pdfkit from the
// same InvoiceDocument the printable page shows, with the shared fonts and letterhead of
// pdf-kit.server.ts (docs/decisions/0954).
//
// A month's invoice has thousands of lines (decision 0951): the PDF is a stream.
// The lines come in batches; each batch is drawn when the reader has taken the bytes of the
// last one, and each page is written out when it is full (no buffered pages), so memory holds a
// batch and a page however long the invoice, and the event loop is free between batches.
// "Page n of m" stays: m is counted before drawing from the number of lines, with the same
// steps that place the rows.
import type { BusinessLogo } from "~/models/business.server";
import { formatDate } from "~/utils/dates";
import { formatAmount, formatNaira, formatTons } from "~/utils/money";
import { ACCEPTED_TONS_NOTE, weighingText } from "~/utils/weighing-words";
import { nextBatch } from "~/utils/unavailable.server";
import type { InvoiceDocument, InvoiceLine } from "./invoice-document.server";
import { receivedAmount, receivedLabel, asksForPayment, balanceLine } from "~/utils/money-line-words";
import {
  A4,
  BOTTOM,
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
  streamPdf,
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
/**
 * A row when the invoice has lines weighed at the client's gate: room for the line under it that
 * says what was received and deducted (docs/decisions/1220). Every row of such an invoice takes
 * it, so the pages are still counted from the number of lines alone.
 */
const WEIGHED_ROW = 26;
/** Where a weighed line's second line starts (the Truck column) and how wide it may run (to Tons' end). */
const WEIGHING_X = MARGIN + 72;
const WEIGHING_WIDTH = 70 + 150 + 55 - 4;
/** The note under such an invoice's table that says what its Tons are. */
const NOTE_HEIGHT = 8;

const header = (doc: Doc, y: number) => tableHeader(doc, COLUMNS, y, { size: 7.5, rowHeight: ROW, inset: 4 });

type PdfOptions = { logo?: BusinessLogo | null; compress?: boolean };

/**
 * Where the table's rows go: below the header on the first page, then from `top` on each new
 * page. The same steps count the pages before anything is drawn and place the rows while
 * drawing, so "Page n of m" is right without holding the pages.
 */
class RowPlacer {
  constructor(
    public y: number,
    private readonly top: number,
    private readonly height: number,
  ) {}

  /** The y of the next row, and whether a new page starts with it. */
  next() {
    const newPage = this.y + this.height > BOTTOM;
    if (newPage) this.y = this.top;
    const y = this.y;
    this.y += this.height;
    return { y, newPage };
  }
}

/** The totals block's height: it moves to a new page whole when it does not fit. */
const totalsHeight = (rows: number) => (rows + 1) * 14 + 90;

/** The pages of an invoice with `count` lines whose table's first row is at `first`. */
function pageCount(count: number, first: number, top: number, totalsRows: number, weighed: boolean) {
  const rows = new RowPlacer(first, top, weighed ? WEIGHED_ROW : ROW);
  let pages = 1;
  for (let i = 0; i < count; i++) if (rows.next().newPage) pages += 1;
  const y = rows.y + ROW + 12 + (weighed ? NOTE_HEIGHT : 0);
  return y + totalsHeight(totalsRows) > BOTTOM ? pages + 1 : pages;
}

/** VOID across a voided invoice's page, and the page's footer: drawn last on each page, before it is written out. */
function finishPage(doc: Doc, invoice: InvoiceDocument, page: number, pages: number) {
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
  const footer = `Invoice ${invoice.invoiceNo} · Page ${page} of ${pages}`;
  line(doc, footer, MARGIN, A4.height - MARGIN, { size: 7.5, color: GREY, align: "right", width: CONTENT });
}

/**
 * Draws the invoice into `doc`, waiting for its reader (`readerCaughtUp`, from `streamPdf`) after
 * the head and after each batch of lines.
 */
async function draw(
  doc: Doc,
  invoice: InvoiceDocument,
  lines: AsyncIterable<InvoiceLine[]>,
  logo: BusinessLogo | null | undefined,
  readerCaughtUp: () => Promise<void>,
) {
  const { business, client } = invoice;
  // Header: the company on the left, the invoice's number and dates on the right.
  let y = letterhead(doc, business, logo, "INVOICE", [
    ["Invoice No", invoice.invoiceNo],
    ["Date", formatDate(invoice.issueDate)],
    ["Due Date", formatDate(invoice.dueDate)],
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

  // Totals on the right; amount in words and payment instructions on the left (drawn after the lines).
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

  // One line per delivery; the header repeats on each new page.
  const first = header(doc, y);
  const top = MARGIN + (first - y);
  const weighed = invoice.weighedLines > 0;
  const height = weighed ? WEIGHED_ROW : ROW;
  const pages = pageCount(invoice.lineCount, first, top, totals.length, weighed);
  let page = 1;
  const rows = new RowPlacer(first, top, height);
  let count = 0;
  await readerCaughtUp();
  const batches = lines[Symbol.asyncIterator]();
  try {
    for (;;) {
      const { value: batch, done } = await nextBatch(batches);
      if (done) break;
      for (const l of batch) {
        const row = rows.next();
        if (row.newPage) {
          finishPage(doc, invoice, page, pages);
          doc.addPage();
          page += 1;
          header(doc, MARGIN);
        }
        const cells = [
          formatDate(l.date),
          l.truckNo ?? "-",
          l.location,
          formatTons(l.tons),
          l.rate ? formatAmount(l.rate) : "-",
          l.amount ? formatAmount(l.amount) : "-",
        ];
        let x = MARGIN;
        COLUMNS.forEach((c, i) => {
          const text = c.align === "left" ? fit(doc, cells[i], c.width - 6) : cells[i];
          line(doc, text, x + (c.align === "left" ? 0 : -4), row.y, { align: c.align, width: c.width });
          x += c.width;
        });
        const weighing = weighingText(l);
        if (weighing) {
          line(doc, fit(doc, weighing, WEIGHING_WIDTH, { size: 6.5 }), WEIGHING_X, row.y + 12.5, {
            size: 6.5,
            color: GREY,
            width: WEIGHING_WIDTH,
          });
        }
        doc
          .moveTo(MARGIN, row.y + height - 3)
          .lineTo(RIGHT, row.y + height - 3)
          .lineWidth(0.3)
          .strokeColor("#e2e8f0")
          .stroke();
      }
      count += batch.length;
      await readerCaughtUp();
    }
  } finally {
    // A stopped download or a failed batch: the lines are not read on.
    await batches.return?.();
  }
  // The lines are written with the invoice and never change (decision 0921): a different number
  // means the footers already written are wrong, so the download fails rather than mislead.
  if (count !== invoice.lineCount)
    throw new Error(`invoice ${invoice.id}: ${count} lines drawn, ${invoice.lineCount} counted`);
  y = rows.y;
  line(doc, `${count} ${count === 1 ? "delivery" : "deliveries"}`, MARGIN, y + 2, { weight: "bold" });
  const tonsX = MARGIN + COLUMNS[0].width + COLUMNS[1].width + COLUMNS[2].width;
  line(doc, formatTons(invoice.totalTons), tonsX - 4, y + 2, { weight: "bold", align: "right", width: 55 });
  line(doc, formatAmount(invoice.amount), RIGHT - 100, y + 2, { weight: "bold", align: "right", width: 100 });
  y += ROW + 12;
  if (weighed) {
    line(doc, fit(doc, ACCEPTED_TONS_NOTE, CONTENT, { size: 7 }), MARGIN, y - 6, {
      size: 7,
      color: GREY,
      width: CONTENT,
    });
    y += NOTE_HEIGHT;
  }

  if (y + totalsHeight(totals.length) > BOTTOM) {
    finishPage(doc, invoice, page, pages);
    doc.addPage();
    page += 1;
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
      `Please pay by ${formatDate(invoice.dueDate)} into:`,
      business.bankName ? `Bank: ${business.bankName}` : null,
      business.bankAccountName ? `Account name: ${business.bankAccountName}` : null,
      business.bankAccountNo ? `Account number: ${business.bankAccountNo}` : null,
      `Reference: Invoice ${invoice.invoiceNo}`,
    ].filter(Boolean) as string[];
    for (const text of bank) ly += paragraph(doc, text, MARGIN, ly, 240);
  }
  finishPage(doc, invoice, page, pages);
}

/**
 * The invoice as a stream of PDF bytes, its lines drawn a batch at a time as the reader takes
 * the bytes (`lines`: the batches of `invoiceLineBatches`). An error while reading or drawing
 * fails the stream, so the download fails rather than look complete (`streamPdf`).
 */
export function streamInvoicePdf(
  invoice: InvoiceDocument,
  lines: AsyncIterable<InvoiceLine[]>,
  { logo, compress = true }: PdfOptions = {},
): ReadableStream<Uint8Array> {
  const doc = createDocument(
    {
      Title: `Invoice ${invoice.invoiceNo}`,
      Author: invoice.business.companyName ?? "PKS",
      Subject: `Invoice ${invoice.invoiceNo} for ${invoice.client.name}`,
    },
    { compress },
  );
  return streamPdf(doc, (readerCaughtUp) => draw(doc, invoice, lines, logo, readerCaughtUp));
}

/** A whole invoice with its lines in hand (tests, bench/invoice-pdf.ts) as PDF bytes. */
export async function renderInvoicePdf(invoice: InvoiceDocument & { lines: InvoiceLine[] }, options: PdfOptions = {}) {
  async function* one() {
    yield invoice.lines;
  }
  return Buffer.from(await new Response(streamInvoicePdf(invoice, one(), options)).arrayBuffer());
}

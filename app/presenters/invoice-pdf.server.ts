// The invoice as a PDF (issue 15, docs/decisions/0951): drawn on the server with pdfkit from the
// same InvoiceDocument the printable page shows. Text is Noto Sans, embedded: its fontsource
// "latin" files hold the ASCII and Latin-1 letters but no ₦, the "latin-ext" files hold ₦ but
// no ASCII, so each piece of text is drawn in runs, each character in the font that has it
// (docs/decisions/0954). WOFF, not WOFF2: pdfkit draws WOFF2 text blank.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import type { BusinessLogo } from "~/models/business.server";
import { formatDeliveryDate } from "~/utils/dates";
import { formatAmount, formatNaira } from "~/utils/money";
import { woffToSfnt } from "~/utils/woff.server";
import type { InvoiceDocument } from "./invoice-document.server";

type Face = { name: string; data: Buffer; font: fontkit.Font };
type Weight = "regular" | "bold";

const require = createRequire(import.meta.url);
function face(name: string, file: string): Face {
  const data = woffToSfnt(readFileSync(require.resolve(`@fontsource/noto-sans/files/${file}`)));
  return { name, data, font: fontkit.create(data) };
}

let faces: Record<Weight, [Face, Face]> | null = null;
/** The fonts, read once: [latin, latin-ext] per weight. */
function fonts() {
  faces ??= {
    regular: [
      face("Latin", "noto-sans-latin-400-normal.woff"),
      face("LatinExt", "noto-sans-latin-ext-400-normal.woff"),
    ],
    bold: [
      face("LatinBold", "noto-sans-latin-700-normal.woff"),
      face("LatinExtBold", "noto-sans-latin-ext-700-normal.woff"),
    ],
  };
  return faces;
}

const choice = new Map<string, string>();

/** Splits text into runs, each in the first font that has its characters. */
export function fontRuns(text: string, weight: Weight = "regular"): { font: string; text: string }[] {
  const [latin, ext] = fonts()[weight];
  // Most text is ASCII, which the latin font always has: one run, no lookups.
  if (/^[\x20-\x7e]*$/.test(text)) return [{ font: latin.name, text }];
  const runs: { font: string; text: string }[] = [];
  for (const char of text) {
    const key = `${weight}:${char}`;
    let font = choice.get(key);
    if (!font) {
      const code = char.codePointAt(0)!;
      font = latin.font.hasGlyphForCodePoint(code) || !ext.font.hasGlyphForCodePoint(code) ? latin.name : ext.name;
      choice.set(key, font);
    }
    const last = runs[runs.length - 1];
    if (last && last.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const RIGHT = A4.width - MARGIN;
const CONTENT = RIGHT - MARGIN;
const BOTTOM = A4.height - MARGIN - 16;
const GREY = "#475569";

type Doc = PDFKit.PDFDocument;
type TextOptions = { size?: number; weight?: Weight; color?: string; align?: "left" | "right"; width?: number };

/** One line of text at (x, y), in runs; `align: "right"` ends it at x + width. */
function line(doc: Doc, text: string, x: number, y: number, options: TextOptions = {}) {
  const { size = 9, weight = "regular", color = "#0f172a", align = "left", width } = options;
  const runs = fontRuns(text, weight);
  doc.fontSize(size).fillColor(color);
  const widths = runs.map((r) => doc.font(r.font).widthOfString(r.text));
  const total = widths.reduce((a, b) => a + b, 0);
  let cursor = align === "right" && width !== undefined ? x + width - total : x;
  runs.forEach((run, i) => {
    doc.font(run.font).text(run.text, cursor, y, { lineBreak: false });
    cursor += widths[i];
  });
}

/** Text wrapped to `width` (addresses, amount in words); returns the height used. */
function paragraph(doc: Doc, text: string, x: number, y: number, width: number, options: TextOptions = {}) {
  const { size = 9, weight = "regular", color = "#0f172a" } = options;
  const runs = fontRuns(text, weight);
  doc.fontSize(size).fillColor(color);
  if (runs.length <= 1) {
    doc.font(runs[0]?.font ?? fonts()[weight][0].name).text(text, x, y, { width });
    return doc.y - y;
  }
  // Mixed fonts: one line per line of text, unwrapped (rare: a ₦ in an address).
  const lines = text.split("\n");
  lines.forEach((l, i) => line(doc, l, x, y + i * size * 1.3, options));
  return lines.length * size * 1.3;
}

const COLUMNS = [
  { title: "Date", width: 72, align: "left" as const },
  { title: "Truck", width: 70, align: "left" as const },
  { title: "Location", width: 150, align: "left" as const },
  { title: "Tons", width: 55, align: "right" as const },
  { title: "Rate (₦/ton)", width: 78, align: "right" as const },
  { title: "Amount (₦)", width: CONTENT - 72 - 70 - 150 - 55 - 78, align: "right" as const },
];
const ROW = 15;

function tableHeader(doc: Doc, y: number) {
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.8).strokeColor("#94a3b8").stroke();
  let x = MARGIN;
  for (const c of COLUMNS) {
    line(doc, c.title.toUpperCase(), x + (c.align === "left" ? 0 : -4), y + 4, {
      size: 7.5,
      weight: "bold",
      color: GREY,
      align: c.align,
      width: c.width,
    });
    x += c.width;
  }
  const bottom = y + ROW + 2;
  doc.moveTo(MARGIN, bottom).lineTo(RIGHT, bottom).stroke();
  return bottom + 3;
}

/** Fits text into a column width, ending with "…" when cut. */
function fit(doc: Doc, text: string, width: number) {
  doc.font(fonts().regular[0].name).fontSize(9);
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut}…`;
}

export type PdfOptions = { logo?: BusinessLogo | null; compress?: boolean };

/** The invoice as PDF bytes. */
export async function renderInvoicePdf(invoice: InvoiceDocument, { logo, compress = true }: PdfOptions = {}) {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    compress,
    bufferPages: true,
    info: {
      Title: `Invoice ${invoice.invoiceNo}`,
      Author: invoice.business.companyName ?? "PKS",
      Subject: `Invoice ${invoice.invoiceNo} for ${invoice.client.name}`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  for (const [latin, ext] of Object.values(fonts())) {
    doc.registerFont(latin.name, latin.data);
    doc.registerFont(ext.name, ext.data);
  }

  const { business, client } = invoice;
  // Header: the company on the left, the invoice's number and dates on the right.
  let y = MARGIN;
  if (logo) {
    doc.image(Buffer.from(logo.bytes), MARGIN, y, { fit: [140, 48] });
    y += 54;
  }
  line(doc, business.companyName ?? "PKS", MARGIN, y, { size: 14, weight: "bold" });
  y += 20;
  const companyLines = [
    business.address,
    [business.phone, business.email].filter(Boolean).join(" · "),
    [
      business.registrationNo ? `RC: ${business.registrationNo}` : null,
      business.taxNo ? `TIN: ${business.taxNo}` : null,
    ]
      .filter(Boolean)
      .join(" · "),
  ].filter(Boolean) as string[];
  for (const text of companyLines) y += paragraph(doc, text, MARGIN, y, 300);

  line(doc, "INVOICE", RIGHT - 200, MARGIN, { size: 20, weight: "bold", align: "right", width: 200 });
  const facts: [string, string][] = [
    ["Invoice No", invoice.invoiceNo],
    ["Date", formatDeliveryDate(invoice.issueDate)],
    ["Due Date", formatDeliveryDate(invoice.dueDate)],
  ];
  facts.forEach(([label, value], i) => {
    const rowY = MARGIN + 30 + i * 13;
    line(doc, label, RIGHT - 200, rowY, { color: GREY, align: "right", width: 120 });
    line(doc, value, RIGHT - 75, rowY, { weight: i === 0 ? "bold" : "regular", align: "right", width: 75 });
  });
  y = Math.max(y, MARGIN + 30 + facts.length * 13) + 10;
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.8).strokeColor("#cbd5e1").stroke();
  y += 10;

  if (invoice.voided) {
    const text = `VOID${invoice.voidReason ? `: ${invoice.voidReason}` : ""}. Nothing is due on this invoice.`;
    y += paragraph(doc, text, MARGIN, y, CONTENT, { weight: "bold", color: "#b91c1c", size: 10 }) + 8;
  }
  // Bill to.
  line(doc, "BILL TO", MARGIN, y, { size: 7.5, weight: "bold", color: GREY });
  y += 11;
  line(doc, client.name, MARGIN, y, { size: 10, weight: "bold" });
  y += 14;
  for (const text of [
    client.address,
    [client.phone, client.email].filter(Boolean).join(" · "),
    client.taxNo ? `TIN: ${client.taxNo}` : null,
  ].filter(Boolean) as string[]) {
    y += paragraph(doc, text, MARGIN, y, 300);
  }
  y += 10;

  // One line per delivery; the header repeats on each new page.
  y = tableHeader(doc, y);
  for (const l of invoice.lines) {
    if (y + ROW > BOTTOM) {
      doc.addPage();
      y = tableHeader(doc, MARGIN);
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
      `${r.kind === "payment" ? "Payment" : "Credit note"} ${formatDeliveryDate(r.date)}${r.reference ? ` (${r.reference})` : ""}`,
      `-${formatNaira(r.amount)}`,
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
    line(doc, fit(doc, label, 160), totalsX, ty, { ...options, width: 160 });
    line(doc, value, RIGHT - 90, ty, { ...options, align: "right", width: 90 });
    ty += 14;
  }
  doc.moveTo(totalsX, ty).lineTo(RIGHT, ty).lineWidth(0.8).strokeColor("#94a3b8").stroke();
  ty += 5;
  line(doc, "Balance Due", totalsX, ty, { size: 10, weight: "bold" });
  line(doc, formatNaira(invoice.balance), RIGHT - 110, ty, { size: 10, weight: "bold", align: "right", width: 110 });

  let ly = y;
  line(doc, "AMOUNT IN WORDS", MARGIN, ly, { size: 7.5, weight: "bold", color: GREY });
  ly += 11;
  ly += paragraph(doc, invoice.amountInWords, MARGIN, ly, 240) + 10;
  if (business.bankName || business.bankAccountNo) {
    line(doc, "PAYMENT INSTRUCTIONS", MARGIN, ly, { size: 7.5, weight: "bold", color: GREY });
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

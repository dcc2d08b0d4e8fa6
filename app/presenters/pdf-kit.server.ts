// The PDF drawing pieces every document shares (docs/decisions/0951, 0954): Noto Sans embedded,
// each piece of text drawn in runs, each character in the font that has it (the fontsource
// "latin" files have no ₦, the "latin-ext" files no ASCII, the "vietnamese" files hold the dotted
// vowels of Yoruba and Igbo, ọ ẹ ị ụ); WOFF, not WOFF2, which pdfkit draws blank. Free text (a
// name, an address) is fitted or wrapped to its box, measured in the size and weight it is
// drawn in. The invoice (invoice-pdf.server.ts) and the statements (statement-pdf.server.ts) draw
// with these and go out through one stream (`streamPdf`, `pdfResponse`), so a fix to the fonts,
// the header or the streaming is made once.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import type { BusinessDetailsView, BusinessLogo } from "~/models/business.server";
import { woffToSfnt } from "~/utils/woff.server";

type Face = { name: string; data: Buffer; font: fontkit.Font };
type Weight = "regular" | "bold";

const require = createRequire(import.meta.url);
function face(name: string, file: string): Face {
  const data = woffToSfnt(readFileSync(require.resolve(`@fontsource/noto-sans/files/${file}`)));
  return { name, data, font: fontkit.create(data) };
}

let faces: Record<Weight, Face[]> | null = null;
/** The fonts, read once, per weight in the order they are tried: latin, latin-ext, vietnamese. */
export function fonts() {
  faces ??= {
    regular: [
      face("Latin", "noto-sans-latin-400-normal.woff"),
      face("LatinExt", "noto-sans-latin-ext-400-normal.woff"),
      face("Vietnamese", "noto-sans-vietnamese-400-normal.woff"),
    ],
    bold: [
      face("LatinBold", "noto-sans-latin-700-normal.woff"),
      face("LatinExtBold", "noto-sans-latin-ext-700-normal.woff"),
      face("VietnameseBold", "noto-sans-vietnamese-700-normal.woff"),
    ],
  };
  return faces;
}

const choice = new Map<string, Face>();
// Combining marks (a tone mark over ọ, written as two characters): kept in the run of the letter
// they sit on when its font has them, so they are placed over it rather than after it.
const COMBINING = /^[\u0300-\u036f]$/;

/**
 * Splits text into runs, each in the first font that has its characters; a character in none of
 * them is drawn in the latin font (its missing-glyph box).
 */
export function fontRuns(text: string, weight: Weight = "regular"): { font: string; text: string }[] {
  const faces = fonts()[weight];
  const latin = faces[0];
  // Most text is ASCII, which the latin font always has: one run, no lookups.
  if (/^[\x20-\x7e]*$/.test(text)) return [{ font: latin.name, text }];
  const runs: { font: Face; text: string }[] = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    const last = runs[runs.length - 1];
    if (last && COMBINING.test(char) && last.font.font.hasGlyphForCodePoint(code)) {
      last.text += char;
      continue;
    }
    const key = `${weight}:${char}`;
    let font = choice.get(key);
    if (!font) {
      font = faces.find((f) => f.font.hasGlyphForCodePoint(code)) ?? latin;
      choice.set(key, font);
    }
    if (last && last.font === font) last.text += char;
    else runs.push({ font, text: char });
  }
  return runs.map((r) => ({ font: r.font.name, text: r.text }));
}

export const A4 = { width: 595.28, height: 841.89 };
export const MARGIN = 40;
export const RIGHT = A4.width - MARGIN;
export const CONTENT = RIGHT - MARGIN;
export const BOTTOM = A4.height - MARGIN - 16;
export const GREY = "#475569";

export type Doc = PDFKit.PDFDocument;
export type TextOptions = { size?: number; weight?: Weight; color?: string; align?: "left" | "right"; width?: number };

/** One line of text at (x, y), in runs; `align: "right"` ends it at x + width. */
export function line(doc: Doc, text: string, x: number, y: number, options: TextOptions = {}) {
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
export function paragraph(doc: Doc, text: string, x: number, y: number, width: number, options: TextOptions = {}) {
  const { size = 9, weight = "regular", color = "#0f172a" } = options;
  const runs = fontRuns(text, weight);
  doc.fontSize(size).fillColor(color);
  if (runs.length <= 1) {
    doc.font(runs[0]?.font ?? fonts()[weight][0].name).text(text, x, y, { width });
    return doc.y - y;
  }
  // Mixed fonts (a ₦ or a Yoruba name in an address): wrapped here, one line of runs at a time.
  const lines = wrap(doc, text, width, options);
  lines.forEach((l, i) => line(doc, l, x, y + i * size * LEADING, options));
  return lines.length * size * LEADING;
}

/** Line height of wrapped lines drawn in runs, as a multiple of the font size. */
const LEADING = 1.3;

/** The width of `text` drawn at `size` in `weight`: the sum of its runs, each in its own font. */
export function textWidth(doc: Doc, text: string, { size = 9, weight = "regular" }: TextOptions = {}) {
  doc.fontSize(size);
  return fontRuns(text, weight).reduce((total, run) => total + doc.font(run.font).widthOfString(run.text), 0);
}

const graphemes = (text: string) => Array.from(new Intl.Segmenter().segment(text), (s) => s.segment);

/** The longest start of `parts` (graphemes) whose text, followed by `suffix`, is at most `width` wide. */
function longestFitting(doc: Doc, parts: string[], width: number, options: TextOptions, suffix = "") {
  let low = 0;
  let high = parts.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (textWidth(doc, `${parts.slice(0, mid).join("")}${suffix}`, options) <= width) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Fits text into `width`, ending with "…" when cut, measured in the size and weight it will be
 * drawn in (`options`, 9 pt regular by default, as `line` draws).
 */
export function fit(doc: Doc, text: string, width: number, options: TextOptions = {}) {
  if (textWidth(doc, text, options) <= width) return text;
  const parts = graphemes(text);
  const kept = longestFitting(doc, parts, width, options, "…");
  return `${parts.slice(0, kept).join("").trimEnd()}…`;
}

/**
 * Text broken into lines of at most `width` (measured as `fit` does): at spaces, inside a word
 * only when the word alone is wider. Past `maxLines`, the last line is fitted with "…".
 */
export function wrap(doc: Doc, text: string, width: number, options: TextOptions = {}, maxLines = Infinity) {
  const lines: string[] = [];
  for (const source of text.split("\n")) {
    let current = "";
    for (const word of source.split(/ +/)) {
      const joined = current ? `${current} ${word}` : word;
      if (textWidth(doc, joined, options) <= width) {
        current = joined;
        continue;
      }
      if (current) lines.push(current);
      // A word wider than the line is broken where it must be.
      let rest = graphemes(word);
      while (rest.length > 1 && textWidth(doc, rest.join(""), options) > width) {
        const kept = Math.max(1, longestFitting(doc, rest, width, options));
        lines.push(rest.slice(0, kept).join(""));
        rest = rest.slice(kept);
      }
      current = rest.join("");
    }
    lines.push(current);
  }
  if (lines.length <= maxLines) return lines;
  return [...lines.slice(0, maxLines - 1), fit(doc, lines.slice(maxLines - 1).join(" "), width, options)];
}

/** Free text on at most `maxLines` lines of `width`; returns the height used (`lineHeight` a line). */
export function wrapped(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  { width, maxLines, lineHeight, ...options }: TextOptions & { width: number; maxLines: number; lineHeight: number },
) {
  const lines = wrap(doc, text, width, options, maxLines);
  lines.forEach((l, i) => line(doc, l, x, y + i * lineHeight, options));
  return lines.length * lineHeight;
}

/** An A4 document with the fonts registered. */
export function createDocument(
  info: { Title: string; Author: string; Subject: string },
  { compress = true, layout = "portrait" }: { compress?: boolean; layout?: "portrait" | "landscape" } = {},
): Doc {
  const doc = new PDFDocument({ size: "A4", layout, margin: MARGIN, compress, info });
  // Registered, not embedded: pdfkit embeds a font (its glyphs used) only when text is drawn in it.
  for (const face of Object.values(fonts()).flat()) doc.registerFont(face.name, face.data);
  return doc;
}

/** The right edge, content width and lowest line of the document's pages (portrait or landscape). */
export function frame(doc: Doc) {
  const right = doc.page.width - MARGIN;
  return { right, content: right - MARGIN, bottom: doc.page.height - MARGIN - 16, height: doc.page.height };
}

/** The width of the company's block, left of the letterhead's facts. */
const COMPANY_WIDTH = 300;

/**
 * The letterhead: the logo and the company on the left, the document's title and its facts
 * (label, value; the first in bold) on the right, a rule under both. Returns the y below it.
 */
export function letterhead(
  doc: Doc,
  business: BusinessDetailsView,
  logo: BusinessLogo | null | undefined,
  title: string,
  facts: [string, string][],
) {
  const { right: RIGHT } = frame(doc);
  let y = MARGIN;
  if (logo) {
    doc.image(Buffer.from(logo.bytes), MARGIN, y, { fit: [140, 48] });
    y += 54;
  }
  // The company's name beside the title, on at most two lines.
  const titleWidth = textWidth(doc, title, { size: 20, weight: "bold" });
  const nameWidth = Math.min(COMPANY_WIDTH, RIGHT - titleWidth - 16 - MARGIN);
  const nameLines = wrapped(doc, business.companyName ?? "PKS", MARGIN, y, {
    size: 14,
    weight: "bold",
    width: nameWidth,
    maxLines: 2,
    lineHeight: 19,
  });
  y += nameLines + 1;
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
  for (const text of companyLines) y += paragraph(doc, text, MARGIN, y, COMPANY_WIDTH);

  line(doc, title, RIGHT - 260, MARGIN, { size: 20, weight: "bold", align: "right", width: 260 });
  facts.forEach(([label, value], i) => {
    const rowY = MARGIN + 30 + i * 13;
    line(doc, label, RIGHT - 200, rowY, { color: GREY, align: "right", width: 120 });
    line(doc, value, RIGHT - 75, rowY, { weight: i === 0 ? "bold" : "regular", align: "right", width: 75 });
  });
  y = Math.max(y, MARGIN + 30 + facts.length * 13) + 10;
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.8).strokeColor("#cbd5e1").stroke();
  return y + 10;
}

/** A small grey capitals label ("BILL TO"). */
export function label(doc: Doc, text: string, x: number, y: number) {
  line(doc, text, x, y, { size: 7.5, weight: "bold", color: GREY });
}

export type Column = { title: string; width: number; align: "left" | "right" };

/**
 * A table's column titles between two rules, from the left margin; right-aligned titles sit
 * `inset` points in from their column's edge. Returns the y of the first row.
 */
export function tableHeader(
  doc: Doc,
  columns: readonly Column[],
  y: number,
  { size, rowHeight, inset }: { size: number; rowHeight: number; inset: number },
) {
  const { right } = frame(doc);
  doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(0.8).strokeColor("#94a3b8").stroke();
  let x = MARGIN;
  for (const c of columns) {
    line(doc, c.title.toUpperCase(), x + (c.align === "left" ? 0 : -inset), y + 4, {
      size,
      weight: "bold",
      color: GREY,
      align: c.align,
      width: c.width,
    });
    x += c.width;
  }
  const bottom = y + rowHeight + 2;
  doc.moveTo(MARGIN, bottom).lineTo(right, bottom).stroke();
  return bottom + 3;
}

/**
 * A document as a stream of its bytes, drawn by `draw` at its reader's pace (docs/decisions/0951,
 * 0970). `draw` calls `readerCaughtUp()` where it may pause: after the head and after each batch
 * of rows. The bytes pdfkit has written by then go to the stream; when there were any, drawing
 * waits until the reader asks for more. So a slow download holds a batch and a page or two, not
 * the whole document, and the next batch is read only once the reader has taken the last.
 *
 * - The stream closes at pdfkit's own 'end', not when `draw` returns: an image (the logo) is
 *   decoded after `end()`, and its objects and the trailer come after (a download cut short
 *   before its trailer was a regression once).
 * - An error in `draw` (a batch that cannot be read, lines that do not add up) fails the stream,
 *   so the download fails rather than look complete; nothing is left to reject unhandled.
 * - A download stopped by its reader makes the next `readerCaughtUp()` throw, so drawing stops
 *   and the sources `draw` reads (a statement's held snapshot) are closed; `cancel` waits for it.
 */
export function streamPdf(
  doc: Doc,
  draw: (readerCaughtUp: () => Promise<void>) => Promise<void>,
): ReadableStream<Uint8Array> {
  let stopped = false;
  let drawing: Promise<void> | undefined;
  // The reader's pending call for data, answered once bytes are handed over or the document ends.
  let pending: (() => void) | null = null;
  // The drawing, parked until the reader's next call for data.
  let parked: (() => void) | null = null;
  const answerReader = () => {
    const answer = pending;
    pending = null;
    answer?.();
  };
  const resumeDrawing = () => {
    const resume = parked;
    parked = null;
    resume?.();
    return resume !== null;
  };

  async function run(controller: ReadableStreamDefaultController<Uint8Array>) {
    // What pdfkit has written, in one chunk; true when there was any. Read (and dropped) even
    // once the download is stopped: pdfkit ends its stream only when its buffer is read.
    const handOver = () => {
      let any = false;
      for (let bytes = doc.read() as Buffer | null; bytes; bytes = doc.read() as Buffer | null) {
        if (stopped) continue;
        controller.enqueue(bytes);
        any = true;
      }
      return any;
    };
    const readerCaughtUp = async () => {
      if (handOver()) {
        await new Promise<void>((resolve) => {
          parked = resolve;
          answerReader();
        });
      }
      if (stopped) throw new Error("The download was stopped");
    };
    try {
      await draw(readerCaughtUp);
      doc.end();
      await untilEnd(doc, handOver);
      if (!stopped) controller.close();
    } catch (error) {
      if (!stopped) controller.error(error);
      // Nothing more goes to a failed stream, should pdfkit still have bytes to hand over.
      stopped = true;
    } finally {
      answerReader();
    }
  }

  return new ReadableStream<Uint8Array>({
    // Called when the reader has taken what was queued (the first call at once): the drawing
    // starts, or goes on from where it waits, until it has bytes to hand over.
    pull(controller) {
      const answered = new Promise<void>((resolve) => (pending = resolve));
      if (!resumeDrawing()) drawing ??= run(controller);
      return answered;
    },
    async cancel() {
      stopped = true;
      resumeDrawing();
      await drawing;
    },
  });
}

/** Every byte `doc` still has, handed over as it comes, until pdfkit ends its stream. */
function untilEnd(doc: Doc, handOver: () => void) {
  return new Promise<void>((resolve, reject) => {
    doc.on("readable", handOver);
    doc.once("end", resolve);
    doc.once("error", reject);
    handOver();
  });
}

/** A PDF attachment response that streams as the pages are drawn. */
export function pdfResponse(stream: ReadableStream<Uint8Array>, filename: string) {
  return new Response(stream, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^a-zA-Z0-9._-]/g, "-")}"`,
      "Cache-Control": "private, no-store",
    },
  });
}

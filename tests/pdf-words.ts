// A PDF's words with where they are drawn (pdftotext -bbox, poppler-utils), for tests that check
// a layout: a figure under its column, nothing drawn over anything else or off the page.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type PdfWord = { page: number; text: string; xMin: number; yMin: number; xMax: number; yMax: number };
export type PdfPage = { width: number; height: number; words: PdfWord[] };

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

export function pdfWords(pdf: Buffer): PdfPage[] {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "pdf-words-")), "document.pdf");
  writeFileSync(file, pdf);
  const html = execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" });
  return html
    .split("<page ")
    .slice(1)
    .map((chunk, index) => {
      const [, width, height] = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk)!;
      const words = Array.from(
        chunk.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
        (m) => ({
          page: index + 1,
          text: unescape(m[5]),
          xMin: Number(m[1]),
          yMin: Number(m[2]),
          xMax: Number(m[3]),
          yMax: Number(m[4]),
        }),
      );
      return { width: Number(width), height: Number(height), words };
    });
}

/** Pairs of words whose boxes overlap by more than `tolerance` points both ways (text drawn over text). */
export function overlaps(words: PdfWord[], tolerance = 1): [PdfWord, PdfWord][] {
  const found: [PdfWord, PdfWord][] = [];
  words.forEach((a, i) => {
    for (const b of words.slice(i + 1)) {
      const x = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const y = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      if (x > tolerance && y > tolerance) found.push([a, b]);
    }
  });
  return found;
}

/** Words drawn (partly) outside the page's margins. */
export function outside(page: PdfPage, margin: number, tolerance = 1): PdfWord[] {
  return page.words.filter(
    (w) =>
      w.xMin < margin - tolerance ||
      w.xMax > page.width - margin + tolerance ||
      w.yMin < margin - tolerance ||
      w.yMax > page.height - margin + 20,
  );
}

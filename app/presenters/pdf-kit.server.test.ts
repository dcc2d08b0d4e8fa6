// The shared PDF pieces: which font draws which letter, free text fitted or wrapped to its box as
// measured in the size and weight it is drawn in, and the one stream every document goes out by.
import { describe, expect, it } from "vitest";
import { createDocument, fit, fontRuns, line, streamPdf, textWidth, wrap, type TextOptions } from "./pdf-kit.server";

const doc = () => createDocument({ Title: "t", Author: "a", Subject: "s" });

describe("font runs", () => {
  /** The runs as "Font:text", one string a run, so an expectation reads as the text it splits. */
  const runs = (text: string, weight?: "bold") => fontRuns(text, weight).map((r) => `${r.font}:${r.text}`);

  it("draws Yoruba and Igbo dotted letters in the vietnamese subset, ₦ in latin-ext, the rest in latin", () => {
    expect(runs("Ẹmẹka Ọkọrọ")).toEqual([
      "Vietnamese:Ẹ",
      "Latin:m",
      "Vietnamese:ẹ",
      "Latin:ka ",
      "Vietnamese:Ọ",
      "Latin:k",
      "Vietnamese:ọ",
      "Latin:r",
      "Vietnamese:ọ",
    ]);
    expect(runs("ịụ₦", "bold")).toEqual(["VietnameseBold:ịụ", "LatinExtBold:₦"]);
  });

  it("keeps a combining tone mark in the run of the letter under it", () => {
    // ọ́ written as ọ + U+0301, and ò as o + U+0300.
    expect(runs("ọ\u0301o\u0300")).toEqual(["Vietnamese:ọ\u0301", "Latin:o\u0300"]);
  });
});

describe("fitting free text", () => {
  const long = `${"Ẹmẹka Ọkọrọ Plantation Holdings ".repeat(7)}Limited`.slice(0, 200);
  const styles: TextOptions[] = [{}, { size: 8 }, { size: 10, weight: "bold" }, { size: 14, weight: "bold" }];

  it("cuts a 200-character name to its width with “…”, measured in the size and weight it is drawn in", () => {
    const d = doc();
    for (const style of styles) {
      const cut = fit(d, long, 250, style);
      expect(cut.endsWith("…")).toBe(true);
      expect(textWidth(d, cut, style)).toBeLessThanOrEqual(250);
      // As long as it can be: one more letter would not fit.
      const kept = cut.slice(0, -1);
      const next = `${kept}${/^\s*\S/.exec(long.slice(kept.length))![0]}`;
      expect(textWidth(d, `${next}…`, style)).toBeGreaterThan(250);
      // pdfkit's own measure agrees for plain text.
      const plain = fit(d, "W".repeat(200), 250, style);
      d.font(style.weight === "bold" ? "LatinBold" : "Latin").fontSize(style.size ?? 9);
      expect(d.widthOfString(plain)).toBeLessThanOrEqual(250);
    }
    expect(fit(d, "Okomu Oil Palm", 250)).toBe("Okomu Oil Palm");
  });

  it("wraps at spaces, breaks a word only when it alone is too wide, and ends the last line allowed with “…”", () => {
    const d = doc();
    const style: TextOptions = { size: 10, weight: "bold" };
    const lines = wrap(d, long, 250, style, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(long.slice(0, lines[0].length));
    expect(lines[1].endsWith("…")).toBe(true);
    for (const l of lines) expect(textWidth(d, l, style)).toBeLessThanOrEqual(250);
    const broken = wrap(d, "W".repeat(200), 250, style);
    expect(broken.join("")).toBe("W".repeat(200));
    for (const l of broken) expect(textWidth(d, l, style)).toBeLessThanOrEqual(250);
    expect(wrap(d, "Km 5 Benin Road\nOkomu", 250)).toEqual(["Km 5 Benin Road", "Okomu"]);
  });
});

describe("streamPdf", () => {
  const bytesOf = async (stream: ReadableStream<Uint8Array>) => Buffer.from(await new Response(stream).arrayBuffer());
  /** `steps` pages, one a step, each followed by a wait for the reader; `drawn` counts the steps begun. */
  function pages(steps: number, { fail = -1 } = {}) {
    const state = { drawn: 0, finished: false };
    const d = doc();
    const stream = streamPdf(d, async (readerCaughtUp) => {
      try {
        for (let i = 0; i < steps; i++) {
          state.drawn += 1;
          if (i === fail) throw new Error("database went away");
          if (i > 0) d.addPage();
          line(d, `Page ${i + 1}`, 40, 40);
          await readerCaughtUp();
        }
      } finally {
        state.finished = true;
      }
    });
    return { state, stream };
  }

  it("ends after pdfkit's own end: a PNG with alpha is decoded after end(), and the trailer still comes", async () => {
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    const d = doc();
    const pdf = await bytesOf(
      streamPdf(d, async (readerCaughtUp) => {
        d.image(png, 40, 40, { fit: [140, 48] });
        await readerCaughtUp();
      }),
    );
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.subarray(-8).toString()).toContain("%%EOF");
  });

  it("draws only as far as its reader has read", async () => {
    const { state, stream } = pages(50);
    const reader = stream.getReader();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A step drawn for the chunk the reader has not asked for yet, and no further.
    expect(state.drawn).toBeLessThanOrEqual(3);
    let chunks = 1;
    while (!(await reader.read()).done) chunks += 1;
    expect(state.drawn).toBe(50);
    expect(chunks).toBeGreaterThan(10);
  });

  it("fails the stream when drawing fails, after what was drawn, and leaves nothing unhandled", async () => {
    const { state, stream } = pages(10, { fail: 4 });
    const reader = stream.getReader();
    const read: Uint8Array[] = [];
    await expect(
      (async () => {
        for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(next.value);
      })(),
    ).rejects.toThrow("database went away");
    expect(read.length).toBeGreaterThan(0);
    expect(state.finished).toBe(true);
  });

  it("stops drawing when the reader stops, and cancel waits for it", async () => {
    const { state, stream } = pages(50);
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(state.finished).toBe(true);
    expect(state.drawn).toBeLessThan(10);
  });
});

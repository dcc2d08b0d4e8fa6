import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as fontkit from "fontkit";
import { describe, expect, it } from "vitest";
import { woffToSfnt } from "./woff.server";

const require = createRequire(import.meta.url);
const read = (file: string) => readFileSync(require.resolve(`@fontsource/noto-sans/files/${file}`));

describe("woffToSfnt", () => {
  it("unwraps the invoice fonts into fonts with the same glyphs; latin-ext has ₦, latin has ASCII", () => {
    const ext = woffToSfnt(read("noto-sans-latin-ext-400-normal.woff"));
    const latin = woffToSfnt(read("noto-sans-latin-700-normal.woff"));
    expect(ext.readUInt32BE(0)).not.toBe(0x774f4646);
    const extFont = fontkit.create(ext);
    const latinFont = fontkit.create(latin);
    expect(extFont.hasGlyphForCodePoint(0x20a6)).toBe(true);
    expect(latinFont.hasGlyphForCodePoint(0x20a6)).toBe(false);
    expect(latinFont.hasGlyphForCodePoint("A".codePointAt(0)!)).toBe(true);
  });

  it("refuses what is not WOFF 1.0", () => {
    expect(() => woffToSfnt(read("noto-sans-latin-400-normal.woff2"))).toThrow("Not a WOFF 1.0 font");
  });
});

// fontkit ships no types; pdfkit uses it to read fonts, and the invoice PDF asks it which of
// its two fonts has a glyph for a character.
declare module "fontkit" {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}

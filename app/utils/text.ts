// Control characters (C0, DEL and C1) never belong in stored text: a NUL byte cannot even be
// stored by PostgreSQL. Multi-line fields may hold line breaks and tabs, nothing else.

function isControl(code: number, multiline: boolean) {
  if (multiline && (code === 0x0a || code === 0x0d || code === 0x09)) return false;
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f);
}

/**
 * Search or filter text from a URL: trimmed and cut to `max`, or null when empty or when it holds
 * a control character. Stored text never holds one, so such a term could match nothing, and a
 * NUL byte sent to PostgreSQL is an error, not an empty result.
 */
export function searchTerm(value: string | null | undefined, max: number): string | null {
  const term = (value ?? "").trim().slice(0, max);
  return term === "" || hasControlCharacters(term) ? null : term;
}

export function hasControlCharacters(value: string, { multiline = false }: { multiline?: boolean } = {}) {
  for (let i = 0; i < value.length; i++) {
    if (isControl(value.charCodeAt(i), multiline)) return true;
  }
  return false;
}

// Characters that change how text reads without showing themselves: the bidirectional controls
// (an override makes "exe.txt" of "txt.exe"), zero-width spaces and joiners, the byte order mark,
// soft hyphens, fillers that render as nothing, and tag characters. A one-line field (a name, a
// location, a reference) is printed on invoices, PDFs and CSVs: what is stored must be what a
// person sees (decision 0706).
const INVISIBLE: [number, number][] = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
  [0x202a, 0x202e], // embeddings and overrides
  [0x2060, 0x206f], // word joiner, invisible operators, isolates, deprecated format characters
  [0x3164, 0x3164], // Hangul filler
  [0xfeff, 0xfeff], // zero-width no-break space (byte order mark)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation
  [0xe0000, 0xe007f], // tags
];

export function hasInvisibleCharacters(value: string) {
  for (const character of value) {
    const code = character.codePointAt(0)!;
    if (INVISIBLE.some(([from, to]) => code >= from && code <= to)) return true;
  }
  return false;
}

/** False for text holding a lone surrogate: half of a character, which no encoding can store. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export function isWellFormedText(value: string) {
  return !LONE_SURROGATE.test(value);
}

/**
 * Why a field's text cannot be stored, or null: control characters (line breaks and tabs only in
 * multi-line fields), a lone surrogate, and, in one-line fields, invisible characters.
 */
export function textRefusal(label: string, value: string, { multiline = false }: { multiline?: boolean } = {}) {
  if (hasControlCharacters(value, { multiline }))
    return multiline
      ? `${label} must not contain control characters`
      : `${label} must be one line of text without control characters`;
  if (!isWellFormedText(value)) return `${label} contains a broken character; please type it again`;
  if (!multiline && hasInvisibleCharacters(value))
    return `${label} must not contain invisible or text-direction characters`;
  return null;
}

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

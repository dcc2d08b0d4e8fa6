import { hasControlCharacters } from "./text";

/**
 * Where a sign-in (or any form's redirectTo) may send the user afterwards: only a path on this
 * site. It starts with exactly one "/", and neither it nor its decoded form holds a backslash,
 * a control character (browsers drop tabs and newlines, so "/\t/evil" becomes "//evil") or "//".
 * Anything else goes to `fallback`.
 */
export function safeRedirect(to: unknown, fallback = "/") {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  const forms = [to];
  let current = to;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return fallback;
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  for (const form of forms) {
    if (!form.startsWith("/") || form.includes("//") || form.includes("\\") || hasControlCharacters(form))
      return fallback;
  }
  try {
    const base = "http://pks.invalid";
    if (new URL(to, base).origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return to;
}

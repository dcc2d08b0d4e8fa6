// The one place where ids and paging cursors from a URL, a form or a JSON body are read.
// Anything these refuse is bad input: a 400 on /api, an ignored filter on a page; never a
// query that the database would refuse with a 500.
import { isValidDate } from "./dates";

/** Ids are PostgreSQL `integer`s. */
export const MAX_ID = 2_147_483_647;

/** A positive integer id (number or digit string, surrounding spaces allowed), or null. */
export function parseId(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** User ids are UUIDs; anything else names no user. */
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/**
 * An invoice number as typed (" 00127 ", and "#127" in a search): its canonical digits, or
 * null. Numbers are numeric strings of up to 18 digits (a PostgreSQL bigint).
 */
export function parseInvoiceNo(value: unknown, { search = false } = {}): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const trimmed = String(value).trim();
  const text = search ? trimmed.replace(/^#/, "") : trimmed;
  return /^\d{1,18}$/.test(text) ? String(BigInt(text)) : null;
}

/**
 * A keyset cursor: the sort key of a row and its id, which breaks ties. The key is a calendar
 * date (`2026-03-01_418`) for lists sorted by date, and absent for lists sorted by id alone
 * (`418`).
 */
export type Cursor = { key: string | null; id: number };
type CursorKind = "date" | "id";

export function formatCursor(cursor: Cursor): string {
  return cursor.key === null ? String(cursor.id) : `${cursor.key}_${cursor.id}`;
}

export function parseCursor(value: unknown, kind: CursorKind): Cursor | null {
  if (typeof value !== "string") return null;
  if (kind === "id") {
    const id = parseId(value);
    return id === null ? null : { key: null, id };
  }
  const match = /^(\d{4}-\d{2}-\d{2})_(\d{1,10})$/.exec(value.trim());
  if (!match || !isValidDate(match[1])) return null;
  const id = parseId(match[2]);
  return id === null ? null : { key: match[1], id };
}

/**
 * Where a keyset page starts: `cursor` pages to older rows (after the cursor in newest-first
 * order), `before` to newer ones. Neither is the first page.
 */
export type PageRequest = { cursor: Cursor | null; direction: "older" | "newer" };

/**
 * Reads `cursor` / `before` from a query string. `invalid` is true when one was given but
 * refused: API routes answer 400, pages show the first page.
 */
export function readPageRequest(params: URLSearchParams, kind: CursorKind): PageRequest & { invalid: boolean } {
  const before = params.get("before");
  const after = params.get("cursor");
  if (before !== null && before !== "") {
    const cursor = parseCursor(before, kind);
    return { cursor, direction: "newer", invalid: cursor === null };
  }
  if (after !== null && after !== "") {
    const cursor = parseCursor(after, kind);
    return { cursor, direction: "older", invalid: cursor === null };
  }
  return { cursor: null, direction: "older", invalid: false };
}

/** A page of a newest-first list and the cursors of its neighbours (null: none that way). */
export type Page<T> = { items: T[]; olderCursor: string | null; newerCursor: string | null };

// Keyset pagination for newest-first lists: a page is found through the index on
// (key, id) from where the last one ended, so it costs the same a million rows deep as on
// the first page. Models pass their sort columns; the cursor comes from utils/params.
import { asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { formatCursor, type Cursor, type Page, type PageRequest } from "./params";

type KeysetColumns = { key?: AnyColumn; id: AnyColumn };

/** The condition that starts a page after (older) or before (newer) the cursor. */
export function keysetWhere(columns: KeysetColumns, request: PageRequest): SQL | undefined {
  const { cursor, direction } = request;
  if (!cursor) return undefined;
  const op = direction === "older" ? sql`<` : sql`>`;
  if (!columns.key || cursor.key === null) return sql`${columns.id} ${op} ${cursor.id}`;
  return sql`(${columns.key}, ${columns.id}) ${op} (${cursor.key}::date, ${cursor.id})`;
}

/** Newest first; a page of newer rows is read oldest first and turned round by `toPage`. */
export function keysetOrder(columns: KeysetColumns, request: PageRequest): SQL[] {
  const dir = request.direction === "newer" ? asc : desc;
  return columns.key ? [dir(columns.key), dir(columns.id)] : [dir(columns.id)];
}

/**
 * Shapes `limit + 1` rows of any keyset list into a page in the list's order, with the cursors
 * of the pages either side. `backward`: the rows were read towards the list's start (in reverse
 * order) and are turned round; `continued`: the page starts after a cursor, so a page lies
 * before it. A cursor is whatever `cursorOf` makes of a row.
 */
export function shapePage<T>(
  rows: T[],
  limit: number,
  { backward, continued }: { backward: boolean; continued: boolean },
  cursorOf: (row: T) => string,
): { items: T[]; previous: string | null; next: string | null } {
  const more = rows.length > limit;
  const taken = rows.slice(0, limit);
  const items = backward ? taken.reverse() : taken;
  const first = items.length ? cursorOf(items[0]) : null;
  const last = items.length ? cursorOf(items[items.length - 1]) : null;
  return backward
    ? { items, previous: more ? first : null, next: last }
    : { items, previous: continued ? first : null, next: more ? last : null };
}

/**
 * Shapes `limit + 1` rows read with `keysetWhere`/`keysetOrder` into a page, newest first,
 * with the cursors of the pages either side.
 */
export function toPage<T>(rows: T[], limit: number, request: PageRequest, cursorOf: (row: T) => Cursor): Page<T> {
  const page = shapePage(rows, limit, { backward: request.direction === "newer", continued: !!request.cursor }, (row) =>
    formatCursor(cursorOf(row)),
  );
  return { items: page.items, newerCursor: page.previous, olderCursor: page.next };
}

/** The first page of a newest-first list. */
export const FIRST_PAGE: PageRequest = { cursor: null, direction: "older" };

/**
 * Every row of a newest-first list, read a keyset page at a time (the full JSON lists and the
 * CSV exports): memory holds one batch however many rows there are. `readPage` is the list's own
 * model call; `cursorOf` gives the cursor after a batch's last row.
 */
export async function* keysetBatches<T>(
  readPage: (page: PageRequest) => Promise<{ items: T[]; olderCursor: string | null }>,
  cursorOf: (last: T) => Cursor,
): AsyncGenerator<T[]> {
  let page = FIRST_PAGE;
  for (;;) {
    const { items, olderCursor } = await readPage(page);
    if (items.length) yield items;
    if (!olderCursor) return;
    page = { cursor: cursorOf(items[items.length - 1]), direction: "older" };
  }
}

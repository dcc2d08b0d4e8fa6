// JSON lists for /api: with `limit` one keyset page, its next cursor in X-Next-Cursor and a
// `Link: rel="next"`; without, the whole list streamed from the database in batches so the
// server holds one batch at a time however long the list is (docs/decisions/0502).
import { jsonError } from "./auth.server";
import { streamBatches } from "./batches.server";
import { firstBatchRead } from "./unavailable.server";

const MAX_LIMIT = 500;

/** `limit` from a query string: absent (the whole list), 1..500, or invalid. */
export function readLimit(params: URLSearchParams): number | null | "invalid" {
  const value = params.get("limit");
  if (value === null || value === "") return null;
  if (!/^\d{1,4}$/.test(value.trim())) return "invalid";
  const limit = Number(value);
  return limit >= 1 && limit <= MAX_LIMIT ? limit : "invalid";
}

export const badLimit = () => jsonError(400, `limit must be a whole number from 1 to ${MAX_LIMIT}`);

/** A page of a list, with the headers that lead to the next one. */
export function pageResponse(request: Request, items: unknown[], olderCursor: string | null) {
  const headers = new Headers();
  if (olderCursor) {
    const next = new URL(request.url);
    next.searchParams.delete("before");
    next.searchParams.set("cursor", olderCursor);
    headers.set("X-Next-Cursor", olderCursor);
    headers.set("Link", `<${next.pathname}${next.search}>; rel="next"`);
  }
  return Response.json(items, { headers });
}

/**
 * Streams `[row,row,...]` from batches as they are read. The first batch is read before the
 * answer (a database that cannot answer is a 503, not a broken 200); each later one waits for a
 * connection on a budget of its own (`nextBatch`).
 */
export async function streamJsonArray(batches: AsyncIterable<unknown[]>) {
  const iterator = await firstBatchRead(batches);
  let first = true;
  // Headers are gone by a failure mid-way: the body breaks off, so the client sees invalid JSON,
  // not a short list.
  const body = streamBatches(iterator, {
    head: "[",
    write: (rows) => {
      let chunk = "";
      for (const row of rows) {
        chunk += (first ? "" : ",") + JSON.stringify(row);
        first = false;
      }
      return chunk;
    },
    tail: "]",
  });
  return new Response(body, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

// Answers streamed from batches (decisions 0502, 0952, 0951): the JSON lists, the CSV exports and
// the printable invoice read their rows a batch at a time and write each batch out as the client
// takes the last, so the server holds one batch however long the list. The first batch is read
// before the answer is made (`firstBatchRead`) and each later one waits for a connection on a
// budget of its own (`nextBatch`), both in unavailable.server.ts.
import { nextBatch } from "./unavailable.server";

/** Batches of a paged read: `read(cursor)` gives a page and the cursor after it (null at the end). */
export async function* pagedBatches<T, C>(
  read: (cursor: C | null) => Promise<{ items: T[]; next: C | null }>,
): AsyncGenerator<T[]> {
  let cursor: C | null = null;
  for (;;) {
    const { items, next } = await read(cursor);
    if (items.length) yield items;
    if (next === null) return;
    cursor = next;
  }
}

type BatchBody<T> = {
  /** Written first, on its own, before any batch is read on. */
  head: string;
  /** One batch as text: one chunk of the body. */
  write: (batch: T[]) => string;
  /** Written after the last batch. */
  tail?: string;
  /**
   * The words a failure ends the body with. Without it the body breaks off, so the client sees
   * a failed download rather than a short one that looks whole.
   */
  failed?: (error: unknown) => string;
};

/**
 * A body written batch by batch as the client reads: `head`, then each batch (the next read only
 * once the client has taken the last), then `tail`. A failure after the head cannot change the
 * status any more: the body breaks off, or ends with `failed`'s words. A client that stops
 * reading closes the batches.
 */
export function streamBatches<T>(
  batches: AsyncIterable<T[]>,
  { head, write, tail = "", failed }: BatchBody<T>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head));
        return;
      }
      try {
        const { value, done } = await nextBatch(iterator);
        if (done) {
          if (tail) controller.enqueue(encoder.encode(tail));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(write(value)));
      } catch (error) {
        if (!failed) return controller.error(error);
        controller.enqueue(encoder.encode(failed(error)));
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}

// Remix's browser code reads every loader answer of a client-side navigation with turbo-stream's
// `decode` (single fetch) and uses only the first line. When a newer navigation aborts the fetch
// after that line but before the body ends, turbo-stream 2.4.1 rejected two promises nobody
// held: its internal "done" deferred and the `done` it returns. Each was an unhandled rejection
// in the page ("signal is aborted without reason"), which the browser tests count as a page
// error. `patches/turbo-stream+2.4.1.patch` drops the first (nothing could hold it) and marks
// the second as handled; a caller that awaits `done` still gets the error (docs/decisions/0506).
import { decode, encode } from "turbo-stream";
import { afterEach, describe, expect, it } from "vitest";

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);

afterEach(() => {
  process.off("unhandledRejection", record);
  unhandled.length = 0;
});

/** The first line turbo-stream writes for `value`, as the bytes a fetch body would carry. */
async function firstLine(value: unknown) {
  const reader = encode(value).getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += decoder.decode(read.value, { stream: true });
  }
  const end = text.indexOf("\n");
  if (end < 0) throw new Error(`no line in ${JSON.stringify(text)}`);
  return new TextEncoder().encode(text.slice(0, end + 1));
}

/** A body that sends one line and then fails, as an aborted fetch's body does. */
async function bodyCutAfterFirstLine(value: unknown) {
  const line = await firstLine(value);
  let cut: (reason: unknown) => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(line);
      cut = (reason) => controller.error(reason);
    },
  });
  return { body, cut };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("turbo-stream's decode when the body fails after the first line", () => {
  it("leaves no unhandled rejection when the caller ignores `done`, as Remix's client does", async () => {
    process.on("unhandledRejection", record);
    const { body, cut } = await bodyCutAfterFirstLine({ invoices: [{ id: 7, amount: "1200.50" }] });
    const decoded = await decode(body);
    expect(decoded.value).toEqual({ invoices: [{ id: 7, amount: "1200.50" }] });
    cut(new DOMException("signal is aborted without reason", "AbortError"));
    await settle();
    expect(unhandled).toEqual([]);
  });

  it("still rejects `done` for a caller that waits for the whole body", async () => {
    const { body, cut } = await bodyCutAfterFirstLine({ ok: true });
    const decoded = await decode(body);
    cut(new DOMException("signal is aborted without reason", "AbortError"));
    await expect(decoded.done).rejects.toThrow("signal is aborted without reason");
  });
});

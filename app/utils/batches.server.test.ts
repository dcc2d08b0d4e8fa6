// The one way answers are streamed from batches: the JSON lists, the CSV exports and the
// printable invoice all write through `streamBatches`.
import { describe, expect, it } from "vitest";
import { pagedBatches, streamBatches } from "./batches.server";

const text = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("streamBatches", () => {
  it("writes the head on its own, then a chunk a batch as the client reads, then the tail", async () => {
    let read = 0;
    async function* counted() {
      for (let i = 0; i < 4; i++) {
        read += 1;
        yield [i, i];
      }
    }
    const reader = streamBatches(counted(), { head: "<", write: (b) => b.join("+"), tail: ">" }).getReader();
    const decode = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);
    expect(decode((await reader.read()).value)).toBe("<");
    expect(decode((await reader.read()).value)).toBe("0+0");
    // The next batch is read only once the client has taken the last.
    expect(read).toBeLessThanOrEqual(2);
    const rest: string[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest.push(decode(next.value));
    expect(rest).toEqual(["1+1", "2+2", "3+3", ">"]);
  });

  it("breaks the body off when a batch fails, or ends it with the words given", async () => {
    async function* failing() {
      yield [1];
      throw new Error("database went away");
    }
    await expect(text(streamBatches(failing(), { head: "[", write: String, tail: "]" }))).rejects.toThrow(
      "database went away",
    );
    const failed = (error: unknown) => `|stopped: ${(error as Error).message}`;
    expect(await text(streamBatches(failing(), { head: "[", write: String, tail: "]", failed }))).toBe(
      "[1|stopped: database went away",
    );
  });

  it("closes the batches when the client stops reading", async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield [i];
      } finally {
        closed = true;
      }
    }
    const reader = streamBatches(endless(), { head: "", write: String }).getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    expect(closed).toBe(true);
  });
});

describe("pagedBatches", () => {
  it("reads page after page from the cursor each gives, skipping empty pages, until there is none", async () => {
    const asked: (number | null)[] = [];
    const pages: Record<string, { items: string[]; next: number | null }> = {
      start: { items: ["a", "b"], next: 2 },
      2: { items: [], next: 3 },
      3: { items: ["c"], next: null },
    };
    const batches: string[][] = [];
    for await (const batch of pagedBatches<string, number>(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? "start"];
    })) {
      batches.push(batch);
    }
    expect(asked).toEqual([null, 2, 3]);
    expect(batches).toEqual([["a", "b"], ["c"]]);
  });
});

import { describe, expect, it } from "vitest";
import { keysetBatches } from "./keyset.server";
import type { PageRequest } from "./params";

// A list of 25 rows, newest (id 25) first, read in pages of `limit` after the cursor's id.
function list(limit: number, asked: PageRequest[]) {
  const rows = Array.from({ length: 25 }, (_, i) => ({ id: 25 - i }));
  return async (page: PageRequest) => {
    asked.push(page);
    const after = page.cursor?.id ?? Infinity;
    const rest = rows.filter((r) => r.id < after);
    const items = rest.slice(0, limit);
    return { items, olderCursor: rest.length > limit ? `~${items[items.length - 1].id}` : null };
  };
}

async function collect<T>(batches: AsyncGenerator<T[]>) {
  const out: T[][] = [];
  for await (const batch of batches) out.push(batch);
  return out;
}

describe("keysetBatches", () => {
  it("reads every row once, a page at a time, each page after the last row of the one before", async () => {
    const asked: PageRequest[] = [];
    const batches = await collect(keysetBatches(list(10, asked), (last) => ({ key: null, id: last.id })));
    expect(batches.map((b) => b.length)).toEqual([10, 10, 5]);
    expect(batches.flat().map((r) => r.id)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(asked).toEqual([
      { cursor: null, direction: "older" },
      { cursor: { key: null, id: 16 }, direction: "older" },
      { cursor: { key: null, id: 6 }, direction: "older" },
    ]);
  });

  it("stops after an exact last page and yields nothing for an empty list", async () => {
    const asked: PageRequest[] = [];
    const exact = await collect(keysetBatches(list(25, asked), (last) => ({ key: null, id: last.id })));
    expect(exact.map((b) => b.length)).toEqual([25]);
    expect(asked).toHaveLength(1);
    const empty = await collect(
      keysetBatches(
        async () => ({ items: [] as { id: number }[], olderCursor: null }),
        (last) => ({
          key: null,
          id: last.id,
        }),
      ),
    );
    expect(empty).toEqual([]);
  });
});

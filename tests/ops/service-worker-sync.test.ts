// The service worker's Background Sync with no page open (public/sw.js, decision 1100): it asks
// who is signed in before it sends anyone's entries. A 503 there (the database away) was read as
// "signed out" and the sync ended as done, so the browser never tried again. Run in a
// VM with a stand-in worker scope: only what the sync touches before it opens the outbox.
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { REPO } from "./support/app";

const SOURCE = readFileSync(path.join(REPO, "public/sw.js"), "utf8");

/**
 * The outbox's object store in memory, as much of IndexedDB as the sync uses: open, getAll,
 * and a readwrite transaction whose delete completes at once.
 */
function memoryOutbox(entries: Record<string, unknown>[]) {
  const data = new Map(entries.map((e) => [e.key as string, e]));
  const later = (request: { result?: unknown; onsuccess?: () => void }, result: unknown) =>
    queueMicrotask(() => {
      request.result = result;
      request.onsuccess?.();
    });
  const db = {
    transaction: () => {
      const tx: { oncomplete?: () => void } = {};
      queueMicrotask(() => queueMicrotask(() => tx.oncomplete?.()));
      return Object.assign(tx, {
        objectStore: () => ({
          getAll: () => {
            const request = {};
            later(request, [...data.values()]);
            return request;
          },
          delete: (key: string) => data.delete(key),
        }),
      });
    },
  };
  return {
    data,
    indexedDB: {
      open: () => {
        const request = {};
        later(request, db);
        return request;
      },
    },
  };
}

/** Fires one `sync` event at a fresh worker with these stand-ins; resolves when the sync ends. */
function sync(stand: { fetch: (url: string, init?: RequestInit) => Promise<Response>; indexedDB: unknown }) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const context = vm.createContext({
    self: {
      addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
      clients: { matchAll: async () => [] },
      navigator: {},
      location: { origin: "http://localhost" },
    },
    ...stand,
    caches: {},
    AbortSignal,
    Response,
    URL,
    console,
    setTimeout,
    clearTimeout,
    queueMicrotask,
  });
  vm.runInContext(SOURCE, context, { filename: "sw.js" });
  let done: Promise<unknown> | undefined;
  listeners.sync({ tag: "pks-outbox", waitUntil: (promise: Promise<unknown>) => (done = promise) });
  return done!;
}

/** A sync whose GET /api/auth/user answers `status`. */
function syncWith(status: number) {
  const requested: string[] = [];
  const done = sync({
    fetch: async (url: string) => {
      requested.push(url);
      return Response.json({ message: "nope" }, { status });
    },
    indexedDB: {
      open: () => {
        throw new Error("the outbox is not opened in these cases");
      },
    },
  });
  return { done, requested };
}

describe("Background Sync without a page open", () => {
  it.each([401, 403])("waits for a sign-in when who is signed in answers %i", async (status) => {
    const { done, requested } = syncWith(status);
    await expect(done).resolves.toBeUndefined();
    expect(requested).toEqual(["/api/auth/user"]);
  });

  it.each([503, 500, 408, 429])("fails the sync, so the browser tries again, when it answers %i", async (status) => {
    const { done, requested } = syncWith(status);
    await expect(done).rejects.toThrow(`retry later (${status})`);
    expect(requested).toEqual(["/api/auth/user"]);
  });
});

describe("Background Sync sends the waiting entries as the page does", () => {
  it("with each entry's key and, for a correction, the keys it replaces", async () => {
    const waiting = (key: string, createdAt: number, more: Record<string, unknown> = {}) => ({
      key,
      userId: "u-1",
      createdAt,
      state: "waiting",
      fields: { tons: "1" },
      attempts: 0,
      ...more,
    });
    const outbox = memoryOutbox([
      waiting("k-fresh", Date.now() - 2),
      waiting("k-fix", Date.now() - 1, { replaces: ["k-old", "k-first"] }),
    ]);
    const sent: Record<string, string>[] = [];
    await sync({
      fetch: async (url: string, init?: RequestInit) => {
        if (url === "/api/auth/user") return Response.json({ id: "u-1" });
        sent.push(init!.headers as Record<string, string>);
        return Response.json({ id: sent.length, tons: "1" }, { status: 201 });
      },
      indexedDB: outbox.indexedDB,
    });
    expect(sent.map((h) => [h["Idempotency-Key"], h["X-Outbox-User"], h["X-Replaces-Key"]])).toEqual([
      ["k-fresh", "u-1", undefined],
      ["k-fix", "u-1", "k-old,k-first"],
    ]);
    expect(outbox.data.size).toBe(0);
  });

  it("with the loading ticket's boxes and photo in `loadingTicket`, as the page sends them (decision 1220)", async () => {
    const fields = {
      agentId: "3",
      tons: "",
      "loadingTicket.ticketNo": "T-1",
      "loadingTicket.grossKg": "45550",
      "loadingTicket.photo": "data:image/jpeg;base64,/9j/",
    };
    const outbox = memoryOutbox([{ key: "k-1", userId: "u-1", createdAt: Date.now(), state: "waiting", fields }]);
    const bodies: unknown[] = [];
    await sync({
      fetch: async (url: string, init?: RequestInit) => {
        if (url === "/api/auth/user") return Response.json({ id: "u-1" });
        bodies.push(JSON.parse(init!.body as string));
        return Response.json({ id: 1, tons: "30.550" }, { status: 201 });
      },
      indexedDB: outbox.indexedDB,
    });
    expect(bodies).toEqual([
      {
        agentId: "3",
        tons: "",
        loadingTicket: { ticketNo: "T-1", grossKg: "45550", photo: "data:image/jpeg;base64,/9j/" },
      },
    ]);
    expect(outbox.data.size).toBe(0);
  });
});

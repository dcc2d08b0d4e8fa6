// The service worker's Background Sync with no page open (public/sw.js, decision 1100): it asks
// who is signed in before it sends anyone's entries. A 503 there (the database away) was read as
// "signed out" and the sync ended as done, so the browser never tried again (stop 33). Run in a
// VM with a stand-in worker scope: only what the sync touches before it opens the outbox.
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { REPO } from "./support/app";

const SOURCE = readFileSync(path.join(REPO, "public/sw.js"), "utf8");

/** Fires one `sync` event at a fresh worker whose GET /api/auth/user answers `status`. */
function syncWith(status: number) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const requested: string[] = [];
  const scope = {
    addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
    clients: { matchAll: async () => [] },
    navigator: {},
    location: { origin: "http://localhost" },
  };
  const context = vm.createContext({
    self: scope,
    fetch: async (url: string) => {
      requested.push(url);
      return new Response(JSON.stringify({ message: "nope" }), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    },
    indexedDB: {
      open: () => {
        throw new Error("the outbox is not opened in these cases");
      },
    },
    caches: {},
    AbortSignal,
    Response,
    URL,
    console,
    setTimeout,
    clearTimeout,
  });
  vm.runInContext(SOURCE, context, { filename: "sw.js" });
  let done: Promise<unknown> | undefined;
  listeners.sync({ tag: "pks-outbox", waitUntil: (promise: Promise<unknown>) => (done = promise) });
  return { done: done!, requested };
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

// The service worker's copies of the pages a person has seen (public/sw.js, decision 1100): which
// pages it keeps, for whom. Run in a VM with a stand-in worker scope, an in-memory Cache API and a
// server that answers every page with 200 HTML, so only the worker's own rules decide.
import { readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { REPO } from "./support/app";

const SOURCE = readFileSync(path.join(REPO, "public/sw.js"), "utf8");
const ORIGIN = "http://localhost";

type Stored = Map<string, Response>;

/** As much of the Cache API as the worker's page copies use, in memory. */
function memoryCaches() {
  const stores = new Map<string, Stored>();
  const href = (key: string | { url: string }) => new URL(typeof key === "string" ? key : key.url, ORIGIN).href;
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map());
    const store = stores.get(name)!;
    return {
      match: async (key: string | { url: string }) => store.get(href(key))?.clone(),
      put: async (key: string | { url: string }, response: Response) => void store.set(href(key), response),
      delete: async (key: string | { url: string }) => store.delete(href(key)),
      keys: async () => [...store.keys()].map((url) => ({ url })),
      matchAll: async () => [...store.values()].map((r) => r.clone()),
      addAll: async () => undefined,
    };
  };
  return {
    stores,
    caches: {
      open,
      match: async (key: string) => (await open("pks-pages-v3")).match(key),
      keys: async () => [...stores.keys()],
      delete: async (name: string) => stores.delete(name),
    },
    pages: () =>
      [...(stores.get("pks-pages-v3")?.keys() ?? [])].map((url) => new URL(url).pathname + new URL(url).search),
  };
}

/**
 * A fresh worker whose server answers every page with a 200 page (`form` adds a form key); New
 * Delivery's names one script, `scripts` are the build's files.
 */
function worker({ form = [] as string[], scripts = {} as Record<string, string> } = {}) {
  const listeners: Record<string, (event: unknown) => void> = {};
  const memory = memoryCaches();
  const fetched: string[] = [];
  const context = vm.createContext({
    self: {
      addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] = listener),
      clients: { matchAll: async () => [] },
      navigator: {},
      location: { origin: ORIGIN },
    },
    caches: memory.caches,
    fetch: async (url: string) => {
      fetched.push(url);
      if (url.startsWith("/build/")) return new Response(scripts[url] ?? "", { status: 200 });
      const named = url === "/deliveries/new" ? '<script type="module" src="/build/route.js"></script>' : "";
      const body = `<!DOCTYPE html><html lang="en"><body>${named}${form.includes(url) ? '<input name="idempotencyKey">' : ""}</body></html>`;
      const response = new Response(body, { status: 200, headers: { "content-type": "text/html" } });
      // Node's fetch answers are not "basic"; a same-origin answer in the browser is.
      Object.defineProperty(response, "type", { value: "basic" });
      return response;
    },
    AbortSignal,
    Headers,
    Response,
    URL,
    console,
    setTimeout,
    clearTimeout,
    queueMicrotask,
  });
  vm.runInContext(SOURCE, context, { filename: "sw.js" });
  const message = async (data: Record<string, unknown>) => {
    let done: Promise<unknown> = Promise.resolve();
    listeners.message({ data, waitUntil: (promise: Promise<unknown>) => (done = promise) });
    await done;
  };
  const seen = (path: string, userId: string, role: string) => message({ type: "seen", path, userId, role });
  const assets = () => [...(memory.stores.get("pks-assets-v1")?.keys() ?? [])].map((url) => new URL(url).pathname);
  return { seen, pages: memory.pages, fetched, assets };
}

describe("the worker's copies of pages seen", () => {
  it("keeps only staff pages for staff, whatever the server answers", async () => {
    const sw = worker();
    for (const path of [
      "/",
      "/deliveries?status=pending",
      "/settings",
      "/invoices",
      "/payments",
      "/agents/3/statement",
    ]) {
      await sw.seen(path, "u-staff", "staff");
    }
    expect(sw.pages()).toEqual(
      expect.arrayContaining(["/", "/deliveries?status=pending", "/settings", "/deliveries/new", "/offline"]),
    );
    expect(sw.pages().filter((p) => /invoices|payments|statement/.test(p))).toEqual([]);
    expect(sw.fetched.filter((p) => /invoices|payments|statement/.test(p))).toEqual([]);
  });

  it("keeps a manager's money pages, but never one with a form key", async () => {
    const sw = worker({ form: ["/invoices/new"] });
    await sw.seen("/invoices", "u-manager", "manager");
    await sw.seen("/invoices/new", "u-manager", "manager");
    expect(sw.pages()).toContain("/invoices");
    expect(sw.pages()).not.toContain("/invoices/new");
  });

  it("drops a person's copies when someone else, or the same person under another role, is seen", async () => {
    const sw = worker();
    await sw.seen("/invoices", "u-admin", "admin");
    await sw.seen("/", "u-admin", "staff");
    expect(sw.pages()).not.toContain("/invoices");
    expect(sw.pages()).toContain("/");
    await sw.seen("/settings", "u-other", "staff");
    expect(sw.pages()).not.toContain("/");
    expect(sw.pages()).toContain("/settings");
  });
});

describe("the assets kept with a page", () => {
  it("include the scripts its scripts load on demand, so New Delivery's photo scaler works offline (decision 1220)", async () => {
    const sw = worker({
      scripts: {
        "/build/route.js": 'let s=()=>import("/build/_shared/photo-scale-AB12.js");import"/build/_shared/chunk-1.js";',
        "/build/_shared/photo-scale-AB12.js": "export const x=1;",
      },
    });
    await sw.seen("/", "u-staff", "staff");
    expect(sw.assets()).toEqual(expect.arrayContaining(["/build/route.js", "/build/_shared/photo-scale-AB12.js"]));
    // Kept as long as the page that needs it: another visit drops nothing it still uses.
    await sw.seen("/deliveries", "u-staff", "staff");
    expect(sw.assets()).toContain("/build/_shared/photo-scale-AB12.js");
  });
});

// The service worker (docs/decisions/1100-offline-capture.md). It keeps one page on the
// phone, New Delivery, with the scripts and styles it loads, so the form opens with no
// signal; and it sends the delivery outbox through Background Sync where the browser has it.
// Pages are network-first (a fresh agent list whenever there is signal), build assets are
// fingerprinted and come from the cache. Pages are stored from the worker's own fetch: the
// server marks them no-store for the HTTP cache. Plain JavaScript, not bundled.
/* eslint-disable */
const PAGES = "pks-pages-v1";
const ASSETS = "pks-assets-v1";
const FORM = "/deliveries/new";
const STATIC = ["/favicon.svg", "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png"];
const REFRESH_EVERY_MS = 5 * 60 * 1000;
// The outbox the pages keep through idb-keyval (app/utils/outbox.ts): same names.
const OUTBOX_DB = "pks-outbox";
const OUTBOX_STORE = "deliveries";
const SYNC_TAG = "pks-outbox";

let lastRefresh = 0;

// Where the browser has the static routing API (Chromium), requests the fetch handler below
// does not answer never wake the worker: every other page and call goes straight to the
// network, and build assets come from the asset cache (or the network on a miss) without a
// round trip through the worker. The first rule that matches decides. Elsewhere the fetch
// handler does the same job by returning early.
const ROUTES = [
  { condition: { urlPattern: { pathname: "/build/*" } }, source: { cacheName: ASSETS } },
  { condition: { urlPattern: { pathname: FORM } }, source: "fetch-event" },
  { condition: { urlPattern: { pathname: `${FORM}.data` } }, source: "fetch-event" },
  { condition: { urlPattern: { pathname: "/logout" } }, source: "fetch-event" },
  ...STATIC.map((pathname) => ({ condition: { urlPattern: { pathname } }, source: "fetch-event" })),
  { condition: { urlPattern: { pathname: "*" } }, source: "network" },
];

self.addEventListener("install", (event) => {
  if (typeof event.addRoutes === "function") {
    try {
      event.waitUntil(Promise.resolve(event.addRoutes(ROUTES)).catch(() => undefined));
    } catch {
      // a browser that refuses a rule: the fetch handler still decides everything
    }
  }
  event.waitUntil(
    caches
      .open(ASSETS)
      .then((cache) => cache.addAll(STATIC))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== PAGES && name !== ASSETS) await caches.delete(name);
      }
      await self.clients.claim();
      await refresh(true);
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "refresh") event.waitUntil(refresh(!!event.data.force));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Signing out forgets the cached page (it names the person); the outbox stays until sent.
  if (request.method === "POST" && url.pathname === "/logout") {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/build/")) {
    event.respondWith(cacheFirst(request));
  } else if (STATIC.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request).then((cached) => cached || Response.error())));
  } else if (request.mode === "navigate" && url.pathname === FORM) {
    event.respondWith(networkFirst(event, FORM, true));
  } else if (url.pathname === `${FORM}.data`) {
    // Remix's data call when New Delivery is opened by a link (offline, pages follow such a
    // link as a document load instead: app/utils/service-worker.ts).
    event.respondWith(networkFirst(event, url.pathname + url.search, false));
  }
});

let assets;
const assetCache = () => (assets ??= caches.open(ASSETS));

async function cacheFirst(request) {
  const cached = await (await assetCache()).match(request);
  return cached || fetch(request);
}

// With signal that carries nothing (a yard's usual "connected" radio), waiting for the network
// would leave the form blank: after this long the copy on the phone is served, and the
// network's answer, if it comes, still refreshes the copy.
const NETWORK_WAIT_MS = 5000;

const storable = (response) => response.status === 200 && response.type === "basic" && !response.redirected;
// A page that shows someone's flash message (a toast after a form) is not kept as the copy: it
// would show the message again each time the copy opened offline (app/utils/toast.server.ts).
const showsToast = (response) => response.headers.has("X-Toast-Shown");

async function networkFirst(event, key, isPage) {
  const cache = await caches.open(PAGES);
  const cached = await cache.match(key);
  const network = fetch(event.request).then((response) => {
    if (storable(response) && showsToast(response)) {
      // Kept instead: the same page fetched as the worker's own copy, which carries no message.
      if (isPage) event.waitUntil(refresh(true));
    } else if (storable(response)) {
      const copy = response.clone();
      event.waitUntil(
        (async () => {
          await cache.put(key, copy.clone());
          if (isPage) {
            lastRefresh = Date.now();
            await cacheAssets(await copy.text());
          }
        })(),
      );
    }
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  if (!cached) return network;
  let timer;
  const slow = new Promise((resolve) => (timer = setTimeout(() => resolve(cached), NETWORK_WAIT_MS)));
  try {
    const response = await Promise.race([network, slow]);
    // A 503 (database away) or other server error: the copy on the phone serves better.
    return response.status >= 500 ? cached : response;
  } catch {
    return cached;
  } finally {
    clearTimeout(timer);
  }
}

/** Fetches New Delivery afresh (at most every few minutes unless forced) and keeps it. */
async function refresh(force) {
  const cache = await caches.open(PAGES);
  const have = await cache.match(FORM);
  if (!force && have && Date.now() - lastRefresh < REFRESH_EVERY_MS) return tell({ type: "offline-ready" });
  lastRefresh = Date.now();
  let response;
  try {
    // Marked as the worker's own copy: the server then leaves a waiting message (the toast a
    // form's redirect sets) for the page the person opens next (app/utils/toast.server.ts).
    response = await fetch(FORM, { credentials: "same-origin", cache: "no-store", headers: { "X-Offline-Copy": "1" } });
  } catch {
    return have ? tell({ type: "offline-ready" }) : undefined;
  }
  // Signed out, the page redirects to sign-in: nothing to keep.
  if (!storable(response) || !(response.headers.get("content-type") || "").includes("text/html")) return;
  await cache.put(FORM, response.clone());
  await cacheAssets(await response.text());
  await tell({ type: "offline-ready" });
}

/** The page's scripts, styles and icon sprite (all under /build/, fingerprinted); old ones are dropped. */
async function cacheAssets(html) {
  const urls = new Set();
  for (const match of html.matchAll(/"(\/build\/[^"?#\s]+\.(?:js|css|svg))[#"]/g)) urls.add(match[1]);
  const cache = await caches.open(ASSETS);
  for (const url of urls) {
    if (!(await cache.match(url))) {
      try {
        const response = await fetch(url);
        if (response.ok) await cache.put(url, response);
      } catch {
        return;
      }
    }
  }
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/build/") && !urls.has(path)) await cache.delete(request);
  }
}

async function tell(message) {
  for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage(message);
}

// Background Sync: with a page open, that page sends (it knows who is signed in and shows
// the outcome); with none, the worker sends the signed-in person's entries itself, oldest
// first, one at a time, under the lock the pages use. A failure makes the browser retry.
self.addEventListener("sync", (event) => {
  if (event.tag === SYNC_TAG) event.waitUntil(syncOutbox());
});

async function syncOutbox() {
  const windows = await self.clients.matchAll({ type: "window" });
  if (windows.length) {
    for (const client of windows) client.postMessage({ type: "outbox-flush" });
    return;
  }
  const me = await fetch("/api/auth/user", { credentials: "same-origin" });
  if (!me.ok) return; // signed out: the entries wait for the next sign-in
  const user = await me.json();
  const userId = (user && (user.id || (user.user && user.user.id))) || null;
  if (!userId) return;
  const run = async () => {
    const db = await openOutbox();
    const entries = (await all(db)).filter((e) => e.state === "waiting" && e.userId === userId);
    entries.sort((a, b) => a.createdAt - b.createdAt);
    for (const entry of entries) {
      let response;
      try {
        response = await fetch("/api/deliveries", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": entry.key },
          body: JSON.stringify(entry.fields),
          credentials: "same-origin",
        });
      } catch (error) {
        throw error; // no network yet: the browser fires sync again later
      }
      if (response.status === 200 || response.status === 201) {
        await write(db, (store) => store.delete(entry.key));
      } else if (response.status < 500 && ![401, 408, 429].includes(response.status)) {
        // The page's outbox rule (app/utils/outbox.ts): any other 4xx needs a person.
        const body = await response.json().catch(() => ({}));
        const next = {
          ...entry,
          state: "attention",
          status: response.status,
          message: body.message || `The server refused this delivery (${response.status})`,
          fieldErrors: body.errors || {},
          attempts: entry.attempts + 1,
        };
        await write(db, (store) => store.put(next, entry.key));
      } else if (response.status === 401) {
        return;
      } else {
        throw new Error(`retry later (${response.status})`);
      }
    }
  };
  if (self.navigator.locks) await self.navigator.locks.request(SYNC_TAG, run);
  else await run();
}

function openOutbox() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(OUTBOX_DB);
    request.onupgradeneeded = () => request.result.createObjectStore(OUTBOX_STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function all(db) {
  return new Promise((resolve, reject) => {
    const request = db.transaction(OUTBOX_STORE, "readonly").objectStore(OUTBOX_STORE).getAll();
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function write(db, change) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(OUTBOX_STORE, "readwrite");
    change(tx.objectStore(OUTBOX_STORE));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

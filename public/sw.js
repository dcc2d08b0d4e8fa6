// The service worker (docs/decisions/1100-offline-capture.md). It keeps New Delivery on the
// phone, with the scripts and styles it loads, so the form opens with no signal; a copy of
// every other page the person has seen, shown offline marked as not current; a "No connection"
// page for the rest; and it sends the delivery outbox through Background Sync where the
// browser has it. Pages are network-first (a fresh agent list whenever there is signal),
// build assets are fingerprinted and come from the cache. Pages are stored from the worker's
// own fetch: the server marks them no-store for the HTTP cache. Plain JavaScript, not bundled.
/* eslint-disable */
// v3: copies of every page seen, each with the assets it names. v2 kept New Delivery only.
const PAGES = "pks-pages-v3";
const ASSETS = "pks-assets-v1";
const FORM = "/deliveries/new";
// The app's "No connection" page: where a page with no copy goes offline.
const OFFLINE = "/offline";
// Pages kept besides New Delivery and No connection; the oldest copy goes first.
const MAX_PAGES = 30;
// A page seen again within this time keeps its copy (one fetch of the page per minute at most).
const KEEP_EVERY_MS = 60 * 1000;
// Staff see no money: for them only these pages are ever kept, whatever the server answers.
const STAFF_PAGES = /^\/(deliveries(\/new)?|settings|offline)?$/;
// A page with a form key is not kept (New Delivery makes its own): sent from the copy, the key
// would replay the first submission made under it instead of recording a new one.
const FORM_KEY = 'name="idempotencyKey"';
const STATIC = ["/favicon.svg", "/manifest.webmanifest", "/icons/icon-192.png", "/icons/icon-512.png"];
const REFRESH_EVERY_MS = 5 * 60 * 1000;
// Whose copy the page cache holds: the user id the pages last told (a plain text response).
const OWNER = "/__pks/copy-owner";
// The outbox the pages keep through idb-keyval (app/utils/outbox.ts): same names.
const OUTBOX_DB = "pks-outbox";
const OUTBOX_STORE = "deliveries";
const SYNC_TAG = "pks-outbox";
// The outbox's rules (app/utils/outbox.ts and app/utils/outbox-protocol.ts): same values.
const OUTBOX_USER_HEADER = "X-Outbox-User";
const REPLACES_HEADER = "X-Replaces-Key";
const PASSWORD_CHANGE_MESSAGE = "You must change your password first";
const SEND_TIMEOUT_MS = 8000;
const ENTRY_MAX_AGE_MS = 80 * 24 * 60 * 60 * 1000;
const TOO_OLD_MESSAGE = "Not sent for 80 days: check the Deliveries list before resending it.";

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
  // Every page load: offline, the copy or the No connection page.
  { condition: { requestMode: "navigate" }, source: "fetch-event" },
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
  const data = event.data || {};
  if (data.type === "refresh") event.waitUntil(refresh(!!data.force));
  if (data.type === "user" && typeof data.userId === "string" && data.userId) event.waitUntil(adopt(data.userId));
  // A page the person has just seen (pages say so on load and on each navigation).
  if (data.type === "seen" && typeof data.userId === "string" && data.userId && typeof data.path === "string") {
    event.waitUntil(adopt(data.userId, data.role).then(() => keep(data.path, data.userId)));
  }
});

// The copy names its person and opens signed in as them, so it is kept for one person at a
// time. Pages say who is signed in when they load and when that changes; signing in loads no
// document, so on a shared phone this is what replaces the previous person's copy. Offline,
// the next person then finds no form rather than someone else's.
// The owner entry also holds the role (X-Role): a staff member's copies are only of staff pages.
async function adopt(userId, role) {
  const cache = await caches.open(PAGES);
  const owner = await cache.match(OWNER);
  const was = owner ? await owner.text() : null;
  const wasRole = owner ? owner.headers.get("X-Role") : null;
  if (was === userId && (!role || role === wasRole)) return;
  // Someone else's copies go at once, and so do a person's own when the role changes (an
  // admin viewing as staff). With no owner yet (a new worker, or just signed out), a copy of
  // New Delivery fetched meanwhile is most likely this person's: it stays until the fresh one
  // replaces it.
  if (was !== null) {
    for (const request of await cache.keys()) await cache.delete(request);
  }
  await cache.put(OWNER, new Response(userId, { headers: { "X-Role": role || wasRole || "staff" } }));
  await refresh(true);
}

const ownerOf = async (cache) => {
  const owner = await cache.match(OWNER);
  return owner ? { userId: await owner.text(), role: owner.headers.get("X-Role") } : null;
};

const kept = new Map();

/** Keeps a copy of a page the person saw (fetched as the worker's own, so it spends no message). */
async function keep(path, userId) {
  const url = new URL(path, self.location.origin);
  const key = url.pathname + url.search;
  // New Delivery and No connection are kept by `refresh`, on their own rules.
  if (url.origin !== self.location.origin || url.pathname === FORM || url.pathname === OFFLINE) return;
  if (Date.now() - (kept.get(key) || 0) < KEEP_EVERY_MS) return;
  const cache = await caches.open(PAGES);
  const owner = await ownerOf(cache);
  if (!owner || owner.userId !== userId) return;
  if (owner.role !== "manager" && owner.role !== "admin" && !STAFF_PAGES.test(url.pathname)) return;
  kept.set(key, Date.now());
  await ownCopy(cache, key, userId);
  // The oldest copies beyond MAX_PAGES go (the cache lists them in the order they were put).
  const pages = (await cache.keys()).filter((r) => {
    const p = new URL(r.url).pathname;
    return p !== FORM && p !== OFFLINE && p !== OWNER && !p.endsWith(".data");
  });
  for (const request of pages.slice(0, Math.max(0, pages.length - MAX_PAGES))) await cache.delete(request);
}

/**
 * Fetches a page as the worker's own copy and keeps it for `userId` (who must still own the
 * cache when the answer comes). True when kept; throws when the network fails.
 */
async function ownCopy(cache, key, userId) {
  // Marked as the worker's own copy: the server then leaves a waiting message (the toast a
  // form's redirect sets) for the page the person opens next (app/utils/toast.server.ts).
  const response = await fetch(key, {
    credentials: "same-origin",
    cache: "no-store",
    headers: { "X-Offline-Copy": "1" },
  });
  // Signed out, the page redirects to sign-in: nothing to keep; nor a refusal (403, 404).
  if (!storable(response) || !(response.headers.get("content-type") || "").includes("text/html")) return false;
  const html = await response.text();
  if (new URL(key, self.location.origin).pathname !== FORM && html.includes(FORM_KEY)) return false;
  const owner = await ownerOf(cache);
  if (userId && owner?.userId !== userId) return false;
  await put(cache, key, response, html);
  return true;
}

/**
 * Stores a page with when it was kept and the assets it names, and the scripts those load on
 * demand; fetches those assets.
 */
async function put(cache, key, response, html) {
  const urls = assetsOf(html);
  await fetchAssets(urls);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("X-Kept-At", String(Date.now()));
  headers.set("X-Assets", [...urls].join(" "));
  await cache.put(key, new Response(html, { status: response.status, statusText: response.statusText, headers }));
  await dropAssets(cache);
}

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
  } else if (request.mode === "navigate") {
    // One copy of New Delivery (whatever it was opened from) and of No connection (whatever page
    // it stands for); one per address for the others.
    const one = url.pathname === FORM || url.pathname === OFFLINE;
    event.respondWith(networkFirst(event, one ? url.pathname : url.pathname + url.search, true));
  } else if (url.pathname === `${FORM}.data`) {
    // Remix's data call when New Delivery is opened by a link (offline, pages follow a link as
    // a document load instead: app/utils/service-worker.ts).
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
// network's answer, if it comes, still refreshes New Delivery's copy.
const NETWORK_WAIT_MS = 5000;

const storable = (response) => response.status === 200 && response.type === "basic" && !response.redirected;
// A page that shows someone's flash message (a toast after a form) is not kept as the copy: it
// would show the message again each time the copy opened offline (app/utils/toast.server.ts).
const showsToast = (response) => response.headers.has("X-Toast-Shown");

async function networkFirst(event, key, isPage) {
  const cache = await caches.open(PAGES);
  const cached = await cache.match(key);
  const network = fetch(event.request).then((response) => {
    // Only New Delivery is kept from the person's own visit; other pages, from the worker's
    // fetch when the page says it was seen (`keep`).
    if (key !== FORM && isPage) return response;
    if (storable(response) && showsToast(response)) {
      // Kept instead: the same page fetched as the worker's own copy, which carries no message.
      if (isPage) event.waitUntil(refresh(true));
    } else if (storable(response)) {
      const copy = response.clone();
      event.waitUntil(
        (async () => {
          if (!isPage) return cache.put(key, copy);
          lastRefresh = Date.now();
          await put(cache, key, copy, await copy.text());
        })(),
      );
    }
    return response;
  });
  event.waitUntil(network.catch(() => undefined));
  if (!cached) return isPage ? network.catch(() => noConnection(cache, key)) : network;
  let timer;
  // Only New Delivery (and its data) is served from the phone when the answer is slow: another
  // page waits for the server, so a slow report never shows an old copy while there is signal.
  const slow = new Promise((resolve) => {
    if (key === FORM || !isPage) timer = setTimeout(() => resolve(cached), NETWORK_WAIT_MS);
  });
  let response;
  try {
    response = await Promise.race([network, slow]);
    // A 503 (database away) or other server error: the copy on the phone serves better.
    if (response.status >= 500) response = cached;
  } catch {
    response = cached;
  } finally {
    clearTimeout(timer);
  }
  return response === cached && isPage && key !== OFFLINE ? marked(cached) : response;
}

/**
 * A copy served in place of the network says when it was kept, on <html data-offline-copy>
 * (an attribute React's hydration leaves alone): the app's frame shows "Offline — shown as last
 * seen at HH:MM".
 */
async function marked(cached) {
  const headers = new Headers(cached.headers);
  const html = (await cached.text()).replace(
    "<html",
    `<html data-offline-copy="${Number(headers.get("X-Kept-At")) || 0}"`,
  );
  return new Response(html, { status: cached.status, statusText: cached.statusText, headers });
}

/** A page with no copy, offline: the app's No connection page, or the browser's own without one. */
async function noConnection(cache, key) {
  if (!(await cache.match(OFFLINE))) return Response.error();
  const to = new URL(OFFLINE, self.location.origin);
  to.searchParams.set("from", key);
  return Response.redirect(to.href, 302);
}

/**
 * Fetches New Delivery and No connection afresh (at most every few minutes unless forced) and
 * keeps them for the cache's owner.
 */
async function refresh(force) {
  const cache = await caches.open(PAGES);
  const have = await cache.match(FORM);
  if (!force && have && Date.now() - lastRefresh < REFRESH_EVERY_MS) return tell({ type: "offline-ready" });
  lastRefresh = Date.now();
  const owner = await ownerOf(cache);
  try {
    if (!(await ownCopy(cache, FORM, owner?.userId))) return;
    await ownCopy(cache, OFFLINE, owner?.userId);
  } catch {
    return have ? tell({ type: "offline-ready" }) : undefined;
  }
  await tell({ type: "offline-ready" });
}

const assetsOf = (html) => {
  const urls = new Set();
  for (const match of html.matchAll(/"(\/build\/[^"?#\s]+\.(?:js|css|svg))[#"]/g)) urls.add(match[1]);
  return urls;
};

/**
 * Fetches the scripts, styles and icon sprite a kept page names (all under /build/,
 * fingerprinted), and adds to `urls` the scripts those import on demand (`import("/build/…")`:
 * New Delivery's ticket photo scaler, decision 1220), which the page needs offline too.
 */
async function fetchAssets(urls) {
  const cache = await caches.open(ASSETS);
  for (const url of urls) {
    let response = await cache.match(url);
    if (!response) {
      try {
        response = await fetch(url);
      } catch {
        return;
      }
      if (!response.ok) continue;
      await cache.put(url, response.clone());
    }
    if (url.endsWith(".js")) {
      for (const match of (await response.text()).matchAll(/import\("(\/build\/[^"?#\s]+\.js)"\)/g)) urls.add(match[1]);
    }
  }
}

/** Drops the assets no kept page names any more. */
async function dropAssets(pages) {
  const cache = await caches.open(ASSETS);
  const named = new Set();
  for (const response of await pages.matchAll()) {
    for (const url of (response.headers.get("X-Assets") || "").split(" ")) named.add(url);
  }
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/build/") && !named.has(path)) await cache.delete(request);
  }
}

/** The page's `deliveryBody` (app/utils/outbox-protocol.ts): "loadingTicket.ticketNo" goes into `loadingTicket`. */
function deliveryBody(fields) {
  const body = {};
  for (const [name, value] of Object.entries(fields)) {
    const [outer, inner] = name.split(".");
    if (inner) (body[outer] = body[outer] || {})[inner] = value;
    else body[name] = value;
  }
  return body;
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
  const me = await fetch("/api/auth/user", {
    credentials: "same-origin",
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  // Signed out (or made to change the password): the entries wait for the next sign-in. Any
  // other failure (a 503 while the database is away, 408, 429) is a failed sync, which the
  // browser tries again later; returning would have ended it as done.
  if (me.status === 401 || me.status === 403) return;
  if (!me.ok) throw new Error(`retry later (${me.status})`);
  const user = await me.json();
  const userId = (user && (user.id || (user.user && user.user.id))) || null;
  if (!userId) return;
  const run = async () => {
    const db = await openOutbox();
    const entries = (await all(db)).filter((e) => e.state === "waiting" && e.userId === userId);
    entries.sort((a, b) => a.createdAt - b.createdAt);
    for (const entry of entries) {
      // Past the server's memory of its key (90 days), a person checks before it is resent.
      if (Date.now() - entry.createdAt > ENTRY_MAX_AGE_MS) {
        await change(db, entry.key, (e) => ({ ...e, state: "attention", message: TOO_OLD_MESSAGE, fieldErrors: {} }));
        continue;
      }
      // No network, or no answer in time: fetch throws, and the browser fires sync again later.
      const response = await fetch("/api/deliveries", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Idempotency-Key": entry.key,
          [OUTBOX_USER_HEADER]: entry.userId,
          ...(entry.replaces && { [REPLACES_HEADER]: entry.replaces.join() }),
        },
        body: JSON.stringify(deliveryBody(entry.fields)),
        credentials: "same-origin",
        // The page's rules (app/utils/outbox.ts): a redirect is not the app's answer, and only
        // the delivery itself lets the entry go.
        redirect: "error",
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      const status = response.status;
      const body = (await response.json().catch(() => null)) || {};
      if ((status === 200 || status === 201) && typeof body.id === "number") {
        await write(db, (store) => store.delete(entry.key));
      } else if (status === 401 || (status === 403 && body.message === PASSWORD_CHANGE_MESSAGE)) {
        return; // waits until its person is signed in (and done changing the password)
      } else if (status > 399 && status < 500 && status !== 408 && status !== 429) {
        // The page's outbox rule (app/utils/outbox.ts): any other 4xx needs a person.
        await change(db, entry.key, (e) => ({
          ...e,
          state: "attention",
          status,
          message: body.message || `The server refused this delivery (${status})`,
          fieldErrors: body.errors || {},
          attempts: e.attempts + 1,
        }));
      } else {
        throw new Error(`retry later (${status})`);
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

function write(db, edit) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(OUTBOX_STORE, "readwrite");
    edit(tx.objectStore(OUTBOX_STORE));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

/** Changes an entry that is still there; one discarded meanwhile stays gone. */
function change(db, key, next) {
  return write(db, (store) => {
    const request = store.get(key);
    request.onsuccess = () => {
      if (request.result) store.put(next(request.result), key);
    };
  });
}

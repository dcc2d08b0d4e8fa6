// The delivery outbox on the phone (docs/decisions/1100-offline-capture.md). With JavaScript,
// New Delivery stores each submission here first, under the idempotency key made when the
// form opened, then sends it to POST /api/deliveries with that key. An entry leaves only when
// the server confirms it (201, or 200 replaying the first result); the server's idempotency
// makes each land once however often it is sent. Browser-only: nothing here runs on import.
import { createStore, del, get, set, values, type UseStore } from "idb-keyval";

export type OutboxEntry = {
  /** The idempotency key, made when the form opened; also the entry's id. */
  key: string;
  /** Who recorded it: only that person's session sends it. */
  userId: string;
  createdAt: number;
  /** The form's fields as typed (strings), without the key and the return address. */
  fields: Record<string, string>;
  state: "waiting" | "attention";
  /** Why the server refused it ("needs attention"), in the server's words. */
  message?: string;
  fieldErrors?: Record<string, string[]>;
  status?: number;
  attempts: number;
};

export type SendOutcome =
  | { kind: "sent"; tons: string }
  | { kind: "attention"; status: number; message: string; fieldErrors: Record<string, string[]> }
  | { kind: "signin" }
  | { kind: "retry" };

export type OutboxState = { entries: OutboxEntry[]; signInNeeded: boolean };

// The object store idb-keyval creates; the service worker opens the same one.
export const OUTBOX_DB = "pks-outbox";
export const OUTBOX_STORE = "deliveries";
export const SYNC_TAG = "pks-outbox";
const LOCK = "pks-outbox";
const USED_KEYS = "pks-used-keys";

let store: UseStore | undefined;
const outboxStore = () => (store ??= createStore(OUTBOX_DB, OUTBOX_STORE));

let state: OutboxState = { entries: [], signInNeeded: false };
const listeners = new Set<(s: OutboxState) => void>();
let channel: BroadcastChannel | undefined;

export function subscribe(listener: (s: OutboxState) => void) {
  listeners.add(listener);
  listener(state);
  return () => void listeners.delete(listener);
}

function publish(next: Partial<OutboxState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener(state);
}

/** Re-reads the outbox (oldest first) and tells this page and the others. */
export async function reload(broadcast = false) {
  const entries = ((await values(outboxStore())) as OutboxEntry[]).sort((a, b) => a.createdAt - b.createdAt);
  publish({ entries });
  if (broadcast) channel?.postMessage("changed");
  return entries;
}

export async function putEntry(entry: OutboxEntry) {
  await set(entry.key, entry, outboxStore());
  // Ask the browser not to evict the outbox when the phone runs short of space.
  void navigator.storage?.persist?.().catch(() => false);
  markKeyUsed(entry.key);
  await reload(true);
}

export async function getEntry(key: string) {
  return (await get(key, outboxStore())) as OutboxEntry | undefined;
}

export async function removeEntry(key: string) {
  await del(key, outboxStore());
  await reload(true);
}

/** A key once stored is never offered again, even by a form page served from the cache. */
export function isKeyUsed(key: string) {
  try {
    return (JSON.parse(localStorage.getItem(USED_KEYS) ?? "[]") as string[]).includes(key);
  } catch {
    return false;
  }
}

function markKeyUsed(key: string) {
  try {
    const used = (JSON.parse(localStorage.getItem(USED_KEYS) ?? "[]") as string[]).filter((k) => k !== key);
    localStorage.setItem(USED_KEYS, JSON.stringify([...used.slice(-49), key]));
  } catch {
    // without storage the loader's fresh key is still unique
  }
}

export function newKey() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One attempt to send one entry; says what the answer means for the entry. */
export async function sendEntry(entry: OutboxEntry): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/deliveries", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": entry.key },
      body: JSON.stringify(entry.fields),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    return { kind: "retry" };
  }
  const body = (await response.json().catch(() => null)) as {
    message?: string;
    errors?: Record<string, string[]>;
    tons?: string;
  } | null;
  if (response.status === 200 || response.status === 201)
    return { kind: "sent", tons: body?.tons ?? entry.fields.tons ?? "" };
  if (response.status === 401) return { kind: "signin" };
  // Any other 4xx but 408 and 429 is refused for a reason a person must look at: bad input, a
  // removed agent, a closed month, a key already used for something else, a password that must
  // change, a body the server will not take. Sent again it would fail the same way and hold up
  // every entry behind it.
  const status = response.status;
  if (status < 500 && status !== 408 && status !== 429) {
    return {
      kind: "attention",
      status,
      message: body?.message ?? `The server refused this delivery (${status})`,
      fieldErrors: body?.errors ?? {},
    };
  }
  // 408, 429, 5xx (503 while the database is away), a proxy's page: try again later.
  return { kind: "retry" };
}

async function withLock<T>(fn: () => Promise<T>): Promise<T> {
  // One sender at a time across tabs and the service worker.
  if (navigator.locks) return navigator.locks.request(LOCK, fn);
  return fn();
}

export type FlushReport = { outcomes: Map<string, SendOutcome>; retry: boolean };

/**
 * Sends the waiting entries of `userId`, oldest first, one at a time. Stops at the first that
 * cannot be sent now (no network, server away, session ended): the order is kept.
 */
export async function flush(userId: string): Promise<FlushReport> {
  const outcomes = new Map<string, SendOutcome>();
  let retry = false;
  await withLock(async () => {
    const waiting = (await reload()).filter((e) => e.state === "waiting" && e.userId === userId);
    for (const entry of waiting) {
      const outcome = await sendEntry(entry);
      outcomes.set(entry.key, outcome);
      if (outcome.kind === "sent") {
        await removeEntry(entry.key);
        publish({ signInNeeded: false });
        continue;
      }
      if (outcome.kind === "attention") {
        const { status, message, fieldErrors } = outcome;
        await putEntry({ ...entry, state: "attention", status, message, fieldErrors, attempts: entry.attempts + 1 });
        continue;
      }
      retry = outcome.kind === "retry";
      publish({ signInNeeded: outcome.kind === "signin" });
      await set(entry.key, { ...entry, attempts: entry.attempts + 1 }, outboxStore());
      break;
    }
  });
  return { outcomes, retry };
}

let current: string | undefined;
let listening = false;
let timer: number | undefined;
let failures = 0;

/**
 * Keeps sending in the background for the signed-in user: at start, when the network comes
 * back, when the page becomes visible, on a backoff timer after a failure, and when the
 * service worker relays a Background Sync. Only the signed-in person's own entries are sent.
 */
export function startOutbox(userId: string) {
  if (typeof indexedDB === "undefined") return;
  const changed = current !== userId;
  current = userId;
  if (!listening) {
    listening = true;
    const run = () => {
      if (current) void kick(current);
    };
    window.addEventListener("online", run);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") run();
    });
    navigator.serviceWorker?.addEventListener("message", (event) => {
      if (event.data?.type === "outbox-flush") run();
    });
    if (typeof BroadcastChannel !== "undefined") {
      channel = new BroadcastChannel(OUTBOX_DB);
      channel.onmessage = () => void reload();
    }
  }
  if (changed) void kick(userId);
}

/** Sends now if anything waits; on failure, tries again later. */
export async function kick(userId: string) {
  window.clearTimeout(timer);
  if (userId !== current) return;
  const entries = await reload().catch(() => [] as OutboxEntry[]);
  if (!entries.some((e) => e.state === "waiting" && e.userId === userId)) return;
  const report = await flush(userId);
  if (report.retry) scheduleRetry(userId);
  else failures = 0;
  return report;
}

/** After a failed send: try again after 2 s, 4 s, 8 s ... up to a minute, and ask for a sync. */
export function scheduleRetry(userId: string) {
  window.clearTimeout(timer);
  failures += 1;
  timer = window.setTimeout(() => void kick(userId), Math.min(60_000, 2_000 * 2 ** (failures - 1)));
  void requestSync();
}

/** Background Sync, where the browser has it: the service worker sends when the signal returns. */
export async function requestSync() {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as
      (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // not supported or not allowed: the page's own triggers still send
  }
}

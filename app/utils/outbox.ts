// The delivery outbox on the phone (docs/decisions/1100-offline-capture.md). With JavaScript,
// New Delivery stores each submission here first, under an idempotency key the page made,
// then sends it to POST /api/deliveries with that key. An entry leaves only when the server
// confirms it (201, or 200 replaying the first result); the server's idempotency makes each
// land once however often it is sent. Browser-only: nothing here runs on import.
import { showToast } from "~/components/toaster";
import { createStore, get, promisifyRequest, values, type UseStore } from "idb-keyval";
import {
  deliveryBody,
  MAX_REPLACED_KEYS,
  OUTBOX_USER_HEADER,
  PASSWORD_CHANGE_MESSAGE,
  REPLACES_HEADER,
} from "./outbox-protocol";

export type OutboxEntry = {
  /** The idempotency key, made by the page; also the entry's id. */
  key: string;
  /** Who recorded it: only that person's session sends it. */
  userId: string;
  createdAt: number;
  /**
   * The form's fields as typed (strings), named as the form names them, without the key and the
   * return address; a loading ticket's photo as a data URL (decision 1220).
   */
  fields: Record<string, string>;
  state: "waiting" | "attention";
  /** Why the server refused it ("needs attention"), in the server's words. */
  message?: string;
  fieldErrors?: Record<string, string[]>;
  status?: number;
  attempts: number;
  /** A correction's: the keys of the entries it replaces, newest first (sent as X-Replaces-Key). */
  replaces?: string[];
};

/**
 * Why the waiting entries cannot go under this session: it ended (or is someone else's now,
 * which for them is the same), or the password must change first.
 */
export type SignInReason = "signed-out" | "password";

type SendOutcome =
  | { kind: "sent"; tons: string }
  | { kind: "attention"; status: number; message: string; fieldErrors: Record<string, string[]> }
  | { kind: "signin"; reason: SignInReason }
  | { kind: "retry" };

/** signInNeeded: why the waiting entries cannot go under this session, or null. */
export type OutboxState = { entries: OutboxEntry[]; signInNeeded: SignInReason | null };

// The object store idb-keyval creates; the service worker opens the same one.
const OUTBOX_DB = "pks-outbox";
const OUTBOX_STORE = "deliveries";
const SYNC_TAG = "pks-outbox";
const LOCK = "pks-outbox";

/**
 * How long one send may take. A yard's radio often says "connected" and carries nothing: without
 * a limit the fetch hangs for minutes, holding the lock and every entry behind it.
 */
export const SEND_TIMEOUT_MS = 8_000;

/**
 * An entry older than this is not sent blind: the server keeps a key 90 days
 * (IDEMPOTENCY_TTL_MS), and one recorded long ago whose answer was lost could then land twice.
 */
export const ENTRY_MAX_AGE_MS = 80 * 24 * 60 * 60 * 1000;
export const TOO_OLD_MESSAGE = "Not sent for 80 days: check the Deliveries list before resending it.";

let store: UseStore | undefined;
const outboxStore = () => (store ??= createStore(OUTBOX_DB, OUTBOX_STORE));

let state: OutboxState = { entries: [], signInNeeded: null };
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

/** One readwrite transaction: all of `change` is written, or none of it; then the pages are told. */
async function write(change: (store: IDBObjectStore) => void) {
  await outboxStore()("readwrite", (s) => {
    change(s);
    return promisifyRequest(s.transaction);
  });
  await reload(true);
}

/**
 * Stores a new entry, or a correction in place of the entry it corrects (`replacing`), in one
 * transaction: the delivery is on the phone all along. Never overwrites: a key already stored
 * (two tabs opened from one saved page once shared theirs) is refused with a ConstraintError,
 * and nothing is written.
 */
export async function addEntry(entry: OutboxEntry, replacing?: string | null) {
  await write((s) => {
    if (!replacing) return void s.add(entry, entry.key);
    // A send of the corrected entry may have landed unseen: the server is told which keys this
    // one replaces, and refuses it if one did (decision 1100).
    const corrected = s.get(replacing);
    corrected.onsuccess = () => {
      const old = corrected.result as OutboxEntry | undefined;
      entry.replaces = [replacing, ...(old?.replaces ?? [])].slice(0, MAX_REPLACED_KEYS);
      // It keeps the corrected entry's place and age: past the server's memory of the keys it
      // replaces (80 days on the phone), it is not sent blind either.
      if (old) entry.createdAt = old.createdAt;
      s.delete(replacing);
      s.add(entry, entry.key);
    };
  });
  // Ask the browser not to evict the outbox when the phone runs short of space.
  void navigator.storage?.persist?.().catch(() => false);
}

/** Changes a stored entry; one sent or discarded meanwhile stays gone. */
function changeEntry(key: string, change: (entry: OutboxEntry) => OutboxEntry) {
  return write((s) => {
    const request = s.get(key);
    request.onsuccess = () => {
      if (request.result) s.put(change(request.result as OutboxEntry), key);
    };
  });
}

export async function getEntry(key: string) {
  return (await get(key, outboxStore())) as OutboxEntry | undefined;
}

export function removeEntry(key: string) {
  return write((s) => s.delete(key));
}

export function newKey() {
  // (randomUUID: every browser since 2022; before it, a time and 52 random bits are unique enough.)
  return crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}`;
}

/** One attempt to send one entry; says what the answer means for the entry. */
export async function sendEntry(entry: OutboxEntry): Promise<SendOutcome> {
  let response: Response;
  try {
    response = await fetch("/api/deliveries", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json",
        "Idempotency-Key": entry.key,
        // Whose entry this is: under anyone else's session the server refuses it (401).
        [OUTBOX_USER_HEADER]: entry.userId,
        ...(entry.replaces && { [REPLACES_HEADER]: entry.replaces.join() }),
      },
      body: JSON.stringify(deliveryBody(entry.fields)),
      credentials: "same-origin",
      cache: "no-store",
      // A redirect is not the app's answer to this post (a proxy's, a sign-in page): followed, it
      // would end in a 200 for a GET and let the entry go unrecorded.
      redirect: "error",
      // (Safari before 16 has no timeout: there a send waits as long as the browser does.)
      signal: AbortSignal.timeout?.(SEND_TIMEOUT_MS),
    });
  } catch {
    // No network, or no answer in time: the same as no network.
    return { kind: "retry" };
  }
  const body = (await response.json().catch(() => null)) as {
    id?: unknown;
    message?: string;
    errors?: Record<string, string[]>;
    tons?: string;
  } | null;
  const status = response.status;
  // Only the delivery itself lets the entry go; a 200 page from something in front of the app
  // falls through to a retry below.
  if ((status === 200 || status === 201) && typeof body?.id === "number")
    return { kind: "sent", tons: body.tons ?? entry.fields.tons ?? "" };
  // Signed out, or signed in as someone else (OTHER_USER_MESSAGE): it waits for its own person.
  if (status === 401) return { kind: "signin", reason: "signed-out" };
  // Signed in, but the password must change first: the entry waits, as after a 401.
  if (status === 403 && body?.message === PASSWORD_CHANGE_MESSAGE) return { kind: "signin", reason: "password" };
  // Any other 4xx but 408 and 429 is refused for a reason a person must look at: bad input, a
  // removed agent, a closed month, a key already used for something else, a body the server
  // will not take. Sent again it would fail the same way and hold up every entry behind it.
  if (status > 399 && status < 500 && status !== 408 && status !== 429) {
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

type FlushReport = { outcomes: Map<string, SendOutcome>; retry: boolean };

/**
 * Sends the waiting entries of `userId`, oldest first, one at a time. Stops at the first that
 * cannot be sent now (no network, server away, session ended): the order is kept.
 */
export async function flush(userId: string, { now = Date.now() }: { now?: number } = {}): Promise<FlushReport> {
  const outcomes = new Map<string, SendOutcome>();
  let retry = false;
  await withLock(async () => {
    const waiting = (await reload()).filter((e) => e.state === "waiting" && e.userId === userId);
    for (const entry of waiting) {
      // Past the server's memory of its key, a person checks before it is sent again.
      const outcome: SendOutcome =
        now - entry.createdAt > ENTRY_MAX_AGE_MS
          ? { kind: "attention", status: 0, message: TOO_OLD_MESSAGE, fieldErrors: {} }
          : await sendEntry(entry);
      outcomes.set(entry.key, outcome);
      if (outcome.kind === "sent") {
        await removeEntry(entry.key);
        publish({ signInNeeded: null });
        continue;
      }
      if (outcome.kind === "attention") {
        const { status, message, fieldErrors } = outcome;
        await changeEntry(entry.key, (e) => ({
          ...e,
          state: "attention",
          status,
          message,
          fieldErrors,
          attempts: e.attempts + 1,
        }));
        continue;
      }
      retry = outcome.kind === "retry";
      publish({ signInNeeded: outcome.kind === "signin" ? outcome.reason : null });
      await changeEntry(entry.key, (e) => ({ ...e, attempts: e.attempts + 1 }));
      break;
    }
  });
  return { outcomes, retry };
}

export type RecordReport = { entry: OutboxEntry; outcome: SendOutcome | undefined; retry: boolean };

/**
 * Record Delivery with JavaScript: stores the entry (a correction in place of the entry it
 * corrects), calls `onStored` (the delivery is safe on the phone from then on), then sends what
 * waits. A fresh entry the server refuses leaves the phone: the person is right there and the
 * form shows why. A correction refused again stays, back in "needs attention" with the new
 * message.
 */
export async function recordEntry(
  entry: OutboxEntry,
  replacing?: string | null,
  onStored?: () => void,
): Promise<RecordReport> {
  await addEntry(entry, replacing);
  onStored?.();
  const report = await flush(entry.userId).catch((): FlushReport => ({ outcomes: new Map(), retry: true }));
  const outcome = report.outcomes.get(entry.key);
  if (outcome?.kind === "attention" && !replacing) await removeEntry(entry.key);
  return { entry, outcome, retry: report.retry };
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
  if (changed) {
    // The worker keeps one person's copy of New Delivery: when someone else has signed in (a
    // shared phone; signing in loads no document) it fetches this person's (public/sw.js, adopt).
    if (userId) navigator.serviceWorker?.controller?.postMessage({ type: "user", userId });
    void kick(userId);
  }
}

/** Sends now if anything waits; on failure, tries again later. */
async function kick(userId: string) {
  window.clearTimeout(timer);
  if (userId !== current) return;
  const entries = await reload().catch(() => [] as OutboxEntry[]);
  if (!entries.some((e) => e.state === "waiting" && e.userId === userId)) return;
  const report = await flush(userId);
  if (report.retry) scheduleRetry(userId);
  else failures = 0;
  // Sent in the background (the person may be on any page): the phone says so.
  const sent = [...report.outcomes.values()].filter((o) => o.kind === "sent").length;
  if (sent) showToast({ title: `${sent} ${sent === 1 ? "delivery" : "deliveries"} sent` });
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
async function requestSync() {
  try {
    const registration = (await navigator.serviceWorker?.getRegistration()) as
      (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }) | undefined;
    await registration?.sync?.register(SYNC_TAG);
  } catch {
    // not supported or not allowed: the page's own triggers still send
  }
}

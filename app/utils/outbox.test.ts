import type { UseStore } from "idb-keyval";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  addEntry,
  ENTRY_MAX_AGE_MS,
  flush,
  getEntry,
  recordEntry,
  reload,
  SEND_TIMEOUT_MS,
  sendEntry,
  subscribe,
  TOO_OLD_MESSAGE,
  type OutboxEntry,
  type OutboxState,
} from "./outbox";
import { MAX_REPLACED_KEYS, OTHER_USER_MESSAGE, PASSWORD_CHANGE_MESSAGE } from "./outbox-protocol";

// The outbox's IndexedDB store, in memory: idb-keyval's own functions run on it. A transaction
// is written whole when its requests have run, or not at all when one failed (add() over a
// stored key); transactions run one after another, as readwrite ones on one store do.
const idb = vi.hoisted(() => ({ store: undefined as unknown as UseStore }));
vi.mock("idb-keyval", async (importOriginal) => ({
  ...(await importOriginal<typeof import("idb-keyval")>()),
  createStore: (): UseStore => (mode, callback) => idb.store(mode, callback),
}));

type FakeRequest = { result: unknown; error: unknown; onsuccess?: () => void; onerror?: () => void };

function memoryStore(): UseStore {
  let data = new Map<IDBValidKey, unknown>();
  let queue: Promise<unknown> = Promise.resolve();
  const transaction = <T>(callback: (store: IDBObjectStore) => T | PromiseLike<T>) =>
    new Promise<T>((resolve, reject) => {
      const staged = new Map(data);
      const tx: { error: unknown; oncomplete?: () => void; onabort?: () => void } = { error: null };
      let failed = false;
      const request = (run: () => unknown) => {
        const req: FakeRequest = { result: undefined, error: null };
        queueMicrotask(() => {
          try {
            req.result = run();
            req.onsuccess?.call(req);
          } catch (error) {
            failed = true;
            req.error = tx.error = error;
            req.onerror?.call(req);
          }
        });
        return req;
      };
      const store = {
        transaction: tx,
        get: (key: IDBValidKey) => request(() => staged.get(key)),
        getAll: () => request(() => [...staged.values()]),
        put: (value: unknown, key: IDBValidKey) => request(() => staged.set(key, structuredClone(value)) && key),
        add: (value: unknown, key: IDBValidKey) =>
          request(() => {
            if (staged.has(key)) throw new DOMException("Key already exists in the object store.", "ConstraintError");
            staged.set(key, structuredClone(value));
            return key;
          }),
        delete: (key: IDBValidKey) => request(() => void staged.delete(key)),
      };
      let result: Promise<T>;
      try {
        result = Promise.resolve(callback(store as unknown as IDBObjectStore));
      } catch (error) {
        reject(error);
        return;
      }
      result.catch(() => undefined); // settled below, once the transaction has ended
      // (setImmediate: the tests that fake timers fake setTimeout only.)
      setImmediate(() => {
        if (failed) tx.onabort?.();
        else {
          data = staged;
          tx.oncomplete?.();
        }
        result.then(resolve, reject);
      });
    });
  return (_mode, callback) => {
    const next = queue.then(() => transaction(callback));
    queue = next.catch(() => undefined);
    return next;
  };
}

const entry: OutboxEntry = {
  key: "k-1",
  userId: "u-1",
  createdAt: 1,
  fields: { agentId: "3", tons: "12.50", location: "Yard", date: "2026-11-22" },
  state: "waiting",
  attempts: 0,
};

/** A fresh entry, made now. */
const waiting = (key: string, fields: Record<string, string> = {}): OutboxEntry => ({
  ...entry,
  key,
  createdAt: Date.now(),
  fields: { ...entry.fields, ...fields },
});

function answer(status: number, body?: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body === undefined ? "" : JSON.stringify(body), { status })),
  );
}

/** Each send's key and location, answered in turn by `statuses` (the last repeats). */
function answers(...statuses: [number, unknown][]) {
  const sent: { key: string; location: string; user: string; replaces?: string }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      sent.push({
        key: headers["Idempotency-Key"],
        location: JSON.parse(init.body as string).location,
        user: headers["X-Outbox-User"],
        replaces: headers["X-Replaces-Key"],
      });
      const [status, body] = statuses[Math.min(sent.length, statuses.length) - 1];
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return sent;
}

const stored = async () => Object.fromEntries((await reload()).map((e) => [e.key, e]));

beforeEach(() => {
  idb.store = memoryStore();
  vi.stubGlobal("navigator", {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** AbortSignal.timeout on fake timers, which the test runs forward (setTimeout only: see memoryStore). */
function fakeTimeouts() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  vi.spyOn(AbortSignal, "timeout").mockImplementation((ms) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), ms);
    return controller.signal;
  });
}

describe("sendEntry: what the server's answer means for an outbox entry", () => {
  it("sends the fields as JSON under the entry's key, saying whose entry it is", async () => {
    answer(201, { id: 9, tons: "12.50" });
    await sendEntry(entry);
    const [url, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/deliveries");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["Idempotency-Key"]).toBe("k-1");
    expect((init.headers as Record<string, string>)["X-Outbox-User"]).toBe("u-1");
    expect(JSON.parse(init.body as string)).toEqual(entry.fields);
  });

  it("sends a loading ticket's boxes, its photo among them, as `loadingTicket` (decision 1220)", async () => {
    answer(201, { id: 10, tons: "30.550" });
    const photo = "data:image/jpeg;base64,/9j/4AAQ";
    const fields = { ...entry.fields, tons: "", "loadingTicket.ticketNo": "T-1", "loadingTicket.photo": photo };
    expect(await sendEntry({ ...entry, fields })).toEqual({ kind: "sent", tons: "30.550" });
    const [, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({
      ...entry.fields,
      tons: "",
      loadingTicket: { ticketNo: "T-1", photo },
    });
  });

  it("a 200 that is not a delivery (a page in front of the app) keeps the entry, and redirects are not followed", async () => {
    answer(200, { items: [] });
    expect(await sendEntry(entry)).toEqual({ kind: "retry" });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>Maintenance</html>", { status: 200 })),
    );
    expect(await sendEntry(entry)).toEqual({ kind: "retry" });
    const [, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(init.redirect).toBe("error");
  });

  it.each([201, 200])("%i (recorded, or the first result replayed) lets the entry go", async (status) => {
    answer(status, { id: 9, tons: "12.50" });
    expect(await sendEntry(entry)).toEqual({ kind: "sent", tons: "12.50" });
  });

  it("400 needs attention, with the server's message and field errors", async () => {
    answer(400, { message: "Agent not found", errors: { agentId: ["Agent not found"] } });
    expect(await sendEntry(entry)).toEqual({
      kind: "attention",
      status: 400,
      message: "Agent not found",
      fieldErrors: { agentId: ["Agent not found"] },
    });
  });

  it("409 (a closed month, a key used for something else) needs attention and says why", async () => {
    answer(409, { message: "November 2026 is closed" });
    expect(await sendEntry(entry)).toMatchObject({
      kind: "attention",
      status: 409,
      message: "November 2026 is closed",
    });
  });

  it.each([405, 410, 413, 415])(
    "%i (any other refusal) needs attention rather than blocking the queue",
    async (status) => {
      answer(status, { message: "Refused" });
      expect(await sendEntry(entry)).toMatchObject({ kind: "attention", status });
    },
  );

  it("403 for anything but a password to change needs attention", async () => {
    answer(403, { message: "You do not have permission to do this" });
    expect(await sendEntry(entry)).toMatchObject({ kind: "attention", status: 403 });
  });

  it("401 keeps it and asks for sign-in", async () => {
    answer(401, { message: "Not signed in" });
    expect(await sendEntry(entry)).toEqual({ kind: "signin", reason: "signed-out" });
  });

  it("401 because someone else is signed in keeps it for its own person, as any 401", async () => {
    answer(401, { message: OTHER_USER_MESSAGE });
    expect(await sendEntry(entry)).toEqual({ kind: "signin", reason: "signed-out" });
  });

  it("403 while the password must change keeps it, as a 401 does", async () => {
    answer(403, { message: PASSWORD_CHANGE_MESSAGE });
    expect(await sendEntry(entry)).toEqual({ kind: "signin", reason: "password" });
  });

  it.each([408, 429, 500, 502, 503, 504])("%i keeps it for a later try", async (status) => {
    answer(status, { message: "Service unavailable" });
    expect(await sendEntry(entry)).toEqual({ kind: "retry" });
  });

  it("a proxy's HTML page keeps it for a later try", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response("<html>Bad gateway</html>", { status: 502 })),
    );
    expect(await sendEntry(entry)).toEqual({ kind: "retry" });
  });

  it("no network keeps it for a later try", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    expect(await sendEntry(entry)).toEqual({ kind: "retry" });
  });

  it("gives up after 8 s with no answer (a radio that says connected and carries nothing), as with no network", async () => {
    expect(SEND_TIMEOUT_MS).toBe(8_000);
    fakeTimeouts();
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal!.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
          ),
      ),
    );
    let outcome: unknown = null;
    const sending = sendEntry(entry).then((o) => (outcome = o));
    await vi.advanceTimersByTimeAsync(SEND_TIMEOUT_MS - 1);
    expect(outcome).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await sending;
    expect(outcome).toEqual({ kind: "retry" });
  });
});

describe("the outbox on the phone", () => {
  it("never overwrites a stored entry: a second delivery under the same key is refused", async () => {
    await addEntry(waiting("k-same", { location: "A" }));
    await expect(addEntry(waiting("k-same", { location: "B" }))).rejects.toMatchObject({ name: "ConstraintError" });
    expect((await getEntry("k-same"))?.fields.location).toBe("A");
  });

  it("a correction never replaces another entry under its new key", async () => {
    await addEntry(waiting("k-waiting", { location: "A" }));
    await addEntry({ ...waiting("k-old", { location: "B" }), state: "attention", message: "Agent not found" });
    await expect(addEntry(waiting("k-waiting", { location: "B fixed" }), "k-old")).rejects.toMatchObject({
      name: "ConstraintError",
    });
    // Nothing of the refused transaction was written: the entry it would have replaced is there too.
    const entries = await stored();
    expect(entries["k-waiting"].fields.location).toBe("A");
    expect(entries["k-old"].fields.location).toBe("B");
  });

  it("one tab's confirmed send removes its own entry only", async () => {
    answers([503, {}]);
    await recordEntry(waiting("k-tab-1", { location: "A" }));
    await recordEntry(waiting("k-tab-2", { location: "B" }));
    const recorded = answers([201, { id: 1, tons: "12.50" }], [503, {}]);
    await flush("u-1");
    expect(recorded.map((s) => s.location)).toEqual(["A", "B"]);
    expect(Object.keys(await stored())).toEqual(["k-tab-2"]);
  });

  it("a send that never answers keeps the entry waiting and lets the next round go", async () => {
    await addEntry(waiting("k-slow"));
    fakeTimeouts();
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_r, reject) => init.signal!.addEventListener("abort", reject)),
      ),
    );
    const round = flush("u-1");
    while (!vi.mocked(fetch).mock.calls.length) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(SEND_TIMEOUT_MS - 1);
    const [, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(init.signal!.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(init.signal!.aborted).toBe(true);
    const report = await round;
    expect(report.retry).toBe(true);
    expect(report.outcomes.get("k-slow")).toEqual({ kind: "retry" });
    expect((await getEntry("k-slow"))?.state).toBe("waiting");
  });

  it("a 403 asking for a new password keeps every entry waiting and asks the person to finish signing in", async () => {
    await addEntry(waiting("k-pw-1"));
    await addEntry(waiting("k-pw-2"));
    let seen: OutboxState | undefined;
    const stop = subscribe((s) => (seen = s));
    answers([403, { message: PASSWORD_CHANGE_MESSAGE }]);
    await flush("u-1");
    stop();
    const entries = await stored();
    expect(entries["k-pw-1"].state).toBe("waiting");
    expect(entries["k-pw-2"].state).toBe("waiting");
    expect(seen).toMatchObject({ signInNeeded: "password" });
  });

  it("a fresh delivery the server refuses leaves the phone: the open form shows why", async () => {
    answers([400, { message: "Agent not found" }]);
    const report = await recordEntry(waiting("k-fresh"));
    expect(report.outcome).toMatchObject({ kind: "attention", message: "Agent not found" });
    expect(await stored()).toEqual({});
  });

  it("a correction refused again stays on the phone, back in needs attention with the new message", async () => {
    await addEntry({ ...waiting("k-old", { agentId: "9" }), state: "attention", message: "Agent not found" });
    let onPhone: string[] = [];
    const sent = answers([409, { message: "November 2026 is closed" }]);
    vi.mocked(fetch).mockImplementationOnce(async () => {
      onPhone = Object.keys(await stored());
      return new Response(JSON.stringify({ message: "November 2026 is closed" }), { status: 409 });
    });
    const report = await recordEntry(waiting("k-new", { agentId: "3" }), "k-old");
    // While it was being sent the delivery was on the phone, under its new key only.
    expect(onPhone).toEqual(["k-new"]);
    expect(sent).toHaveLength(0);
    expect(report.outcome).toMatchObject({ kind: "attention", status: 409 });
    const entries = await stored();
    expect(Object.keys(entries)).toEqual(["k-new"]);
    expect(entries["k-new"]).toMatchObject({
      state: "attention",
      message: "November 2026 is closed",
      fields: { agentId: "3" },
    });
  });

  it("a correction goes once the server records it, and nothing of it is left", async () => {
    await addEntry({ ...waiting("k-old"), state: "attention", message: "Agent not found" });
    answers([201, { id: 1, tons: "12.50" }]);
    const report = await recordEntry(waiting("k-new"), "k-old");
    expect(report.outcome).toEqual({ kind: "sent", tons: "12.50" });
    expect(await stored()).toEqual({});
  });

  it("a correction names the entries it replaces, back along its chain, in every send", async () => {
    await addEntry({
      ...waiting("k-old", { location: "Second try" }),
      state: "attention",
      message: "Agent not found",
      replaces: ["k-first"],
    });
    const sent = answers([503, {}]);
    await recordEntry(waiting("k-new", { location: "Third try" }), "k-old");
    expect((await getEntry("k-new"))?.replaces).toEqual(["k-old", "k-first"]);
    const resent = answers([201, { id: 1, tons: "12.50" }]);
    await flush("u-1");
    // The correction carries the chain each time it is sent; a fresh entry carries none.
    const later = answers([201, { id: 2, tons: "12.50" }]);
    await recordEntry(waiting("k-fresh", { location: "Fresh" }));
    expect([...sent, ...resent].map((s) => [s.key, s.replaces])).toEqual([
      ["k-new", "k-old,k-first"],
      ["k-new", "k-old,k-first"],
    ]);
    expect(later.map((s) => [s.key, s.replaces])).toEqual([["k-fresh", undefined]]);
  });

  it("a long chain of corrections names its newest keys, as many as the server reads", async () => {
    const chain = Array.from({ length: MAX_REPLACED_KEYS }, (_, i) => `k-${i}`);
    await addEntry({ ...waiting("k-old"), state: "attention", message: "Agent not found", replaces: chain });
    answers([503, {}]);
    await recordEntry(waiting("k-new"), "k-old");
    expect((await getEntry("k-new"))?.replaces).toEqual(["k-old", ...chain.slice(0, MAX_REPLACED_KEYS - 1)]);
  });

  it("a correction keeps the age of the entry it corrects: after 80 days it is not sent blind", async () => {
    const day = 24 * 60 * 60 * 1000;
    await addEntry({ ...waiting("k-old"), createdAt: Date.now() - 81 * day, state: "attention", message: "413" });
    const sent = answers([201, { id: 1, tons: "12.50" }]);
    const report = await recordEntry(waiting("k-new"), "k-old");
    expect(sent).toEqual([]);
    expect(report.outcome).toMatchObject({ kind: "attention", message: TOO_OLD_MESSAGE });
    expect(Date.now() - (await getEntry("k-new"))!.createdAt).toBeGreaterThan(80 * day);
  });

  it("a correction of an entry gone meanwhile (sent from another tab) still names it", async () => {
    const sent = answers([409, { message: "An earlier send of this delivery was recorded after all" }]);
    const report = await recordEntry(waiting("k-new"), "k-gone");
    expect(sent.map((s) => s.replaces)).toEqual(["k-gone"]);
    expect(report.outcome).toMatchObject({ kind: "attention", status: 409 });
  });

  it("a correction kept for later replaces the refused entry", async () => {
    await addEntry(waiting("k-a"), "k-none");
    await addEntry({ ...waiting("k-old"), state: "attention", message: "Agent not found" });
    answers([503, {}]);
    await recordEntry(waiting("k-new"), "k-old");
    expect(Object.keys(await stored()).sort()).toEqual(["k-a", "k-new"]);
  });

  it("after 80 days an entry is not sent blind: it needs attention and asks for the Deliveries list to be checked", async () => {
    expect(ENTRY_MAX_AGE_MS).toBe(80 * 24 * 60 * 60 * 1000);
    const now = Date.UTC(2027, 0, 1);
    const day = 24 * 60 * 60 * 1000;
    await addEntry({ ...waiting("k-old"), createdAt: now - 81 * day });
    await addEntry({ ...waiting("k-recent"), createdAt: now - 79 * day });
    const sent = answers([201, { id: 1, tons: "12.50" }]);
    await flush("u-1", { now });
    expect(sent.map((s) => s.key)).toEqual(["k-recent"]);
    expect(await stored()).toEqual({
      "k-old": expect.objectContaining({ state: "attention", message: TOO_OLD_MESSAGE }),
    });
    expect(TOO_OLD_MESSAGE).toContain("check the Deliveries list");
  });

  it("sends only the signed-in person's entries, each naming its person", async () => {
    await addEntry(waiting("k-mine"));
    await addEntry({ ...waiting("k-theirs"), userId: "u-2" });
    const sent = answers([201, { id: 1, tons: "1" }]);
    await flush("u-1");
    expect(sent).toEqual([{ key: "k-mine", location: "Yard", user: "u-1" }]);
    expect(Object.keys(await stored())).toEqual(["k-theirs"]);
  });
});

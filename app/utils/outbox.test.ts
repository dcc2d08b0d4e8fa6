import { afterEach, describe, expect, it, vi } from "vitest";
import { sendEntry, type OutboxEntry } from "./outbox";

const entry: OutboxEntry = {
  key: "k-1",
  userId: "u-1",
  createdAt: 1,
  fields: { agentId: "3", tons: "12.50", location: "Yard", date: "2026-11-22" },
  state: "waiting",
  attempts: 0,
};

function answer(status: number, body?: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(body === undefined ? "" : JSON.stringify(body), { status })),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("sendEntry: what the server's answer means for an outbox entry", () => {
  it("sends the fields as JSON under the entry's key", async () => {
    answer(201, { id: 9, tons: "12.50" });
    await sendEntry(entry);
    const [url, init] = vi.mocked(fetch).mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/deliveries");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["Idempotency-Key"]).toBe("k-1");
    expect(JSON.parse(init.body as string)).toEqual(entry.fields);
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

  it("401 keeps it and asks for sign-in", async () => {
    answer(401, { message: "Unauthorized" });
    expect(await sendEntry(entry)).toEqual({ kind: "signin" });
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
});

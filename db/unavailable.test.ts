import { describe, expect, it } from "vitest";
import {
  admissionDeadline,
  causeChain,
  ConnectionGate,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  unavailableReason,
} from "./unavailable";

describe("unavailableReason", () => {
  it("knows connection failures, shutdowns and timeouts, through drizzle's cause chain", () => {
    expect(unavailableReason(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }))).toBe("unreachable");
    expect(unavailableReason(Object.assign(new Error("gone"), { code: "CONNECTION_CLOSED" }))).toBe("unreachable");
    expect(unavailableReason(Object.assign(new Error("terminating"), { code: "57P01" }))).toBe("unreachable");
    expect(unavailableReason(Object.assign(new Error("lost"), { code: "08006" }))).toBe("unreachable");
    const timeout = Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" });
    expect(unavailableReason(new Error("Failed query: select 1", { cause: timeout }))).toBe("timeout");
    expect(unavailableReason(Object.assign(new Error("lock"), { code: "55P03" }))).toBe("timeout");
    expect(unavailableReason(new DatabaseUnavailableError("pool", "full"))).toBe("pool");
    expect(unavailableReason(new Error("PGlite is closed"))).toBe("unreachable");
    const changed = { code: "0A000", routine: "RevalidateCachedQuery" };
    const cachedPlan = Object.assign(new Error("cached plan must not change result type"), changed);
    expect(unavailableReason(new Error("Failed query", { cause: cachedPlan }))).toBe("timeout");
  });

  it("leaves real failures alone: constraint violations, bugs, thrown responses", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(new Response("Not found", { status: 404 }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    // feature_not_supported for any other reason is a real failure.
    expect(
      isDatabaseUnavailable(Object.assign(new Error("no"), { code: "0A000", routine: "transformSelectStmt" })),
    ).toBe(false);
  });
});

describe("causeChain", () => {
  it("walks error, cause, cause's cause: objects only, at most 8, so a cycle ends", () => {
    const inner = Object.assign(new Error("lock"), { code: "55P03" });
    const outer = new Error("Failed query", { cause: inner });
    expect([...causeChain(outer)]).toEqual([outer, inner]);
    expect([...causeChain(new Error("wrapped", { cause: "a string" }))]).toHaveLength(1);
    for (const nothing of [null, undefined, "text", 42]) expect([...causeChain(nothing)]).toEqual([]);
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect([...causeChain(loop)]).toHaveLength(8);
  });
});

describe("ConnectionGate", () => {
  it("lets `size` callers in at once and the next in order as each leaves", async () => {
    const gate = new ConnectionGate(2, 10_000);
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = gate.run(() => new Promise<void>((r) => (releaseFirst = r)).then(() => order.push("first")));
    const second = gate.run(async () => order.push("second"));
    await second;
    const third = gate.run(async () => order.push("third"));
    const fourth = gate.run(async () => order.push("fourth"));
    await Promise.all([third, fourth]);
    releaseFirst();
    await first;
    expect(order).toEqual(["second", "third", "fourth", "first"]);
    expect(gate.busy).toBe(0);
  });

  it("refuses a caller that waited too long, and never runs its work later", async () => {
    const gate = new ConnectionGate(1, 20);
    let release!: () => void;
    const holder = gate.run(() => new Promise<void>((r) => (release = r)));
    let ran = false;
    const waiter = gate.run(async () => {
      ran = true;
    });
    await expect(waiter).rejects.toMatchObject({ name: "DatabaseUnavailableError", reason: "pool" });
    release();
    await holder;
    await gate.run(async () => undefined);
    expect(ran).toBe(false);
    expect(gate.queued).toBe(0);
  });

  it("frees the slot when the work fails", async () => {
    const gate = new ConnectionGate(1, 1_000);
    await expect(gate.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(gate.run(async () => "ok")).resolves.toBe("ok");
  });
});

describe("admissionDeadline", () => {
  it("shares one wait budget between the queries of a request", async () => {
    const gate = new ConnectionGate(1, 10_000);
    let release!: () => void;
    const holder = gate.run(() => new Promise<void>((r) => (release = r)));
    // The request's budget is already spent: it is refused at once, not after 10 s.
    const refused = admissionDeadline.run(Date.now() - 1, () => gate.run(async () => "ran"));
    await expect(refused).rejects.toMatchObject({ reason: "pool" });
    release();
    await holder;
  });
});

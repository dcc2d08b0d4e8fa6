import { describe, expect, it, vi } from "vitest";
import { createDrain, drainTimeoutFromEnv, healthRoutes, retryAfterOn503 } from "./operations.js";

function fakeResponse() {
  const res = {
    statusCode: 200,
    headers: {},
    body: undefined,
    status(code) {
      res.statusCode = code;
      return res;
    },
    set(name, value) {
      if (typeof name === "object") Object.assign(res.headers, name);
      else res.headers[name] = value;
      return res;
    },
    json(body) {
      res.body = body;
      return res;
    },
  };
  return res;
}

async function ask(handler, path, method = "GET") {
  const res = fakeResponse();
  let passed = false;
  await handler({ path, method }, res, () => {
    passed = true;
  });
  return { res, passed };
}

describe("healthRoutes", () => {
  it("answers /healthz without asking the database, and /readyz from the database", async () => {
    const checkDatabase = vi.fn(async () => true);
    const handler = healthRoutes({ isDraining: () => false, checkDatabase });
    expect((await ask(handler, "/healthz")).res.statusCode).toBe(200);
    expect(checkDatabase).not.toHaveBeenCalled();
    const ready = await ask(handler, "/readyz");
    expect(ready.res.statusCode).toBe(200);
    expect(ready.res.body).toEqual({ status: "ready" });
    expect((await ask(handler, "/login")).passed).toBe(true);
  });

  it("says 503 with Retry-After when the database is down or the server drains", async () => {
    const down = healthRoutes({ isDraining: () => false, checkDatabase: async () => false });
    const r1 = await ask(down, "/readyz");
    expect(r1.res.statusCode).toBe(503);
    expect(r1.res.headers["Retry-After"]).toBe("5");
    const throws = healthRoutes({ isDraining: () => false, checkDatabase: async () => Promise.reject(new Error("x")) });
    expect((await ask(throws, "/readyz")).res.statusCode).toBe(503);
    const draining = healthRoutes({ isDraining: () => true, checkDatabase: async () => true });
    const r2 = await ask(draining, "/readyz");
    expect(r2.res.statusCode).toBe(503);
    expect(r2.res.body).toEqual({ status: "draining" });
    expect((await ask(draining, "/healthz")).res.statusCode).toBe(200);
  });
});

describe("retryAfterOn503", () => {
  it("adds Retry-After to a 503 that has none", () => {
    const headers = {};
    const written = [];
    const res = {
      getHeader: (n) => headers[n],
      setHeader: (n, v) => (headers[n] = v),
      writeHead: (code) => written.push(code),
    };
    retryAfterOn503()({}, res, () => {});
    res.writeHead(503);
    expect(headers["Retry-After"]).toBe("5");
    res.writeHead(200);
    expect(written).toEqual([503, 200]);
  });
});

describe("createDrain", () => {
  it("turns draining at once, waits for the server to close, closes the database last, exits 0", async () => {
    const order = [];
    let closeServer;
    const server = {
      close: (done) => {
        order.push("listener closed");
        closeServer = done;
      },
      closeIdleConnections: () => {},
      closeAllConnections: () => order.push("cut"),
    };
    const exited = new Promise((resolve) => {
      const drain = createDrain({
        server,
        closeDatabase: async () => order.push("database closed"),
        timeoutMs: 10_000,
        log: () => {},
        exit: (code) => resolve(code),
      });
      drain.drain("SIGTERM");
      expect(drain.isDraining()).toBe(true);
      order.push("requests finished");
      closeServer();
    });
    expect(await exited).toBe(0);
    expect(order).toEqual(["listener closed", "requests finished", "database closed"]);
  });

  it("cuts what is left after the timeout and exits 1", async () => {
    const cut = vi.fn();
    const code = await new Promise((resolve) => {
      createDrain({
        server: { close: () => {}, closeIdleConnections: () => {}, closeAllConnections: cut },
        closeDatabase: async () => {},
        timeoutMs: 10,
        log: () => {},
        exit: resolve,
      }).drain("SIGINT");
    });
    expect(code).toBe(1);
    expect(cut).toHaveBeenCalled();
  });

  it("reads DRAIN_TIMEOUT_MS", () => {
    expect(drainTimeoutFromEnv({ DRAIN_TIMEOUT_MS: "5000" })).toBe(5000);
    expect(drainTimeoutFromEnv({})).toBe(20_000);
  });
});

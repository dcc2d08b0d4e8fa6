/* global fetch */
import express from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import { logServerError, setLoggerDestination } from "../app/utils/logger.server";
import {
  createDrain,
  drainDelayFromEnv,
  drainTimeoutFromEnv,
  healthRoutes,
  keepAliveFromEnv,
  lastErrorHandler,
  retryAfterOn503,
} from "./operations.js";

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

  it("keeps accepting for the drain delay while draining, then closes the listener", async () => {
    const order = [];
    let endDelay;
    const server = {
      close: (done) => {
        order.push("listener closed");
        done();
      },
      closeIdleConnections: () => {},
      closeAllConnections: () => {},
    };
    const drain = createDrain({
      server,
      closeDatabase: async () => order.push("database closed"),
      delayMs: 5_000,
      wait: (ms) => {
        order.push(`waiting ${ms} ms`);
        return new Promise((resolve) => (endDelay = resolve));
      },
      log: () => {},
      exit: (code) => order.push(`exit ${code}`),
    });
    const drained = drain.drain("SIGTERM");
    // Draining (so /readyz says 503) at once, the listener still open.
    expect(drain.isDraining()).toBe(true);
    expect(order).toEqual(["waiting 5000 ms"]);
    endDelay();
    await drained;
    expect(order).toEqual(["waiting 5000 ms", "listener closed", "database closed", "exit 0"]);
  });

  it("reads DRAIN_DELAY_MS: 5 s in production unless set, none elsewhere", () => {
    expect(drainDelayFromEnv({ NODE_ENV: "production" })).toBe(5_000);
    expect(drainDelayFromEnv({ NODE_ENV: "production", DRAIN_DELAY_MS: "0" })).toBe(0);
    expect(drainDelayFromEnv({ NODE_ENV: "production", DRAIN_DELAY_MS: "12000" })).toBe(12_000);
    expect(drainDelayFromEnv({ NODE_ENV: "production", DRAIN_DELAY_MS: "soon" })).toBe(5_000);
    expect(drainDelayFromEnv({ NODE_ENV: "test" })).toBe(0);
    expect(drainDelayFromEnv({})).toBe(0);
  });

  it("reads DRAIN_TIMEOUT_MS", () => {
    expect(drainTimeoutFromEnv({ DRAIN_TIMEOUT_MS: "5000" })).toBe(5000);
    expect(drainTimeoutFromEnv({})).toBe(20_000);
  });
});

describe("lastErrorHandler", () => {
  afterEach(() => {
    setLoggerDestination(undefined);
    vi.restoreAllMocks();
  });

  /** An Express app whose one route fails as a driver does, with the error handlers of server.js. */
  async function failingApp(failure) {
    const app = express();
    app.get("/boom", () => {
      throw failure;
    });
    app.use(lastErrorHandler({ log: (error, req, status) => logServerError(error, req, status) }));
    const server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
  }

  it("logs an error that reached Express as one scrubbed JSON line, and answers without detail", async () => {
    const lines = [];
    setLoggerDestination({ write: (line) => lines.push(line) }, "info");
    const consoleError = vi.spyOn(console, "error");
    const app = await failingApp(
      new Error("Failed query: select * from users where id = $1\nparams: 7,$2b$10$secrethashvalue"),
    );
    try {
      const response = await fetch(`${app.url}/boom`);
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ message: "Unexpected Server Error" });
      expect(text).not.toContain("secrethash");
    } finally {
      app.close();
    }
    expect(consoleError).not.toHaveBeenCalled();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", event: "error.server", status: 500, route: "/boom" });
    expect(lines[0]).not.toContain("secrethash");
  });

  it("keeps a client error's status, logged as a warning", async () => {
    const lines = [];
    setLoggerDestination({ write: (line) => lines.push(line) }, "info");
    const app = await failingApp(Object.assign(new Error("bad"), { status: 400 }));
    try {
      expect((await fetch(`${app.url}/boom`)).status).toBe(400);
    } finally {
      app.close();
    }
    expect(JSON.parse(lines[0])).toMatchObject({ level: "warn", status: 400 });
  });
});

describe("keepAliveFromEnv", () => {
  it("outlives a 60 s proxy idle timeout by default, with the headers timeout above it", () => {
    expect(keepAliveFromEnv({})).toEqual({ keepAliveTimeout: 65_000, headersTimeout: 66_000 });
  });
  it("takes KEEP_ALIVE_TIMEOUT_MS in whole milliseconds of at least a second", () => {
    expect(keepAliveFromEnv({ KEEP_ALIVE_TIMEOUT_MS: "125000" })).toEqual({
      keepAliveTimeout: 125_000,
      headersTimeout: 126_000,
    });
    for (const bad of ["", "abc", "-1", "999", "1.5e3x", "2500.5"])
      expect(keepAliveFromEnv({ KEEP_ALIVE_TIMEOUT_MS: bad }).keepAliveTimeout).toBe(65_000);
  });
});

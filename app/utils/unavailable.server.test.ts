import { afterEach, describe, expect, it, vi } from "vitest";
import { admissionDeadline, ConnectionGate, DatabaseUnavailableError } from "../../db/unavailable";
import { exportResponse, type CsvColumn } from "./csv.server";
import { streamJsonArray } from "./json-list.server";
import { setLoggerDestination } from "./logger.server";
import { guardHandler, guardRoutes, type UnavailableData } from "./unavailable.server";

const down = () => {
  throw Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
};

function form(path: string, fields: Record<string, string>) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

async function thrown(promise: unknown) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("guardHandler", () => {
  it("answers /api with a JSON 503 and Retry-After", async () => {
    const action = guardHandler(down, "action");
    const response = (await action({
      request: new Request("http://localhost/api/deliveries", { method: "POST", body: "{}" }),
      context: {},
      params: {},
    })) as Response;
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(await response.json()).toEqual({ message: expect.stringContaining("Idempotency-Key") });
  });

  it("throws a 503 page that keeps the typed values and the idempotency key, but no passwords", async () => {
    const action = guardHandler(async ({ request }) => {
      await request.formData();
      throw new DatabaseUnavailableError("timeout", "statement timeout");
    }, "action");
    const request = form("/deliveries/new", {
      tons: "12.50",
      location: "Kano",
      idempotencyKey: "k-1",
      password: "secret",
    });
    const error = (await thrown(action({ request, context: {}, params: {} }))) as Response;
    expect(error).toBeInstanceOf(Response);
    expect(error.status).toBe(503);
    expect(error.headers.get("Retry-After")).toBe("5");
    const data = (await error.json()) as UnavailableData;
    expect(data.values).toEqual({ tons: "12.50", location: "Kano", idempotencyKey: "k-1" });
    expect(data.omitted).toBe(true);
    expect(data.action).toBe("/deliveries/new");
  });

  it("lets the loaders of the same request carry the posted values", async () => {
    const context = {};
    const action = guardHandler(down, "action");
    const loader = guardHandler(down, "loader");
    await thrown(
      action({ request: form("/invoices/new?index", { deliveryId: "4", idempotencyKey: "k-2" }), context, params: {} }),
    );
    const error = (await thrown(
      loader({ request: new Request("http://localhost/invoices/new"), context, params: {} }),
    )) as Response;
    expect(((await error.json()) as UnavailableData).values).toEqual({ deliveryId: "4", idempotencyKey: "k-2" });
  });

  it("passes other errors and thrown responses through unchanged", async () => {
    const bug = new TypeError("bug");
    const loader = guardHandler(() => {
      throw bug;
    }, "loader");
    expect(await thrown(loader({ request: new Request("http://localhost/"), context: {}, params: {} }))).toBe(bug);
    const redirect = new Response(null, { status: 302, headers: { Location: "/login" } });
    const guarded = guardHandler(() => {
      throw redirect;
    }, "loader");
    expect(await thrown(guarded({ request: new Request("http://localhost/"), context: {}, params: {} }))).toBe(
      redirect,
    );
  });
});

describe("guardRoutes", () => {
  it("wraps loaders and actions and keeps every other export", async () => {
    const Component = () => null;
    const routes = { "routes/x": { id: "routes/x", module: { loader: down, default: Component } } };
    const guarded = guardRoutes(routes);
    expect(guarded["routes/x"].module.default).toBe(Component);
    expect(routes["routes/x"].module.loader).toBe(down);
    const error = (await thrown(
      (guarded["routes/x"].module.loader as (a: unknown) => unknown)({
        request: new Request("http://localhost/x"),
        context: {},
        params: {},
      }),
    )) as Response;
    expect(error.status).toBe(503);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const busyFor = (gate: ConnectionGate, ms: number) => gate.run(() => sleep(ms));

describe("streamed answers", () => {
  const columns: CsvColumn<{ i: number }>[] = [{ header: "I", kind: "number", value: (r) => r.i }];
  /** Three batches, each read through the gate, as a keyset page is read through the pool. */
  async function* gated(gate: ConnectionGate) {
    for (let i = 0; i < 3; i++) yield await gate.run(async () => [{ i }]);
  }

  // A stream's pulls run in the async context of the request that made it: the first pull starts
  // when the body is made, and each next one is scheduled from the previous one while the client
  // keeps reading. By the time a later batch is read, the request's wait budget is spent.
  it("gives each later batch of a JSON list its own wait for a busy connection", async () => {
    const gate = new ConnectionGate(1, 1_000);
    const text = await admissionDeadline.run(Date.now() + 20, async () => {
      const response = await streamJsonArray(gated(gate));
      await sleep(40);
      const other = busyFor(gate, 50);
      const body = await response.text();
      await other;
      return body;
    });
    expect(JSON.parse(text)).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });

  it("gives each later batch of a CSV export its own wait for a busy connection", async () => {
    const gate = new ConnectionGate(1, 1_000);
    const text = await admissionDeadline.run(Date.now() + 20, async () => {
      const response = await exportResponse({ filename: "x.csv", columns, batches: gated(gate) });
      await sleep(40);
      const other = busyFor(gate, 50);
      const body = await response.text();
      await other;
      return body;
    });
    expect(text.replace(/^\uFEFF/, "")).toBe("I\r\n0\r\n1\r\n2\r\n");
  });

  it("answers 503 with Retry-After, not a broken 200, when the first batch cannot be read", async () => {
    const gate = new ConnectionGate(1, 20);
    const held = busyFor(gate, 300);
    const api = guardHandler(() => streamJsonArray(gated(gate)), "loader");
    const response = (await api({
      request: new Request("http://localhost/api/deliveries"),
      context: {},
      params: {},
    })) as Response;
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");

    const page = guardHandler(() => exportResponse({ filename: "x.csv", columns, batches: gated(gate) }), "loader");
    const error = (await thrown(
      page({ request: new Request("http://localhost/deliveries/export"), context: {}, params: {} }),
    )) as Response;
    expect(error.status).toBe(503);
    expect(error.headers.get("Retry-After")).toBe("5");
    await held;
  });

  it("still breaks the body off when a later batch fails", async () => {
    async function* failing() {
      yield [{ i: 0 }];
      throw new DatabaseUnavailableError("timeout", "statement timeout");
    }
    const response = await streamJsonArray(failing());
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow("statement timeout");
  });
});

describe("the outage log", () => {
  afterEach(() => {
    setLoggerDestination(undefined);
    vi.restoreAllMocks();
  });

  it("is one JSON line without the failed query's parameters", async () => {
    const lines: string[] = [];
    setLoggerDestination({ write: (line) => lines.push(line) }, "warn");
    // One line per 5 s at most: step past whatever the tests above logged.
    vi.spyOn(Date, "now").mockReturnValue(Date.now() + 3_600_000);
    const failed = new Error(
      "Failed query: select * from sessions where id = $1\nparams: 0f1e2d3c-session-secret,$2b$10$hashhashhash",
      { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) },
    );
    const loader = guardHandler(() => {
      throw failed;
    }, "loader");
    const response = (await loader({
      request: new Request("http://localhost/api/deliveries"),
      context: {},
      params: {},
    })) as Response;
    expect(response.status).toBe(503);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: "warn",
      event: "db.unavailable",
      reason: "unreachable",
      route: "/api/deliveries",
    });
    expect(lines[0]).not.toContain("session-secret");
    expect(lines[0]).not.toContain("hashhash");
  });
});

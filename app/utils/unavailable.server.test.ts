import { describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../../db/unavailable";
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

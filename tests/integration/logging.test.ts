// Logs (decision 0600): one JSON line per event, sign-in decisions and 403s logged, unexpected
// errors logged under an id, and never a password, code, secret, session id or cookie.
import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from "@remix-run/router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { handleError, LEGACY_DATA_WARNING } from "../../app/entry.server";
import * as apiLogin from "../../app/routes/api.auth.password.login";
import * as apiDelivery from "../../app/routes/api.deliveries.$id";
import * as apiPayments from "../../app/routes/api.payments";
import { setLoggerDestination } from "../../app/utils/logger.server";
import { guardHandler } from "../../app/utils/unavailable.server";
import { createAgent, createDelivery, createUser, loginAs } from "../factories";
import { call, makeRequest } from "../http";

const require = createRequire(import.meta.url);
const lines: string[] = [];
const events = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(() => setLoggerDestination({ write: (line: string) => void lines.push(line) }));
afterAll(() => setLoggerDestination(undefined));

describe("structured logs", () => {
  it("log every sign-in decision without the password", async () => {
    const user = await createUser({ role: "staff", password: "log-test-secret-pass" });
    const login = (password: string) =>
      call(
        apiLogin.action,
        makeRequest("/api/auth/password/login", { method: "POST", json: { email: user.email, password } }),
        {},
        { clientAddress: "192.0.2.99" },
      );
    await login("wrong-pass-word-1");
    const ok = await login("log-test-secret-pass");
    for (let i = 0; i < 6; i++) await login("wrong-pass-word-2");
    const kinds = events().map((e) => e.event);
    expect(kinds).toContain("signin.failure");
    expect(kinds).toContain("signin.success");
    expect(kinds).toContain("signin.locked");
    for (const line of lines) expect(line.endsWith("\n") || !line.includes("\n")).toBe(true);
    const all = lines.join("");
    expect(all).not.toContain("log-test-secret-pass");
    expect(all).not.toContain("wrong-pass-word");
    const sid = ok.headers.get("Set-Cookie")!.split(";")[0].split("=")[1];
    expect(all).not.toContain(sid);
  });

  it("log a 403 with the user and route", async () => {
    const { user, cookie } = await loginAs("staff");
    const res = await call(apiPayments.loader, makeRequest("/api/payments", { cookie }));
    expect(res.status).toBe(403);
    expect(events().find((e) => e.event === "access.denied" && e.userId === user.id)).toMatchObject({
      route: "/api/payments",
      role: "staff",
    });
  });

  it("log a 403 a model decides (a manager changing tons) with the user, route and object", async () => {
    const { user, cookie } = await loginAs("manager");
    const agent = await createAgent({ name: `Log Agent ${user.id.slice(0, 6)}` });
    const d = await createDelivery({ agentId: agent.id, createdBy: user.id });
    const patch = guardHandler(apiDelivery.action as Parameters<typeof guardHandler>[0], "action");
    const request = makeRequest(`/api/deliveries/${d.id}`, { method: "PATCH", cookie, json: { tons: "12.00" } });
    const res = (await patch({ request, params: { id: String(d.id) }, context: {} })) as Response;
    expect(res.status).toBe(403);
    expect(events().find((e) => e.event === "access.denied" && e.userId === user.id)).toMatchObject({
      route: `/api/deliveries/${d.id}`,
      method: "PATCH",
      object: `delivery/${d.id}`,
      role: "manager",
    });
  });

  it("log an unexpected error under the request id, without the query's parameters", () => {
    const error = new Error(
      "Failed query: select * from sessions where sid = $1 and email = $2\nparams: SECRETSID123,boss@example.test",
    );
    (error as Error & { cause?: unknown }).cause = Object.assign(new Error("connection terminated"), { code: "57P01" });
    handleError(error, {
      request: new Request("http://localhost/invoices"),
      params: {},
      context: { requestId: "req-123" },
    });
    const logged = events().find((e) => e.event === "error.unexpected")!;
    expect(logged).toMatchObject({ errorId: "req-123", route: "/invoices", level: "error" });
    const line = lines.find((l) => l.includes("error.unexpected"))!;
    expect(line).not.toContain("SECRETSID123");
    expect(line).not.toContain("boss@example.test");
    expect(line).toContain("57P01");
  });

  it("leave the router's own 4xx answers out of the error log, and log a thrown non-Error readably", () => {
    const before = events().filter((e) => e.event === "error.unexpected").length;
    // What Remix hands handleError for a post to a page without an action.
    const notAllowed = new ErrorResponseImpl(
      405,
      "Method Not Allowed",
      new Error('You made a POST request to "/agents" but did not provide an `action` for route "routes/_app.agents"'),
      true,
    );
    handleError(notAllowed, {
      request: new Request("http://localhost/agents", { method: "POST" }),
      params: {},
      context: {},
    });
    expect(events().filter((e) => e.event === "error.unexpected").length).toBe(before);

    const failed = new ErrorResponseImpl(500, "Internal Server Error", new Error("a loader broke"), true);
    handleError(failed, {
      request: new Request("http://localhost/agents"),
      params: {},
      context: { requestId: "req-500" },
    });
    expect(events().find((e) => e.errorId === "req-500")).toMatchObject({ error: { message: "a loader broke" } });

    handleError(
      { code: "E_ODD", password: "hunter2-secret" },
      {
        request: new Request("http://localhost/agents"),
        params: {},
        context: { requestId: "req-object" },
      },
    );
    const logged = events().find((e) => e.errorId === "req-object") as { error: { message: string } };
    expect(logged.error.message).toBe("a thrown Object with keys: code, password");
    expect(lines.join("")).not.toContain("hunter2-secret");
  });

  it("log a request in Remix's old data protocol (?_data=) as a warning, not an error", async () => {
    // The wording this matches is Remix's own: if an upgrade changes it, this fails.
    const runtime = readFileSync(require.resolve("@remix-run/server-runtime/dist/server.js"), "utf8");
    expect(runtime).toContain(LEGACY_DATA_WARNING);
    const before = events().filter((e) => e.event === "error.unexpected").length;
    handleError(new Error(`${LEGACY_DATA_WARNING}, this is likely to break in the future`), {
      request: new Request("http://localhost/invoices?_data=root"),
      params: {},
      context: {},
    });
    expect(events().filter((e) => e.event === "error.unexpected").length).toBe(before);
    expect(events().at(-1)).toMatchObject({ event: "request.legacy-data", route: "/invoices", level: "warn" });
  });

  it("answer an unexpected /api error as JSON that shows the logged error id; pages keep their boundary", async () => {
    const failing = guardHandler(async () => {
      throw new Error("boom in a model");
    }, "loader");
    const res = (await failing({
      request: new Request("http://localhost/api/invoices"),
      params: {},
      context: { requestId: "req-api-500" },
    })) as Response;
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ errorId: "req-api-500", message: expect.any(String) });
    expect(events().find((e) => e.event === "error.unexpected" && e.errorId === "req-api-500")).toMatchObject({
      route: "/api/invoices",
    });
    await expect(
      failing({ request: new Request("http://localhost/invoices"), params: {}, context: { requestId: "req-page" } }),
    ).rejects.toThrow("boom in a model");
    const refused = guardHandler(async () => {
      throw Response.json({ message: "no" }, { status: 403 });
    }, "loader");
    await expect(
      refused({ request: new Request("http://localhost/api/invoices"), params: {}, context: {} }),
    ).rejects.toBeInstanceOf(Response);
  });

  it("remove secret-named fields whatever logs them", async () => {
    const { logEvent } = await import("../../app/utils/logger.server");
    logEvent("info", {
      event: "test.redact",
      password: "p4ss",
      nested: { token: "123456", cookie: "__session=abc", ok: 1 },
    });
    const line = lines.find((l) => l.includes("test.redact"))!;
    expect(line).not.toContain("p4ss");
    expect(line).not.toContain("123456");
    expect(line).not.toContain("__session=abc");
    expect(line).toContain('"ok":1');
  });
});

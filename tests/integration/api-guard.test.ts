// Every /api route that exists, found on disk: signed out it answers 401 (or 405 for a method
// it does not serve), never data; with a pending password change only the auth calls work.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loginAs } from "../factories";
import { call, makeRequest } from "../http";

const ROUTES_DIR = path.resolve("app/routes");
const apiRoutes = readdirSync(ROUTES_DIR).filter((f) => /^api\..*\.tsx?$/.test(f) && f !== "api.$.ts");
// Calls that must work signed out or half-way through a sign-in.
const PUBLIC = new Set([
  "api.auth.password.login.ts",
  "api.auth.password.logout.ts",
  "api.totp.verify-login.ts",
  "api.passkeys.authenticate.options.ts",
  "api.passkeys.authenticate.verify.ts",
]);
const PASSWORD_CHANGE_ALLOWED = new Set([...PUBLIC, "api.auth.user.ts", "api.auth.password.change.ts"]);

function urlFor(file: string) {
  return (
    "/" +
    file
      .replace(/\.tsx?$/, "")
      .split(".")
      .map((part) => (part.startsWith("$") ? "1" : part))
      .join("/")
  );
}

function paramsFor(file: string) {
  const params: Record<string, string> = {};
  for (const part of file.replace(/\.tsx?$/, "").split("."))
    if (part.startsWith("$") && part.length > 1) params[part.slice(1)] = "1";
  return params;
}

describe("every /api route checks the session", () => {
  it("finds the api routes", () => {
    expect(apiRoutes).toContain("api.auth.user.ts");
  });

  for (const file of apiRoutes) {
    it(`${file}: signed out never gets data; pending password change is refused`, async () => {
      const mod = await import(path.join(ROUTES_DIR, file));
      const { cookie } = await loginAs("admin", { mustChangePassword: true });
      for (const [handler, methods] of [
        [mod.loader, ["GET"]],
        [mod.action, ["POST", "PATCH", "DELETE"]],
      ] as const) {
        if (!handler) continue;
        for (const method of methods) {
          const body = method === "GET" ? {} : { json: {} };
          const signedOut = await call(handler, makeRequest(urlFor(file), { method, ...body }), paramsFor(file));
          if (!PUBLIC.has(file)) expect([401, 405], `${method} signed out`).toContain(signedOut.status);
          const pending = await call(handler, makeRequest(urlFor(file), { method, cookie, ...body }), paramsFor(file));
          if (!PASSWORD_CHANGE_ALLOWED.has(file))
            expect([403, 405], `${method} with pending password change`).toContain(pending.status);
        }
      }
    });
  }
});

// Table-driven role checks for route handlers: each case names who may call it; the test
// proves 401 signed out, 403 for every other role, and "not refused" for the allowed ones.
import { describe, expect, it } from "vitest";
import type { Role } from "../app/db.server";
import { loginAs } from "./factories";
import { call, makeRequest } from "./http";

export type AccessCase = {
  name: string;
  handler: ((args: never) => unknown) | undefined;
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  path: string;
  params?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  allowed: readonly Role[];
  /** For pages: signed-out users are redirected (302) rather than answered 401. */
  page?: boolean;
};

const ROLES: Role[] = ["staff", "manager", "admin"];

export function describeAccess(title: string, cases: AccessCase[]) {
  describe(title, () => {
    for (const c of cases) {
      it(`${c.name}: ${c.method} ${c.path} allows ${c.allowed.join(", ") || "nobody"}`, async () => {
        const request = (cookie?: string) =>
          makeRequest(c.path, { method: c.method, cookie, json: c.json, form: c.form, headers: {} });
        const handler = c.handler as Parameters<typeof call>[0];
        const signedOut = await call(handler, request(), c.params);
        expect(signedOut.status, "signed out").toBe(c.page ? 302 : 401);
        for (const role of ROLES) {
          const { cookie } = await loginAs(role);
          const result = await call(handler, request(cookie), c.params);
          if (c.allowed.includes(role)) {
            expect([401, 403], `${role} must be allowed`).not.toContain(result.status);
          } else {
            expect(result.status, `${role} must be refused`).toBe(403);
          }
        }
      });
    }
  });
}

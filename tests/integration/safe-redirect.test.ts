// After sign-in the app sends the user only to a path on this site.
import { describe, expect, it } from "vitest";
import * as loginPage from "../../app/routes/login";
import { safeRedirect } from "../../app/utils/redirect";
import { createUser } from "../factories";
import { call, makeRequest } from "../http";

// Each is what arrives in the form field (already URL-decoded once by the form parser).
const HOSTILE = [
  "//evil.example",
  "///evil.example",
  "////evil.example/path",
  "/\\evil.example",
  "\\\\evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/\u0000/evil.example",
  "/%09/evil.example",
  "/%2F/evil.example",
  "/%2f%2fevil.example",
  "/%5Cevil.example",
  "/%5c%5cevil.example",
  "/%252F%252Fevil.example",
  "https://evil.example",
  "http:evil.example",
  "javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  " //evil.example",
  "/.//evil.example",
  "/%E0%A4%A",
  "/\u007f/evil.example",
  "/\u0085/evil.example",
  "",
];

describe("redirect after sign-in", () => {
  it.each(HOSTILE)("sends %j to /", async (payload) => {
    expect(safeRedirect(payload)).toBe("/");
  });

  it("keeps ordinary paths with their query", () => {
    for (const ok of [
      "/invoices",
      "/invoices?status=paid&from=2026-01-01",
      "/deliveries/12/edit",
      "/settings#two-factor",
      "/reconciliation?month=2026-03",
    ]) {
      expect(safeRedirect(ok)).toBe(ok);
    }
  });

  it("the sign-in form itself answers Location: / for every hostile payload", async () => {
    const user = await createUser({ role: "manager" });
    for (const redirectTo of HOSTILE) {
      const res = await call(
        loginPage.action,
        makeRequest("/login", {
          method: "POST",
          form: { email: user.email, password: user.plainPassword, redirectTo },
        }),
      );
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get("Location"), JSON.stringify(redirectTo)).toBe("/");
    }
    const ok = await call(
      loginPage.action,
      makeRequest("/login", {
        method: "POST",
        form: { email: user.email, password: user.plainPassword, redirectTo: "/invoices?status=paid" },
      }),
    );
    expect(ok.headers.get("Location")).toBe("/invoices?status=paid");
  });
});

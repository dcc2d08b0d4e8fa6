import { describe, expect, it } from "vitest";
import {
  ALLOWED_METHODS,
  contentSecurityPolicy,
  isAllowedWrite,
  refuseUnknownMethods,
  securityHeaders,
} from "./security.js";

describe("response headers", () => {
  it("send HSTS for a year with subdomains when the origin is https, and never on http", () => {
    expect(securityHeaders("n", { appOrigin: "https://pks.example" })["Strict-Transport-Security"]).toBe(
      "max-age=31536000; includeSubDomains",
    );
    expect(securityHeaders("n", { appOrigin: "http://localhost:3000" })).not.toHaveProperty(
      "Strict-Transport-Security",
    );
  });
  it("default every response to Cache-Control: no-store", () => {
    expect(securityHeaders("n", { appOrigin: "" })["Cache-Control"]).toBe("no-store");
  });
});

const expectedOrigin = "https://pks.example";

describe("cross-site write check", () => {
  it("lets reads through and same-origin writes", () => {
    expect(isAllowedWrite({ method: "GET", origin: "https://evil.example", expectedOrigin })).toBe(true);
    expect(isAllowedWrite({ method: "POST", origin: expectedOrigin, expectedOrigin })).toBe(true);
    expect(isAllowedWrite({ method: "PATCH", secFetchSite: "same-origin", expectedOrigin })).toBe(true);
  });

  it("refuses writes from another origin, /api included", () => {
    expect(isAllowedWrite({ method: "POST", origin: "https://evil.example", expectedOrigin })).toBe(false);
    expect(isAllowedWrite({ method: "DELETE", origin: "null", expectedOrigin })).toBe(false);
    expect(isAllowedWrite({ method: "POST", secFetchSite: "cross-site", expectedOrigin })).toBe(false);
    expect(isAllowedWrite({ method: "POST", secFetchSite: "same-site", expectedOrigin })).toBe(false);
  });

  it("allows non-browser clients, which carry no victim's cookie", () => {
    expect(isAllowedWrite({ method: "POST", expectedOrigin })).toBe(true);
  });
});

describe("content security policy", () => {
  it("is nonce-based and forbids framing", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("ws:");
  });
});

describe("refuseUnknownMethods (decision 0004)", () => {
  const ask = (method) => {
    const res = {
      statusCode: 200,
      headers: {},
      body: undefined,
      status(code) {
        res.statusCode = code;
        return res;
      },
      set(name, value) {
        res.headers[name] = value;
        return res;
      },
      type() {
        return res;
      },
      send(body) {
        res.body = body;
        return res;
      },
    };
    let passed = false;
    refuseUnknownMethods()({ method }, res, () => (passed = true));
    return { res, passed };
  };

  it("answers TRACE, TRACK, CONNECT and unknown methods 405 with Allow, before the app", () => {
    for (const method of ["TRACE", "TRACK", "CONNECT", "PROPFIND"]) {
      const { res, passed } = ask(method);
      expect(passed).toBe(false);
      expect(res.statusCode).toBe(405);
      expect(res.headers.Allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    }
    for (const method of ALLOWED_METHODS) expect(ask(method).passed).toBe(true);
  });
});

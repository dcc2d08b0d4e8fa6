import { afterEach, describe, expect, it, vi } from "vitest";

describe("session cookie", () => {
  afterEach(() => {
    vi.resetModules();
    delete process.env.APP_ORIGIN;
  });

  it("is __Host-session (Secure, Path=/, no Domain) when the origin is https", async () => {
    process.env.APP_ORIGIN = "https://pks.example";
    const { resetEnv } = await import("./env.server");
    resetEnv();
    const { sessionCookie } = await import("./cookies.server");
    const header = await sessionCookie().serialize("abc");
    expect(header).toMatch(/^__Host-session=/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; Path=\//);
    expect(header).not.toMatch(/Domain=/i);
  });

  it("keeps __session on a plain-http origin (development)", async () => {
    process.env.APP_ORIGIN = "http://localhost:3000";
    const { resetEnv } = await import("./env.server");
    resetEnv();
    const { sessionCookie } = await import("./cookies.server");
    expect(await sessionCookie().serialize("abc")).toMatch(/^__session=/);
  });
});

describe("plain cookies", () => {
  it("read a value, and a broken %-escape as absent rather than an error", async () => {
    const { readPlainCookie } = await import("./cookies.server");
    const request = (cookie: string) => new Request("http://localhost/", { headers: { Cookie: cookie } });
    expect(readPlainCookie(request("a=1; theme=dark"), "theme")).toBe("dark");
    expect(readPlainCookie(request("theme=d%61rk"), "theme")).toBe("dark");
    expect(readPlainCookie(request("sidebar_state=%zz; theme=dark"), "sidebar_state")).toBeUndefined();
    expect(readPlainCookie(request("sidebar_state=%zz; theme=dark"), "theme")).toBe("dark");
  });

  it("are written for the whole site, for their lifetime, Lax, with the value escaped", async () => {
    const { plainCookie } = await import("./cookies.server");
    expect(plainCookie("sidebar_state", "true", 604800)).toBe(
      "sidebar_state=true; Max-Age=604800; Path=/; SameSite=Lax",
    );
    expect(plainCookie("theme", "a b;c", 60)).toBe("theme=a%20b%3Bc; Max-Age=60; Path=/; SameSite=Lax");
  });

  it("read the theme as dark only when the cookie says so, light otherwise", async () => {
    const { readTheme } = await import("./cookies.server");
    const request = (cookie?: string) =>
      new Request("http://localhost/", { headers: cookie ? { Cookie: cookie } : {} });
    expect(readTheme(request("theme=dark"))).toBe("dark");
    for (const cookie of [undefined, "theme=light", "theme=DARK", "theme=%zz", "sidebar_state=dark"]) {
      expect(readTheme(request(cookie))).toBe("light");
    }
  });
});

import { expect, test } from "./fixtures";

// Decision 0004: authenticated HTML and JSON are never stored by a browser or proxy, and every
// response carries the id its log lines use.
test("authenticated pages and JSON answer Cache-Control: no-store with a request id", async ({ page, loginAs }) => {
  await loginAs("manager");
  const html = await page.request.get("/invoices");
  expect(html.headers()["cache-control"]).toBe("no-store");
  const json = await page.request.get("/api/auth/user");
  expect(json.status()).toBe(200);
  expect(json.headers()["cache-control"]).toBe("no-store");
  expect(json.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  // On this plain-http test origin: no HSTS, and the ordinary session cookie name.
  expect(json.headers()["strict-transport-security"]).toBeUndefined();
  const cookies = await page.context().cookies();
  expect(cookies.map((c) => c.name)).toContain("__session");
});

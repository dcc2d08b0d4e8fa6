import { gzipSync } from "node:zlib";
import { expect, test } from "./fixtures";

// One TCP initial window (~14 KB) for the HTML; a bare Remix page loads 86.5 KB of gzipped
// JavaScript (STACK.md), and New Delivery may add at most ~35 KB on top (decision 0100, "New
// Delivery's JavaScript budget", says what each kilobyte since 117 KB pays for).
const HTML_BUDGET = 14 * 1024;
const JS_BUDGET = 123 * 1024;
// Strings that only appear in server-side libraries' code.
const SERVER_MARKERS = [
  "pg_advisory",
  "drizzle-orm",
  "bcrypt",
  "PGlite",
  "otplib",
  "@simplewebauthn/server",
  "postgres.js",
  "SESSION_SECRET",
];

test("New Delivery fits the weak-connection budget and ships no server code", async ({ page, loginAs, javaScript }) => {
  test.skip(!javaScript, "measures what the browser loads with JavaScript");
  await loginAs("staff");
  const scripts = new Set<string>();
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.add(request.url());
  });
  const response = await page.goto("/deliveries/new");
  await expect(page.getByRole("dialog", { name: "New Delivery Entry" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  const html = await response!.body();
  const htmlGzip = gzipSync(html).length;

  let jsGzip = 0;
  const sources: string[] = [];
  for (const url of scripts) {
    const body = await (await page.request.get(url)).body();
    jsGzip += gzipSync(body).length;
    sources.push(body.toString("utf8"));
  }
  test.info().annotations.push({
    type: "budget",
    description: `html ${htmlGzip} B gzip, js ${jsGzip} B gzip in ${scripts.size} files`,
  });
  console.log(`New Delivery: HTML ${htmlGzip} B gzip; JS ${jsGzip} B gzip in ${scripts.size} files`);
  expect(htmlGzip).toBeLessThan(HTML_BUDGET);
  expect(jsGzip).toBeLessThan(JS_BUDGET);
  expect(scripts.size).toBeGreaterThan(2);
  for (const marker of SERVER_MARKERS) {
    expect(
      sources.some((s) => s.includes(marker)),
      marker,
    ).toBe(false);
  }
});

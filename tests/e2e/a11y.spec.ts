// Every page and dialog route, in both themes and at both widths: no serious or critical
// axe-core violation, and at 390 px nothing scrolls sideways. Each page is loaded once per
// theme and width (the walk is the slowest part of the suite); the JavaScript mode alternates so
// that each width and each theme is walked once with JavaScript and once without:
//   light: 1280 px with JavaScript, 390 px without; dark: 1280 px without, 390 px with.
import type { Browser, BrowserContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  checkPage,
  prepareWalk,
  seriousAxeViolations,
  signIn,
  walkContext,
  WIDTHS,
  type Finding,
  type Theme,
  type WalkData,
  type Width,
} from "./walk";

// Prepared once per worker, by the first walk that runs there.
let data: WalkData | null = null;

const THEMES: Theme[] = ["light", "dark"];
const withJavaScript = (theme: Theme, width: Width) => (theme === "light") === (width === "desktop");

/** Loads each of `urls` in one fresh context, prepared (signed in) by `prepare`: what it found. */
async function walk(
  browser: Browser,
  baseURL: string,
  { theme, width, javaScript }: { theme: Theme; width: Width; javaScript: boolean },
  urls: string[],
  prepare: (context: BrowserContext) => Promise<void>,
): Promise<Finding[]> {
  const context = await walkContext(browser, baseURL, { theme, width, javaScript, axe: true });
  await prepare(context);
  const page = await context.newPage();
  const findings: Finding[] = [];
  for (const url of urls) findings.push(...(await checkPage(page, url, { javaScript, width })));
  await context.close();
  return findings;
}

for (const width of Object.keys(WIDTHS) as Width[]) {
  for (const theme of THEMES) {
    const px = WIDTHS[width].width;
    const title = width === "phone" ? "no sideways scroll and no serious axe violations" : "no serious axe violations";
    const skipUnlessOwnMode = (javaScript: boolean) =>
      test.skip(
        javaScript !== withJavaScript(theme, width),
        `walked ${withJavaScript(theme, width) ? "with" : "without"} JavaScript only`,
      );

    // The admin's pages in two halves, each a test of its own: whole, the walk came within
    // seconds of its three minutes on a busy machine, and the halves run in parallel.
    for (const half of [1, 2] as const) {
      test(`admin pages and dialogs, half ${half} of 2, at ${px} px, ${theme}: ${title}`, async ({
        browser,
        baseURL,
        javaScript,
      }) => {
        skipUnlessOwnMode(javaScript);
        test.slow();
        data ??= await prepareWalk(baseURL!);
        const middle = Math.ceil(data!.admin.length / 2);
        const urls = half === 1 ? data!.admin.slice(0, middle) : data!.admin.slice(middle);
        const findings = await walk(browser, baseURL!, { theme, width, javaScript }, urls, (c) =>
          signIn(c, baseURL!, "admin"),
        );
        expect(urls.length).toBeGreaterThan(10);
        expect(findings).toEqual([]);
      });
    }

    test(`staff, signed-out and sign-in step pages at ${px} px, ${theme}: ${title}`, async ({
      browser,
      baseURL,
      javaScript,
    }) => {
      skipUnlessOwnMode(javaScript);
      test.slow();
      data ??= await prepareWalk(baseURL!);
      const findings: Finding[] = [];
      const walkAs = async (urls: string[], prepare: (context: BrowserContext) => Promise<void>) =>
        findings.push(...(await walk(browser, baseURL!, { theme, width, javaScript }, urls, prepare)));
      await walkAs(data!.staff, (c) => signIn(c, baseURL!, "staff"));
      await walkAs(data!.signedOut, async () => {});
      await walkAs(["/change-password"], (c) => c.addCookies(data!.mustChangeSession));
      await walkAs(["/login/verify"], async (c) => {
        const response = await c.request.post("/api/auth/password/login", {
          data: data!.totp,
          headers: { Origin: baseURL! },
        });
        expect(await response.json()).toMatchObject({ requiresTOTP: true });
      });
      await walkAs(["/settings/two-factor/disable", "/settings/two-factor/recovery-codes"], (c) =>
        c.addCookies(data!.totpSession),
      );
      expect(findings).toEqual([]);
    });
  }
}

// Every walk above expects no findings, so a check that reported nothing (axe not in the page,
// a filter gone wrong) would pass them all: a page built to fail proves it reports.
test("the walk's axe check reports serious and critical findings on a page built to fail", async ({
  browser,
  baseURL,
  javaScript,
}) => {
  test.skip(!javaScript, "checks the walk's own helper: the same in both projects");
  const context = await walkContext(browser, baseURL!, { theme: "light", width: "desktop", javaScript, axe: true });
  await context.route("**/axe-canary", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html lang="en"><head><title>Canary</title></head><body><main><h1>Canary</h1>
        <p style="color:#bbb;background:#fff">Grey on white</p><img src="/favicon.svg">
        <button></button><div role="tablist"><span>no tabs</span></div></main></body></html>`,
    }),
  );
  const page = await context.newPage();
  await page.goto("/axe-canary");
  const found = (await seriousAxeViolations(page)).map((v) => `${v.impact} ${v.id}`).sort();
  await context.close();
  expect(found).toEqual([
    "critical aria-required-children",
    "critical button-name",
    "critical image-alt",
    "serious color-contrast",
  ]);
});

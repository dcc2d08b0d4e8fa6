// Every page and dialog route, in both themes and at both widths: no serious or critical
// axe-core violation, and at 390 px nothing scrolls sideways. Each page is loaded once per
// theme and width (the walk is the slowest part of the suite); the JavaScript mode alternates so
// that each width and each theme is walked once with JavaScript and once without:
//   light: 1280 px with JavaScript, 390 px without; dark: 1280 px without, 390 px with.
import type { BrowserContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  checkPage,
  prepareWalk,
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

for (const width of Object.keys(WIDTHS) as Width[]) {
  for (const theme of THEMES) {
    const px = WIDTHS[width].width;
    const title = width === "phone" ? "no sideways scroll and no serious axe violations" : "no serious axe violations";
    const skipUnlessOwnMode = (javaScript: boolean) =>
      test.skip(
        javaScript !== withJavaScript(theme, width),
        `walked ${withJavaScript(theme, width) ? "with" : "without"} JavaScript only`,
      );

    test(`admin pages and dialogs at ${px} px, ${theme}: ${title}`, async ({ browser, baseURL, javaScript }) => {
      skipUnlessOwnMode(javaScript);
      test.slow();
      data ??= await prepareWalk(baseURL!);
      const context = await walkContext(browser, baseURL!, { theme, width, javaScript, axe: true });
      await signIn(context, baseURL!, "admin");
      const page = await context.newPage();
      const findings: Finding[] = [];
      for (const url of data!.admin) findings.push(...(await checkPage(page, url, { javaScript, width })));
      await context.close();
      expect(findings).toEqual([]);
    });

    test(`staff, signed-out and sign-in step pages at ${px} px, ${theme}: ${title}`, async ({
      browser,
      baseURL,
      javaScript,
    }) => {
      skipUnlessOwnMode(javaScript);
      test.slow();
      data ??= await prepareWalk(baseURL!);
      const findings: Finding[] = [];
      const walk = async (urls: string[], prepare: (context: BrowserContext) => Promise<void>) => {
        const context = await walkContext(browser, baseURL!, { theme, width, javaScript, axe: true });
        await prepare(context);
        const page = await context.newPage();
        for (const url of urls) findings.push(...(await checkPage(page, url, { javaScript, width })));
        await context.close();
      };
      await walk(data!.staff, (c) => signIn(c, baseURL!, "staff"));
      await walk(data!.signedOut, async () => {});
      await walk(["/change-password"], (c) => signIn(c, baseURL!, data!.mustChange));
      await walk(["/login/verify"], async (c) => {
        const response = await c.request.post("/api/auth/password/login", {
          data: data!.totp,
          headers: { Origin: baseURL! },
        });
        expect(await response.json()).toMatchObject({ requiresTOTP: true });
      });
      await walk(["/settings/two-factor/disable"], (c) => c.addCookies(data!.totpSession));
      expect(findings).toEqual([]);
    });
  }
}

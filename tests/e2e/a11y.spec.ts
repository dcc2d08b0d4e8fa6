// Every page and dialog route, in both themes and at both widths, with JavaScript on and off:
// no serious or critical axe-core violation, and at 390 px nothing scrolls sideways. One load
// per page, theme and width; each walk signs in once.
import type { BrowserContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { checkPage, prepareWalk, signIn, walkContext, WIDTHS, type Finding, type Theme, type WalkData, type Width } from "./walk";

let data: WalkData | null = null;
test.beforeAll(async ({ baseURL }) => {
  data ??= await prepareWalk(baseURL!);
});

const THEMES: Theme[] = ["light", "dark"];

for (const width of Object.keys(WIDTHS) as Width[]) {
  for (const theme of THEMES) {
    const px = WIDTHS[width].width;
    const title = width === "phone" ? "no sideways scroll and no serious axe violations" : "no serious axe violations";

    test(`admin pages and dialogs at ${px} px, ${theme}: ${title}`, async ({ browser, baseURL, javaScript }) => {
      test.slow();
      const context = await walkContext(browser, baseURL!, { theme, width, javaScript });
      await signIn(context, baseURL!, "admin");
      const page = await context.newPage();
      const findings: Finding[] = [];
      for (const url of data!.admin) findings.push(...(await checkPage(page, url, { javaScript, width })));
      await context.close();
      expect(findings).toEqual([]);
    });

    test(`staff, signed-out and sign-in step pages at ${px} px, ${theme}: ${title}`, async ({ browser, baseURL, javaScript }) => {
      test.slow();
      const findings: Finding[] = [];
      const walk = async (urls: string[], prepare: (context: BrowserContext) => Promise<void>) => {
        const context = await walkContext(browser, baseURL!, { theme, width, javaScript });
        await prepare(context);
        const page = await context.newPage();
        for (const url of urls) findings.push(...(await checkPage(page, url, { javaScript, width })));
        await context.close();
      };
      await walk(data!.staff, (c) => signIn(c, baseURL!, "staff"));
      await walk(data!.signedOut, async () => {});
      await walk(["/change-password"], (c) => signIn(c, baseURL!, data!.mustChange));
      await walk(["/login/verify"], async (c) => {
        const response = await c.request.post("/api/auth/password/login", { data: data!.totp, headers: { Origin: baseURL! } });
        expect(await response.json()).toMatchObject({ requiresTOTP: true });
      });
      await walk(["/settings/two-factor/disable"], (c) => c.addCookies(data!.totpSession));
      expect(findings).toEqual([]);
    });
  }
}

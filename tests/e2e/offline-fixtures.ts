// The yard phone's journeys (decision 1100): signed in as a fixture user, at 390 px, with
// JavaScript only (the outbox and the service worker need it), failing on any console error but
// the ones going offline causes on purpose.
import { test as base, expect } from "@playwright/test";
import { signInContext } from "./fixtures";
import type { FixtureRole } from "./users";

/** The browser reports each request it could not make: these are the point, not a fault. */
export const OFFLINE_CONSOLE = [/net::ERR_INTERNET_DISCONNECTED/, /net::ERR_FAILED/, /Failed to fetch/];

export function offlineTest(expectedConsole: RegExp[] = OFFLINE_CONSOLE) {
  const test = base.extend<{ loginAs: (role: FixtureRole) => Promise<void> }>({
    page: async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && !expectedConsole.some((re) => re.test(message.text())))
          errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(page);
      expect(errors, "console errors").toEqual([]);
    },
    loginAs: async ({ page, baseURL }, use, testInfo) => {
      await use((role) => signInContext(page.context(), baseURL!, testInfo.project.name, role));
    },
  });
  test.use({ viewport: { width: 390, height: 844 } });
  test.skip(
    ({ javaScriptEnabled }) => javaScriptEnabled === false,
    "the outbox and the service worker need JavaScript",
  );
  return test;
}

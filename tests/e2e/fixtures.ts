import { test as base, expect, type Page } from "@playwright/test";
import { E2E_PASSWORD, FIXTURE_USERS, type FixtureRole } from "./users";

type Fixtures = {
  loginAs: (role: FixtureRole) => Promise<void>;
  javaScript: boolean;
};

/**
 * Every test fails on an unexpected console error or a page error, and can sign in by role.
 * Sign-in goes through the real JSON call, which also sets the cookie in this browser context.
 */
export const test = base.extend<Fixtures>({
  javaScript: async ({ javaScriptEnabled }, use) => use(javaScriptEnabled !== false),
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" && !/Failed to load resource: the server responded with a status of (40[0-9]|429)/.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await use(page);
    expect(errors, "console errors").toEqual([]);
  },
  loginAs: async ({ page, baseURL }, use) => {
    await use(async (role) => {
      const response = await page.request.post("/api/auth/password/login", {
        data: { email: FIXTURE_USERS[role].email, password: E2E_PASSWORD },
        headers: { Origin: baseURL! },
      });
      expect(response.status()).toBe(200);
    });
  },
});

export { expect };

/** With JavaScript, waits until React has hydrated the page; without it, returns at once. */
export async function hydrated(page: Page, javaScript: boolean) {
  if (javaScript) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

export async function signInWithForm(page: Page, email: string, password: string) {
  await page.goto("/login?dialog=email");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

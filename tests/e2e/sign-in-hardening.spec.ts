// Temporary passwords sign in once (decision 0600) and two-factor recovery codes (decision
// 0401), with and without JavaScript, at phone width.
import { request as playwrightRequest, type Page } from "@playwright/test";
import { generate } from "otplib";
import { desk, expect, hydrated, signInWithForm, test, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";

const PHONE = { width: 390, height: 844 };

/** A new user made through the admin API: its e-mail and the temporary password shown once. */
async function adminCreatesUser(baseURL: string, role: "staff" | "manager") {
  const admin = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, ...desk() } });
  const signedIn = await admin.post("/api/auth/password/login", {
    data: { email: FIXTURE_USERS.admin.email, password: E2E_PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  const email = `once-${unique()}@e2e.test`;
  const created = await admin.post("/api/admin/users", {
    data: { email, role, firstName: "Once", lastName: unique() },
  });
  expect(created.status()).toBe(201);
  const { temporaryPassword } = (await created.json()) as { temporaryPassword: string };
  await admin.dispose();
  return { email, temporaryPassword };
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** Logs out through the user menu (in the sidebar, which a phone shows only when opened). */
async function logout(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel("User menu").click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.setViewportSize(PHONE);
}

test("a temporary password signs in once; the admin sees when it was issued", async ({
  page,
  browser,
  baseURL,
  javaScript,
  loginAs,
}) => {
  await page.setViewportSize(PHONE);
  const { email, temporaryPassword } = await adminCreatesUser(baseURL!, "staff");

  // First use: signed in, and the session can only change the password.
  const first = await browser.newContext({
    baseURL,
    extraHTTPHeaders: desk(),
    javaScriptEnabled: javaScript,
    viewport: PHONE,
  });
  const firstPage = await first.newPage();
  await signInWithForm(firstPage, email, temporaryPassword);
  await expect(firstPage).toHaveURL(/\/change-password$/);
  await firstPage.goto("/deliveries");
  await expect(firstPage).toHaveURL(/\/change-password$/);

  // Second use, from another browser: refused.
  await signInWithForm(page, email, temporaryPassword);
  await expect(page.getByRole("alert")).toContainText("This temporary password has already been used");
  await expect(page).toHaveURL(/\/login/);
  await noSidewaysScroll(page);

  // User Management says when it was issued and that it has been used.
  await loginAs("admin");
  await page.goto("/settings");
  const row = page.getByRole("listitem").filter({ hasText: email });
  await expect(row).toContainText(/Temporary password issued [A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} WAT/);
  await expect(row).toContainText("used to sign in, new password not yet chosen");
  await noSidewaysScroll(page);

  // The first session chooses a password; the note goes.
  await firstPage.getByLabel("Current password").fill(temporaryPassword);
  await firstPage.getByLabel("New password", { exact: true }).fill("once-own-password");
  await firstPage.getByLabel("Confirm new password").fill("once-own-password");
  await firstPage.getByRole("button", { name: "Change Password" }).click();
  await expect(firstPage.getByRole("heading", { name: "Staff Dashboard" })).toBeVisible();
  await first.close();
  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: email })).not.toContainText("Temporary password issued");
});

test("two-factor recovery codes: shown once at set-up, each signs in once instead of a code", async ({
  page,
  baseURL,
  javaScript,
}) => {
  await page.setViewportSize(PHONE);
  const { email, temporaryPassword } = await adminCreatesUser(baseURL!, "manager");
  const password = "recovery-user-password";
  await signInWithForm(page, email, temporaryPassword);
  await expect(page).toHaveURL(/\/change-password$/);
  await hydrated(page, javaScript);
  await page.getByLabel("Current password").fill(temporaryPassword);
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Confirm new password").fill(password);
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByRole("heading", { name: "Manager Dashboard" })).toBeVisible();

  await page.goto("/settings");
  await page.getByRole("link", { name: "Set Up Two-factor" }).click();
  const setup = page.getByRole("dialog", { name: "Set Up Two-factor Authentication" });
  await setup.getByRole("button", { name: "Set up" }).click();
  const secret = (await setup.getByLabel("Or enter this key").textContent())!.replace(/\s/g, "");
  await setup.getByLabel("6-digit code").fill(await generate({ secret }));
  await setup.getByRole("button", { name: "Turn On" }).click();

  const shown = page.getByRole("dialog", { name: "Save Your Recovery Codes" });
  await expect(shown).toBeVisible();
  const list = shown.getByRole("list", { name: "Recovery codes" });
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const codes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await noSidewaysScroll(page);

  // Shown once: the same address again offers new codes instead, and counts what is left.
  await page.reload();
  const again = page.getByRole("dialog", { name: "Recovery Codes" });
  await expect(again).toContainText("You have 10 of 10 recovery codes left");
  await expect(again.getByRole("list", { name: "Recovery codes" })).toHaveCount(0);
  await again.getByRole("link", { name: "Cancel" }).click();
  await logout(page);

  // A recovery code instead of the authenticator code.
  const useRecoveryCode = async (code: string) => {
    await signInWithForm(page, email, password);
    await expect(page).toHaveURL(/\/login\/verify/);
    await page.getByRole("link", { name: "Use a recovery code" }).click();
    const step = page.getByRole("dialog", { name: "Use a recovery code" });
    await step.getByLabel("Recovery code").fill(code);
    await step.getByRole("button", { name: "Verify" }).click();
  };
  await useRecoveryCode(codes[0].toUpperCase());
  await expect(page.getByRole("heading", { name: "Manager Dashboard" })).toBeVisible();
  await logout(page);

  // The same code a second time: refused; the next one works.
  await useRecoveryCode(codes[0]);
  await expect(page.getByRole("alert")).toContainText("Invalid or already used recovery code");
  await noSidewaysScroll(page);
  const step = page.getByRole("dialog", { name: "Use a recovery code" });
  await step.getByLabel("Recovery code").fill(codes[1]);
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Manager Dashboard" })).toBeVisible();

  // New codes (a sign-in within five minutes: no password asked) replace the old ones.
  await page.goto("/settings");
  await page.getByRole("link", { name: "Recovery Codes" }).click();
  const regenerate = page.getByRole("dialog", { name: "Recovery Codes" });
  await expect(regenerate).toContainText("You have 8 of 10 recovery codes left");
  await regenerate.getByRole("button", { name: "Make New Codes" }).click();
  const fresh = page.getByRole("dialog", { name: "Save Your Recovery Codes" });
  await expect(fresh.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  const newCodes = (
    await fresh.getByRole("list", { name: "Recovery codes" }).getByRole("listitem").allTextContents()
  ).map((c) => c.trim());
  expect(newCodes).toHaveLength(10);
  expect(newCodes).not.toContain(codes[2]);
  await fresh.getByRole("link", { name: "I Have Saved Them" }).click();
  await logout(page);
  await useRecoveryCode(codes[2]);
  await expect(page.getByRole("alert")).toContainText("Invalid or already used recovery code");
});

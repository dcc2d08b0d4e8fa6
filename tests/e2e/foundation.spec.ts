import { expect, hydrated, signInWithForm, test } from "./fixtures";
import { FRESH_ADMINS } from "./users";

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

for (const [device, viewport] of Object.entries(VIEWPORTS) as [
  keyof typeof VIEWPORTS,
  (typeof VIEWPORTS)[keyof typeof VIEWPORTS],
][]) {
  test.describe(`first admin on ${device}`, () => {
    test.use({ viewport });

    test("signs in, must change the password, uses the shell and logs out", async ({ page, javaScript }) => {
      const admin = FRESH_ADMINS[`${javaScript ? "js" : "nojs"}-${device}`];
      await page.goto("/deliveries");
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdeliveries/);
      await expect(page.getByRole("heading", { name: "Management", level: 1 })).toBeVisible();

      await signInWithForm(page, admin.email, "not-the-password");
      await expect(page.getByRole("alert")).toContainText("Invalid email or password");

      await signInWithForm(page, admin.email, admin.password);
      await expect(page).toHaveURL(/\/change-password$/);
      // Every page sends a user with a pending password change back here.
      await page.goto("/deliveries");
      await expect(page).toHaveURL(/\/change-password$/);

      await page.getByLabel("Current password").fill(admin.password);
      await page.getByLabel("New password", { exact: true }).fill("short");
      await page.getByLabel("Confirm new password").fill("different");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();

      await page.getByLabel("Current password").fill(admin.password);
      await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password");
      await page.getByLabel("Confirm new password").fill("a-brand-new-passwordX");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page.getByText("Passwords don't match")).toBeVisible();

      await page.getByLabel("Current password").fill(admin.password);
      await page.getByLabel("New password", { exact: true }).fill("a-brand-new-password");
      await page.getByLabel("Confirm new password").fill("a-brand-new-password");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("status")).toContainText("Password changed successfully");
      await expect(page.getByRole("heading", { name: "Manager Dashboard" })).toBeVisible();

      const mainNav = page.getByRole("navigation", { name: "Main" });
      // The spec's 8, the Audit Trail, the Tax Report (decision 0990), Trucks (decision 1200), Rates
      // (decision 1230), Payout Approvals (decision 1250), the Profit Report (decision 1270), and
      // Receipts and Withholding under Payments (decision 1240).
      await expect(mainNav.getByRole("link")).toHaveCount(16);
      await expect(mainNav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

      // Theme: dark survives a reload.
      await expect(page.locator("html")).not.toHaveClass(/dark/);
      await page.getByRole("button", { name: "Switch to dark theme" }).click();
      await expect(page.locator("html")).toHaveClass(/dark/);
      await expect
        .poll(async () => (await page.context().cookies()).find((c) => c.name === "theme")?.value)
        .toBe("dark");
      await page.reload();
      await expect(page.locator("html")).toHaveClass(/dark/);
      if (javaScript) expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
      await page.getByRole("button", { name: "Switch to light theme" }).click();
      await expect(page.locator("html")).not.toHaveClass(/dark/);

      if (device === "desktop") {
        const shell = page.locator("[data-sidebar-state]");
        await expect(shell).toHaveAttribute("data-sidebar-state", "expanded");
        await page.getByRole("button", { name: "Toggle sidebar" }).click();
        await expect(shell).toHaveAttribute("data-sidebar-state", "collapsed");
        await page.reload();
        await expect(shell).toHaveAttribute("data-sidebar-state", "collapsed");
        if (javaScript) {
          // The shortcut is the page's script: it listens once the reloaded page has hydrated.
          await hydrated(page, javaScript);
          await page.keyboard.press("Control+b");
          await expect(shell).toHaveAttribute("data-sidebar-state", "expanded");
        } else {
          await page.getByRole("button", { name: "Toggle sidebar" }).click();
          await expect(shell).toHaveAttribute("data-sidebar-state", "expanded");
        }
        const cookies = await page.context().cookies();
        const sidebar = cookies.find((c) => c.name === "sidebar_state");
        expect(sidebar?.value).toBe("true");
        expect(sidebar!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600);
      } else {
        // Phone: a bottom bar; its Menu opens the sidebar as a sheet.
        const bar = page.getByRole("navigation", { name: "Mobile" });
        await expect(bar.getByRole("link", { name: "Invoices" })).toBeVisible();
        await expect(mainNav).not.toBeInViewport();
        await bar.getByLabel("Menu").click();
        await expect(mainNav).toBeInViewport();
        await mainNav.getByRole("link", { name: "Deliveries" }).click();
        await expect(page).toHaveURL(/\/deliveries$/);
      }

      if (device === "phone") await page.getByRole("navigation", { name: "Mobile" }).getByLabel("Menu").click();
      await page.getByLabel("User menu").click();
      await expect(page.getByRole("link", { name: "Profile Settings" })).toBeVisible();
      await page.getByRole("button", { name: "Logout" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto("/");
      await expect(page).toHaveURL(/\/login$/);
    });
  });
}

test("staff see three items and are refused admin pages", async ({ page, loginAs }) => {
  await loginAs("staff");
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Staff Dashboard" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveCount(3);
  await expect(page.getByTestId("role-badge")).toHaveText("staff");
  for (const path of ["/agents", "/clients", "/invoices", "/payments", "/reconciliation", "/tax"]) {
    const response = await page.goto(path);
    expect([403, 404], path).toContain(response?.status());
  }
});

test("unknown paths show the 404 page with HTTP 404", async ({ page, loginAs }) => {
  await loginAs("manager");
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
});

test("pages carry the security headers", async ({ page }) => {
  const response = await page.goto("/login");
  const headers = response!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBeTruthy();
  expect(headers["cache-control"]).toBe("no-store");
});

test("cross-site writes are refused, same-origin ones are not", async ({ page, baseURL }) => {
  const foreign = await page.request.post("/api/auth/password/login", {
    data: { email: "x@example.com", password: "whatever-123" },
    headers: { Origin: "http://evil.example" },
  });
  expect(foreign.status()).toBe(403);
  const own = await page.request.post("/api/auth/password/login", {
    data: { email: "x@example.com", password: "whatever-123" },
    headers: { Origin: baseURL! },
  });
  expect(own.status()).toBe(401);
});

test("fingerprinted build assets are cached for a year", async ({ page }) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="stylesheet"]').first().getAttribute("href");
  const response = await page.request.get(href!);
  expect(response.headers()["cache-control"]).toContain("max-age=31536000");
});

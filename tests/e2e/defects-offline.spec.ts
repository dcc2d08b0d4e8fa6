// Yard staff on a phone with no signal (decision 1100): every page the phone has seen opens from
// its copy, marked as not current; a page it has not seen, or a data call that fails, says "No
// connection" inside the app's frame; the queued deliveries say when they are sent; New Delivery
// opened from the dashboard keeps the dashboard's nav item. Chromium with JavaScript at 390 px.
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { offlineTest } from "./offline-fixtures";
import { unique } from "./fixtures";

const test = offlineTest();

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });
const dialog = (page: Page) => page.getByRole("dialog", { name: "New Delivery Entry" });
const mobileNav = (page: Page) => page.getByRole("navigation", { name: "Mobile" });

/** Opens New Delivery online and waits until the service worker holds its copies. */
async function openOnline(page: Page) {
  await page.goto("/deliveries/new");
  await expect(dialog(page)).toBeVisible();
  await hydrated(page);
  await page.locator("html[data-offline-ready]").waitFor({ state: "attached" });
}

/** Visits a page online, then waits until the worker has kept its copy. */
async function visit(page: Page, path: string, heading: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  await hydrated(page);
  await expect.poll(() => page.evaluate((p) => caches.match(p).then((r) => !!r), path), { timeout: 15_000 }).toBe(true);
}

/** The app's frame (its navigation) with the no-connection message and a way back to New Delivery. */
async function noConnection(page: Page) {
  await expect(page.getByRole("heading", { name: "No connection" })).toBeVisible();
  await expect(mobileNav(page)).toBeVisible();
  await expect(page.getByRole("link", { name: "New Delivery" })).toHaveAttribute("href", "/deliveries/new");
  await expect(page.getByText("Something went wrong")).toHaveCount(0);
}

async function deliveriesAt(request: APIRequestContext, prefix: string) {
  const response = await request.get("/api/deliveries");
  expect(response.status()).toBe(200);
  return ((await response.json()) as { location: string }[]).filter((d) => d.location.startsWith(prefix));
}

test("offline, leaving New Delivery stays in the app: seen pages from the phone, marked, others say No connection", async ({
  page,
  context,
  loginAs,
}) => {
  await loginAs("staff2");
  await visit(page, "/", "Staff Dashboard");
  await openOnline(page);
  await context.setOffline(true);

  // Close the dialog, then tap Deliveries: the list was never seen on this phone.
  await dialog(page).getByRole("link", { name: "Close" }).click();
  await noConnection(page);
  await mobileNav(page).getByRole("link", { name: "Deliveries" }).click();
  await noConnection(page);

  // The dashboard was seen: it opens from the phone's copy, which says it is not current.
  await mobileNav(page).getByRole("link", { name: "Dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Staff Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByTestId("offline-copy")).toHaveText(/^Offline — shown as last seen at \d\d:\d\d$/);

  // Full loads offline: the same, never the browser's own offline page.
  await page.goto("/deliveries");
  await noConnection(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Staff Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByTestId("offline-copy")).toBeVisible();
  await page.getByRole("link", { name: "Add Delivery" }).click();
  await expect(dialog(page)).toBeVisible();
  await context.setOffline(false);
});

test("a data call that fails offline shows No connection in the app's frame, not the bare error", async ({
  page,
  context,
  loginAs,
}) => {
  await loginAs("staff2");
  await openOnline(page);
  await context.setOffline(true);
  // Escape closes the dialog by a client-side navigation: Remix asks the server for the list's data.
  await page.keyboard.press("Escape");
  await noConnection(page);
  await context.setOffline(false);
});

test("the phone's copies belong to one person: the next one to sign in never sees them", async ({
  page,
  context,
  loginAs,
}) => {
  await loginAs("staff2");
  await visit(page, "/", "Staff Dashboard");
  await expect(page.getByText("Obi Yardman").first()).toBeAttached();
  // Someone else signs in on the same phone (signing in loads no document).
  await loginAs("staff3");
  await openOnline(page);
  // The worker drops the first person's copies and keeps the second's No connection page.
  const cached = () => page.evaluate(() => Promise.all(["/", "/offline"].map((p) => caches.match(p).then((r) => !!r))));
  await expect.poll(cached).toEqual([false, true]);
  await context.setOffline(true);
  await page.goto("/");
  await noConnection(page);
  await expect(page.getByText("Obi Yardman")).toHaveCount(0);
  await context.setOffline(false);
});

test("signing out clears the phone's copies of the person's pages", async ({ page, loginAs }) => {
  await loginAs("staff3");
  await visit(page, "/", "Staff Dashboard");
  // (The user menu's Logout form; at 390 px the menu sits in the closed sidebar sheet.)
  await page.evaluate(() => document.querySelector<HTMLFormElement>('form[action="/logout"]')!.requestSubmit());
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => page.evaluate(() => caches.match("/").then((r) => !!r))).toBe(false);
});

test("a manager's lists are kept, but never a page with a form key: sent from a copy, the key would replay", async ({
  page,
  loginAs,
}) => {
  await loginAs("manager");
  await openOnline(page);
  await visit(page, "/invoices", "Invoices");
  await page.goto("/invoices/new");
  await expect(page.getByRole("dialog", { name: "Generate Invoice" })).toBeVisible();
  await expect(page.locator('input[name="idempotencyKey"]')).toBeAttached();
  await hydrated(page);
  // The worker fetches a seen page within a moment; give it time, then require no copy.
  await page.waitForTimeout(2_000);
  await visit(page, "/", "Manager Dashboard");
  expect(await page.evaluate(() => caches.match("/invoices/new").then((r) => !!r))).toBe(false);
});

test("back online, the phone says how many queued deliveries were sent and drops the waiting line", async ({
  page,
  context,
  loginAs,
}) => {
  await loginAs("staff2");
  await openOnline(page);
  const tag = `Sent note ${unique()}`;
  await context.setOffline(true);
  for (const n of [1, 2]) {
    await dialog(page).getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
    await dialog(page).getByLabel("Tons *").fill(`3${n}.00`);
    await dialog(page).getByLabel("Location *").fill(`${tag} ${n}`);
    await dialog(page).getByRole("button", { name: "Record Delivery" }).click();
    await expect(page.getByTestId("outbox-status")).toHaveText("Saved on this phone, waiting to send");
    await expect(page.getByRole("button", { name: "Record Delivery" })).toBeEnabled();
  }
  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: "2 deliveries sent" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("outbox-status")).toHaveText("");
  expect(await deliveriesAt(page.request, tag)).toHaveLength(2);
});

test("New Delivery from the Staff Dashboard keeps the Dashboard's nav item and is not a blank page", async ({
  page,
  loginAs,
}) => {
  await loginAs("staff2");
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("link", { name: "Add Delivery" }).click();
  await expect(dialog(page)).toBeVisible();
  await expect(mobileNav(page).getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  await expect(mobileNav(page).getByRole("link", { name: "Deliveries" })).not.toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "New Delivery", level: 1 })).toBeAttached();
  await dialog(page).getByRole("link", { name: "Close" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Staff Dashboard", level: 1 })).toBeVisible();
});

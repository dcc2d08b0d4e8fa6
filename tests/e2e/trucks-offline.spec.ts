// A delivery with a truck number recorded with no signal (decisions 1100 and 1200): the phone's
// outbox keeps the field with the others and sends it once; the delivery lands once with the
// plate as the register shows it, and the new plate joins the register once.
import { expect, type Page } from "@playwright/test";
import { unique } from "./fixtures";
import { offlineTest } from "./offline-fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";
import { api, ok } from "./walk";

const test = offlineTest();

async function openOnline(page: Page) {
  await page.goto("/deliveries/new");
  await expect(page.getByRole("dialog", { name: "New Delivery Entry" })).toBeVisible();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  await page.locator("html[data-offline-ready]").waitFor({ state: "attached" });
}

test("a delivery with a truck number recorded offline lands once, and its plate joins the register once", async ({
  page,
  context,
  loginAs,
  baseURL,
}) => {
  await loginAs("staff3");
  await openOnline(page);
  const plate = `OF${unique().slice(-8).toUpperCase()}`;
  const location = `Offline truck ${unique()}`;
  await context.setOffline(true);
  const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
  await dialog.getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
  await dialog.getByLabel("Tons *").fill("14.00");
  await dialog.getByLabel("Location *").fill(location);
  await dialog.getByLabel("Truck No.").fill(`${plate.slice(0, 2).toLowerCase()} ${plate.slice(2)}`);
  await dialog.getByRole("button", { name: "Record Delivery" }).click();
  await expect(page.getByTestId("outbox-status")).toHaveText("Saved on this phone, waiting to send");
  await expect(page.getByRole("button", { name: "Record Delivery" })).toBeEnabled();
  const badge = page.getByTestId("outbox-badge");
  await expect(badge).toHaveAttribute("data-count", "1");

  await context.setOffline(false);
  await expect(badge).toHaveCount(0, { timeout: 30_000 });
  const shown = `${plate.slice(0, 2)} ${plate.slice(2)}`;
  const mine = await ok<{ location: string; truckNo: string | null }[]>(await page.request.get("/api/deliveries"));
  expect(mine.filter((d) => d.location === location).map((d) => d.truckNo)).toEqual([shown]);

  const manager = await api(baseURL!, FIXTURE_USERS.manager.email, E2E_PASSWORD);
  const trucks = await ok<{ plate: string }[]>(await manager.get(`/api/trucks?limit=10&q=${plate}`));
  expect(trucks.map((t) => t.plate)).toEqual([shown]);
  await manager.dispose();
});

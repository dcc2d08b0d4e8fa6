// Monthly Reconciliation says it is loading while a month's details or another page of months
// come, as Deliveries, Invoices and Payments do. Only JavaScript navigations have such a wait on
// the page: without it the browser loads a new page.
import { formatMonth, todayIn } from "../../app/utils/dates";
import { apiPoster, expect, hydrated, test, unique } from "./fixtures";

test("View Details shows Loading reconciliation... until the month's details arrive", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  test.skip(!javaScript, "a client-side navigation's loading text needs JavaScript");
  await loginAs("manager");
  const today = todayIn("Africa/Lagos");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const agent = await post("/api/agents", { name: `Loading Agent ${tag}` });
  await post("/api/deliveries", { agentId: agent.id, tons: "1.00", location: `Loading yard ${tag}`, date: today });
  await page.goto("/reconciliation");
  await hydrated(page, javaScript);
  const loading = page.getByText("Loading reconciliation...");
  await expect(loading).toHaveCount(0);

  // Hold the details' data request until the text has been seen.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/reconciliation\.data/, async (route) => {
    await held;
    await route.continue();
  });
  const month = page.getByRole("listitem", { name: formatMonth(today.slice(0, 7)) });
  await month.getByRole("link", { name: "View Details" }).click();
  await expect(loading).toBeVisible();
  release();
  await expect(month.getByRole("link", { name: "Hide Details" })).toBeVisible();
  await expect(loading).toHaveCount(0);
  await page.unroute(/\/reconciliation\.data/);

  // Leaving for another page is that page's wait, not this one's.
  let releaseNext!: () => void;
  const heldNext = new Promise<void>((resolve) => (releaseNext = resolve));
  const asked = page.waitForRequest(/\/deliveries\.data/);
  await page.route(/\/deliveries\.data/, async (route) => {
    await heldNext;
    await route.continue();
  });
  await page.getByRole("link", { name: "Deliveries", exact: true }).first().click();
  await asked;
  await expect(loading).toHaveCount(0);
  releaseNext();
  await expect(page).toHaveURL(/\/deliveries/);
});

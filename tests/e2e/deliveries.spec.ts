import { desk, expect, hydrated, test, unique } from "./fixtures";

const PHONE = { width: 390, height: 844 };

test.describe("a staff member on a phone", () => {
  test.use({ viewport: PHONE });

  test("records a delivery and sees it on the dashboard", async ({ page, loginAs }) => {
    await loginAs("staff2");
    await page.goto("/");
    const week = Number(await page.getByTestId("stat-week").locator("[data-value]").getAttribute("data-value"));
    const location = `Yard ${unique()}`;
    await page.getByRole("link", { name: "Add Delivery" }).click();
    const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Client")).toHaveValue("Kodan Industries");
    await expect(dialog.getByLabel("Truck No.")).toBeEnabled();
    await dialog.getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
    await dialog.getByLabel("Tons *").fill("30.55");
    await dialog.getByLabel("Location *").fill(location);
    await dialog.getByLabel("Logistics cost (₦)").fill("1234.5");
    await dialog.getByRole("button", { name: "Record Delivery" }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("status")).toContainText("Delivery Recorded");
    await expect(page.getByRole("status")).toContainText("30.55 tons added successfully");
    const recent = page.getByRole("table");
    await expect(recent.getByRole("row", { name: new RegExp(location) })).toBeVisible();
    await expect(recent).not.toContainText("Profit");
    await expect(page.getByTestId("stat-week").locator("[data-value]")).toHaveAttribute("data-value", String(week + 1));
  });

  test("submitting the same form twice records one delivery", async ({ page, loginAs, baseURL, javaScript }) => {
    await loginAs("staff");
    await page.goto("/deliveries/new");
    // With JavaScript the page makes its own key once hydrated (decision 1100): read that one.
    await hydrated(page, javaScript);
    const location = `Twice ${unique()}`;
    await page.getByLabel("Agent *").selectOption({ label: "Chinedu Okafor" });
    await page.getByLabel("Tons *").fill("12.25");
    await page.getByLabel("Location *").fill(location);
    const key = await page.locator('input[name="idempotencyKey"]').inputValue();
    await page.getByRole("button", { name: "Record Delivery" }).click();
    await expect(page.getByRole("status")).toContainText("Delivery Recorded");

    // The network drops the answer and the same form is sent again (a tap on retry, or back
    // and resubmit): same key, same fields.
    const agentId = await page.request
      .get("/api/deliveries")
      .then(
        async (r) =>
          ((await r.json()) as { location: string; agentId: number }[]).find((d) => d.location === location)!.agentId,
      );
    const again = await page.request.post("/deliveries/new", {
      form: {
        idempotencyKey: key,
        agentId: String(agentId),
        tons: "12.25",
        location,
        date: await todayOnServer(page),
        returnTo: "/deliveries",
      },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(302);
    const mine = (await (await page.request.get("/api/deliveries")).json()) as { location: string }[];
    expect(mine.filter((d) => d.location === location)).toHaveLength(1);
    await page.goto("/deliveries");
    await expect(page.getByRole("row", { name: new RegExp(location) })).toHaveCount(1);
    void javaScript;
  });
});

async function todayOnServer(page: import("@playwright/test").Page) {
  const deliveries = (await (await page.request.get("/api/deliveries?limit=1")).json()) as { date: string }[];
  return deliveries[0].date;
}

test("an admin edits tons; a manager cannot", async ({ browser, loginAs, page, baseURL, javaScript, users }) => {
  await loginAs("staff");
  const location = `Edit ${unique()}`;
  const created = await page.request.post("/api/deliveries", {
    data: { agentId: 1, tons: "10.00", location },
    headers: { Origin: baseURL! },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const managerContext = await browser.newContext({
    extraHTTPHeaders: desk(),
    javaScriptEnabled: test.info().project.name === "js",
  });
  const manager = await managerContext.newPage();
  const { E2E_PASSWORD } = await import("./users");
  await manager.request.post("/api/auth/password/login", {
    data: { email: users.manager.email, password: E2E_PASSWORD },
    headers: { Origin: baseURL! },
  });
  await manager.goto(`/deliveries/${id}/edit`);
  await hydrated(manager, javaScript);
  const managerDialog = manager.getByRole("dialog", { name: "Edit Delivery" });
  await expect(managerDialog.getByTestId("readonly-tons")).toHaveText("10.00");
  await expect(managerDialog.getByLabel("Tons *")).toHaveCount(0);
  const forged = await manager.request.patch(`/api/deliveries/${id}`, {
    data: { tons: "99" },
    headers: { Origin: baseURL! },
  });
  expect(forged.status()).toBe(403);
  await managerDialog.getByLabel("Selling rate (₦/ton)").fill("70,000.50");
  await managerDialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(manager.getByRole("status")).toContainText("Delivery updated successfully");
  await managerContext.close();

  await page.context().clearCookies();
  await loginAs("admin");
  await page.goto(`/deliveries/${id}/edit`);
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Edit Delivery" });
  await expect(dialog).toContainText("Net Payment to Agent");
  await dialog.getByLabel("Tons *").fill("11.75");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toContainText("Delivery updated successfully");
  const row = page.getByRole("row", { name: new RegExp(location) });
  await expect(row).toContainText("11.75");
  // 11.75 x 70,000.50 - 11.75 x buying rate: the profit column shows for admins.
  await expect(row).toContainText("₦");
});

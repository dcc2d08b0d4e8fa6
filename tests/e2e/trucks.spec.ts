import { desk, expect, hydrated, test, unique } from "./fixtures";
import { E2E_PASSWORD } from "./users";
import { sidewaysScroll, WIDTHS, type Width } from "./walk";

// The truck register (docs/decisions/1200), with JavaScript on and off, at desktop and phone
// widths: a manager adds and edits a truck, a plate already registered is refused under its
// field, a staff member's delivery adds its new plate to the register, and staff never reach it.

/** A plate no other journey uses: "T" and eight letters or digits. */
const newPlate = () => `T${unique().slice(-8).toUpperCase()}`;

for (const width of ["desktop", "phone"] as Width[]) {
  test(`a manager adds and edits a truck; a plate already registered is refused (${width})`, async ({
    page,
    loginAs,
    javaScript,
  }) => {
    await page.setViewportSize(WIDTHS[width]);
    await loginAs("manager");
    const plate = newPlate();
    const typed = `${plate.slice(0, 3).toLowerCase()}  ${plate.slice(3)}`;
    const shown = `${plate.slice(0, 3)} ${plate.slice(3)}`;
    await page.goto("/trucks");
    await hydrated(page, javaScript);
    await page.getByRole("link", { name: "Add Truck" }).click();
    let dialog = page.getByRole("dialog", { name: "Add Truck" });
    await dialog.getByLabel("Plate *").fill(typed);
    await dialog.getByLabel("Transporter").fill("Musa Haulage");
    await dialog.getByLabel("Usual tare (kg)").fill("11500");
    await dialog.getByRole("button", { name: "Add Truck" }).click();
    await expect(page.getByRole("status")).toContainText(`Truck ${shown} added`);

    // Found by the start of its plate, spaces and dashes aside (other journeys add trucks).
    const search = page.getByRole("search", { name: "Search trucks by plate" });
    await search.getByLabel("Search trucks by plate").fill(`${plate.slice(0, 2)}-${plate.slice(2, 6).toLowerCase()}`);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    const list = page.getByRole("region", { name: "Trucks" });
    const row = list.getByRole("row").filter({ hasText: shown });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("Musa Haulage");
    await expect(row).toContainText("11,500");
    if (javaScript && width === "phone") expect(await sidewaysScroll(page)).toBeNull();

    await row.getByRole("link", { name: `Edit ${shown}` }).click();
    dialog = page.getByRole("dialog", { name: "Edit Truck" });
    await expect(dialog.getByLabel("Plate *")).toHaveValue(shown);
    await dialog.getByLabel("Phone").fill("0803 111 2222");
    await dialog.getByLabel("Usual tare (kg)").fill("12500");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toContainText(`Truck ${shown} updated`);
    // Back on the searched list it was opened from.
    await expect(page).toHaveURL(/\/trucks\?q=/);
    await expect(row).toContainText("0803 111 2222");
    await expect(row).toContainText("12,500");

    // The same plate typed another way is the same truck: refused under the plate field.
    await page.getByRole("link", { name: "Add Truck" }).click();
    dialog = page.getByRole("dialog", { name: "Add Truck" });
    await dialog.getByLabel("Plate *").fill(`${plate.slice(0, 3)}-${plate.slice(3).toLowerCase()}`);
    await dialog.getByRole("button", { name: "Add Truck" }).click();
    await expect(dialog.getByLabel("Plate *")).toHaveAccessibleDescription(
      new RegExp(`A truck with plate ${shown} is already registered`),
    );
    await expect(dialog).toBeVisible();
    await page.goto(`/trucks?q=${plate}`);
    await expect(page.getByRole("region", { name: "Trucks" }).getByRole("row").filter({ hasText: shown })).toHaveCount(
      1,
    );
  });
}

test("staff record a delivery with a truck number, which then appears in the register", async ({
  page,
  browser,
  baseURL,
  loginAs,
  javaScript,
  users,
}) => {
  await page.setViewportSize(WIDTHS.phone);
  await loginAs("staff");
  const plate = newPlate();
  const location = `Truck yard ${unique()}`;
  await page.goto("/deliveries/new");
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
  await dialog.getByLabel("Agent *").selectOption({ label: "Musa Ibrahim" });
  await dialog.getByLabel("Tons *").fill("20.00");
  await dialog.getByLabel("Location *").fill(location);
  await dialog.getByLabel("Truck No.").fill(`${plate.slice(0, 3).toLowerCase()}-${plate.slice(3)}`);
  await dialog.getByRole("button", { name: "Record Delivery" }).click();
  await expect(page.getByRole("status")).toContainText("Delivery Recorded");
  const shown = `${plate.slice(0, 3)}-${plate.slice(3)}`;
  await page.goto("/deliveries");
  await expect(page.getByRole("row", { name: new RegExp(location) })).toContainText(shown);
  // New Delivery now suggests the plate.
  await page.goto("/deliveries/new");
  await expect(page.locator(`#known-plates option[value="${shown}"]`)).toHaveCount(1);

  // A plate that is not one: the browser's own check (the field's pattern) stops the form; the
  // server refuses it too, naming Truck No.
  await expect(dialog.getByLabel("Truck No.")).toHaveAttribute("pattern", /.+/);
  const refused = await page.request.post("/api/deliveries", {
    data: { agentId: 1, tons: "1.00", location: `${location} refused`, truckNo: "LAG_1" },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { errors: Record<string, string[]> }).errors.truckNo[0]).toMatch(/^Truck No\./);

  const managerContext = await browser.newContext({
    extraHTTPHeaders: desk(),
    javaScriptEnabled: javaScript,
    viewport: WIDTHS.desktop,
  });
  const manager = await managerContext.newPage();
  await manager.request.post("/api/auth/password/login", {
    data: { email: users.manager.email, password: E2E_PASSWORD },
    headers: { Origin: baseURL! },
  });
  await manager.goto(`/trucks?q=${plate}`);
  await expect(manager.getByRole("region", { name: "Trucks" }).getByRole("row").filter({ hasText: shown })).toHaveCount(
    1,
  );
  await managerContext.close();
});

test("staff cannot reach the register", async ({ page, loginAs, javaScript }) => {
  await loginAs("staff");
  await page.goto("/");
  await hydrated(page, javaScript);
  await expect(page.getByRole("link", { name: "Trucks" })).toHaveCount(0);
  for (const path of ["/trucks", "/trucks/new"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
    await expect(page.getByRole("heading", { name: "403 Forbidden" })).toBeVisible();
  }
  expect((await page.request.get("/api/trucks?limit=5")).status()).toBe(403);
});

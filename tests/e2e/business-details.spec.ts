import { expect, test } from "./fixtures";

// Both projects save the same values: there is one business, and they run at once.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("an admin saves business details with a logo; a non-image logo is refused with a message", async ({
  page,
  loginAs,
}) => {
  await loginAs("admin");
  await page.goto("/settings");
  await page.getByRole("link", { name: "Edit Business Details" }).click();
  await expect(page.getByRole("heading", { name: "Business Details" })).toBeVisible();
  await page.getByLabel("Company name").fill("PKS Trading Ltd");
  await page.getByLabel("Address").fill("12 Wharf Road\nApapa, Lagos");
  await page.getByLabel("Registration number (RC)").fill("RC 123456");
  await page.getByLabel("Bank", { exact: true }).fill("First Bank");
  await page.getByLabel("Account number").fill("3012345678");

  await page.locator('input[type="file"][name="logo"]').setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: Buffer.from("this is not a picture"),
  });
  await page.getByRole("button", { name: "Save Business Details" }).click();
  await expect(page.getByText("The logo must be a PNG or JPEG image")).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveValue("PKS Trading Ltd");

  // A phone photo of 3 MB: the form keeps none of it, says so and shows again what was typed,
  // with and without JavaScript (decision 0705).
  await page.locator('input[type="file"][name="logo"]').setInputFiles({
    name: "photo.png",
    mimeType: "image/png",
    buffer: Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024, 7)]),
  });
  await page.getByRole("button", { name: "Save Business Details" }).click();
  await expect(page.getByText("The logo must be at most 200 KB")).toBeVisible();
  await expect(page.getByLabel("Company name")).toHaveValue("PKS Trading Ltd");

  await page
    .locator('input[type="file"][name="logo"]')
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Save Business Details" }).click();
  await expect(page.getByRole("status")).toContainText("Business details saved");
  await expect(page.getByLabel("Company name")).toHaveValue("PKS Trading Ltd");
  const logo = page.getByRole("img", { name: "Current logo" });
  await expect(logo).toBeVisible();
  const src = (await logo.getAttribute("src"))!;
  const res = await page.request.get(src);
  expect(res.headers()["content-type"]).toBe("image/png");
  // (Its cache headers are checked in tests/integration/business-details.test.ts: here the
  // other project may have uploaded a newer logo in between.)
});

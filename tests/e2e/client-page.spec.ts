import { apiPoster, expect, hydrated, test, unique } from "./fixtures";
import { WIDTHS, type Width } from "./walk";

// A client's page and its quality rules (docs/decisions/1210): a manager opens a client from the
// Clients list, adds a rule in the Add Rule dialog, sees it in effect with its worked example,
// and a second rule on the same day is refused under the date. With JavaScript on and off, at
// desktop and phone widths. Staff cannot reach the page.

test("a manager opens a client from the list and adds a quality rule, in effect at once", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  for (const width of ["desktop", "phone"] as Width[]) {
    await page.setViewportSize(WIDTHS[width]);
    const name = `Quality Client ${unique()}`;
    const client = await post("/api/clients", { name, taxRate: "7.5", email: "gate@quality.test", taxNo: "TIN-77" });

    await page.goto(`/clients?q=${encodeURIComponent(name)}`);
    await hydrated(page, javaScript);
    await page.getByRole("listitem", { name }).getByRole("link", { name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    const details = page.getByRole("region", { name: "Client details" });
    await expect(details).toContainText("7.50%");
    await expect(details).toContainText("gate@quality.test");
    await expect(details).toContainText("TIN-77");
    const main = page.getByRole("main");
    for (const [link, href] of [
      ["Edit", `/clients/${client.id}/edit`],
      ["Statement", `/clients/${client.id}/statement`],
      ["Invoices", `/invoices?clientId=${client.id}`],
    ]) {
      await expect(main.getByRole("link", { name: link, exact: true })).toHaveAttribute("href", href);
    }
    await expect(page.getByText("No quality rules yet")).toBeVisible();

    await hydrated(page, javaScript);
    await main.getByRole("link", { name: "Add Rule" }).click();
    let dialog = page.getByRole("dialog", { name: "Add Quality Rule" });
    // Valid from starts at today.
    const today = await dialog.getByLabel("Valid from").inputValue();
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await dialog.getByLabel("Moisture threshold (%)").fill("16");
    await dialog.getByLabel("Deduction per point (%)").fill("1");
    await dialog.getByRole("button", { name: "Add Rule" }).click();
    await expect(page.getByRole("status")).toContainText("Quality rule added");
    await expect(page).toHaveURL(new RegExp(`/clients/${client.id}$`));

    const rules = page.getByRole("region", { name: "Quality rules, newest first" });
    const row = rules.getByRole("row").filter({ hasText: "16.00%" });
    await expect(row).toContainText("1.00%");
    await expect(row).toContainText("In effect");
    await expect(page.getByTestId("rule-example")).toContainText(
      "A reading of 18.5% is 2.5 points above 16%: it deducts 2.5 × 1% = 2.5% of the received weight.",
    );

    // The same day again: refused, said under the date, nothing added.
    await hydrated(page, javaScript);
    await main.getByRole("link", { name: "Add Rule" }).click();
    dialog = page.getByRole("dialog", { name: "Add Quality Rule" });
    await expect(dialog.getByLabel("Valid from")).toHaveValue(today);
    await dialog.getByLabel("Moisture threshold (%)").fill("14");
    await dialog.getByLabel("Deduction per point (%)").fill("2");
    await dialog.getByRole("button", { name: "Add Rule" }).click();
    dialog = page.getByRole("dialog", { name: "Add Quality Rule" });
    const validFrom = dialog.getByLabel("Valid from");
    await expect(validFrom).toHaveAttribute("aria-invalid", "true");
    // The message is the field's own: one of the ids the date box is described by.
    const describedBy = (await validFrom.getAttribute("aria-describedby"))!.split(" ");
    const message = /A rule from \w{3} \d{2}, \d{4} already exists; add one from another date/;
    await expect(
      dialog.locator(describedBy.map((id) => `[id="${id}"]`).join(",")).filter({ hasText: message }),
    ).toHaveCount(1);
    // What was typed is kept.
    await expect(dialog.getByLabel("Moisture threshold (%)")).toHaveValue("14");
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(rules.getByRole("row")).toHaveCount(2);

    if (javaScript && width === "phone") {
      // Nothing scrolls sideways on a 390 px phone.
      const [scroll, client] = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(scroll).toBeLessThanOrEqual(client);
    }
  }
});

test("staff cannot open a client's page or add a rule", async ({ page, loginAs }) => {
  await loginAs("staff");
  for (const path of ["/clients/1", "/clients/1/quality-rules/new"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(403);
  }
});

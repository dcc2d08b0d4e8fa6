import { apiPoster, expect, hydrated, test, unique } from "./fixtures";

// Where keyboard focus goes in a dialog, and that Tab stays inside it (aria-modal). Both are the
// browser's JavaScript at work: without it a dialog is a page of its own, and focus and Tab are
// the browser's, as on any page.
const NEEDS_JS = "initial focus and the Tab trap are set by the dialog's script; without JavaScript it is a plain page";

test.describe("dialog focus", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, NEEDS_JS);

  test("a Delete dialog starts on Cancel, so Enter does not delete", async ({ page, loginAs, baseURL }) => {
    await loginAs("manager");
    const name = `Focus Agent ${unique()}`;
    await apiPoster(page.request, baseURL!)("/api/agents", { name });
    await page.goto(`/agents?q=${encodeURIComponent(name)}`);
    await hydrated(page, true);
    const card = page.getByRole("listitem", { name });
    await card.getByRole("link", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Agent" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Cancel" })).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(dialog).toHaveCount(0);
    await expect(card).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Agent deleted successfully" })).toHaveCount(0);
  });

  test("Tab and Shift+Tab go round inside the dialog", async ({ page, loginAs, baseURL }) => {
    await loginAs("manager");
    const name = `Trap Agent ${unique()}`;
    await apiPoster(page.request, baseURL!)("/api/agents", { name });
    await page.goto(`/agents?q=${encodeURIComponent(name)}`);
    await hydrated(page, true);
    await page
      .getByRole("listitem", { name })
      .getByRole("link", { name: `Delete ${name}` })
      .click();
    const dialog = page.getByRole("dialog", { name: "Delete Agent" });
    const close = dialog.getByRole("link", { name: "Close" });
    const cancel = dialog.getByRole("link", { name: "Cancel" });
    const remove = dialog.getByRole("button", { name: "Delete" });
    await expect(cancel).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(remove).toBeFocused();
    // From the last control back to the first, never out to the page behind.
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(remove).toBeFocused();
    // Escape still closes it.
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
  });

  test("a form dialog still starts on its first field", async ({ page, loginAs }) => {
    await loginAs("manager");
    await page.goto("/agents");
    await hydrated(page, true);
    await page.getByRole("link", { name: "Add Agent" }).click();
    const dialog = page.getByRole("dialog", { name: "Add Agent" });
    await expect(dialog.getByLabel("Agent Name *")).toBeFocused();
  });

  test("a confirmation with a footer of its own starts on Cancel too (bulk Freeze)", async ({ page, loginAs }) => {
    await loginAs("admin");
    // The admin's own account: listed, and skipped if the form were sent (it is not).
    const me = (await (await page.request.get("/api/auth/user")).json()) as { id: string };
    await page.goto(`/settings/users/bulk?intent=freeze&userIds=${me.id}`);
    await hydrated(page, true);
    const dialog = page.getByRole("dialog", { name: "Freeze Selected Users" });
    await expect(dialog.getByRole("link", { name: "Cancel" })).toBeFocused();
  });
});

// User Management defects found by walking the app as an admin (decision 0400): each test runs
// with JavaScript on and off (the two projects), and at 390 and 1280 px where it is about layout.
import { expect, hydrated, test, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";
import { api, AXE_SOURCE, checkPage, ok, WIDTHS, type Width } from "./walk";

const SIZES = Object.keys(WIDTHS) as Width[];

type Made = { id: string; email: string; label: string };

/** A user made by the admin through the JSON call; without `named`, the user has no name. */
async function newUser(baseURL: string, { named = true, role = "staff" } = {}): Promise<Made> {
  const a = await api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const tag = unique();
  const email = `users-${tag}@e2e.test`;
  const names = named ? { firstName: "Chidinma", lastName: `Okonkwo-${tag.slice(-6)}` } : {};
  const made = await ok<{ id: string }>(await a.post("/api/admin/users", { data: { email, role, ...names } }));
  await a.dispose();
  return { id: made.id, email, label: named ? `Chidinma Okonkwo-${tag.slice(-6)}` : email };
}

async function asAdmin(baseURL: string, call: (a: Awaited<ReturnType<typeof api>>) => Promise<unknown>) {
  const a = await api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  await call(a);
  await a.dispose();
}

for (const size of SIZES) {
  test.describe(`at ${WIDTHS[size].width} px`, () => {
    test.use({ viewport: WIDTHS[size] });

    test("2. a User Management row keeps the name readable, with the buttons below it on a phone", async ({
      page,
      loginAs,
      baseURL,
    }) => {
      const user = await newUser(baseURL!);
      await loginAs("admin");
      await page.goto("/settings");
      const row = page.getByRole("list", { name: "Users" }).getByRole("listitem", { name: user.label });
      const name = row.getByText(user.label, { exact: true });
      const added = row.getByText(/^Added /);
      const del = row.getByRole("link", { name: `Delete ${user.label}` });
      await expect(del).toBeVisible();
      const [nameBox, addedBox, deleteBox, rowBox] = await Promise.all(
        [name, added, del, row].map(async (l) => (await l.boundingBox())!),
      );
      // The whole name shows, on one line; the date is one line.
      expect(await name.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(nameBox.height).toBeLessThan(30);
      expect(addedBox.height).toBeLessThan(24);
      expect(await row.getByText(user.email, { exact: true }).evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(
        true,
      );
      if (size === "phone") {
        // The buttons sit below the name, e-mail and date, inside the row.
        expect(deleteBox.y).toBeGreaterThanOrEqual(addedBox.y + addedBox.height);
        expect(deleteBox.x + deleteBox.width).toBeLessThanOrEqual(rowBox.x + rowBox.width + 1);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      } else {
        // Desktop: the buttons stay on the name's line, at the right.
        expect(deleteBox.y).toBeLessThan(nameBox.y + nameBox.height);
        expect(deleteBox.x).toBeGreaterThan(nameBox.x + nameBox.width);
      }
    });

    test("the Change Role dialog and the reset's page pass axe and fit the width", async ({
      page,
      loginAs,
      baseURL,
      javaScript,
    }) => {
      // axe runs as a script of the page: the project with JavaScript checks the same markup.
      test.skip(!javaScript, "axe needs JavaScript");
      const user = await newUser(baseURL!);
      await page.context().addInitScript({ content: AXE_SOURCE });
      await loginAs("admin");
      for (const url of [`/settings/users/${user.id}/role`, `/settings/users/${user.id}/temporary-password`]) {
        expect(await checkPage(page, url, { javaScript, width: size })).toEqual([]);
      }
    });
  });
}

test("9. reloading the page that shows a reset password neither resets it again nor loses it", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  const user = await newUser(baseURL!);
  await loginAs("admin");
  await page.goto(`/settings/users/${user.id}/reset`);
  await hydrated(page, javaScript);
  await page.getByRole("dialog", { name: "Reset Password" }).getByRole("button", { name: "Reset Password" }).click();
  const shown = page.getByRole("dialog", { name: "Password Reset Successful" });
  const password = (await shown.getByLabel("Temporary password").textContent())!.trim();
  expect(password).toMatch(/^\S{16}$/);
  await expect(page).toHaveURL(new RegExp(`/settings/users/${user.id}/temporary-password$`));
  await page.reload();
  const again = page.getByRole("dialog", { name: "Password Already Shown" });
  await expect(again).toContainText(user.email);
  await expect(page.getByTestId("temporary-password")).toHaveCount(0);
  // The password shown first still signs in: the reload did not reset it again.
  const signedIn = await api(baseURL!, user.email, password);
  await signedIn.dispose();
  await again.getByRole("link", { name: "Done" }).click();
  await expect(page).toHaveURL(/\/settings$/);
});

test("10. an admin makes another user an admin and back, confirming with the password when asked", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  const user = await newUser(baseURL!);
  await loginAs("admin");
  await page.goto("/settings");
  await hydrated(page, javaScript);
  const row = page.getByRole("list", { name: "Users" }).getByRole("listitem", { name: user.label });
  await row.getByRole("link", { name: `Change Role for ${user.label}` }).click();
  const dialog = page.getByRole("dialog", { name: "Change Role" });
  await expect(dialog).toContainText(`Change the role of ${user.label} (${user.email})?`);
  await dialog.getByLabel("New role").selectOption("admin");
  // The fixture session may be older than five minutes (decision 0600): then the password is asked.
  const password = dialog.getByLabel("Your current password");
  if (await password.isVisible()) await password.fill(E2E_PASSWORD);
  await dialog.getByRole("button", { name: "Change Role" }).click();
  await expect(page.getByRole("status")).toContainText(`${user.email} now has the Admin role.`);
  await expect(row.getByText("admin", { exact: true })).toBeVisible();

  // The JSON twin, from a fresh sign-in: back to staff.
  await asAdmin(baseURL!, async (a) => {
    const back = await a.patch(`/api/admin/users/${user.id}/role`, { data: { role: "staff" } });
    expect(back.status()).toBe(200);
    expect(await back.json()).toMatchObject({ id: user.id, role: "staff" });
  });
});

test("bulk: a nameless user is named once, deleted users take no box, and a failure says why", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  const nameless = await newUser(baseURL!, { named: false });
  const gone = await newUser(baseURL!);
  await asAdmin(baseURL!, async (a) => ok(await a.delete(`/api/admin/users/${gone.id}`)));
  await loginAs("admin");
  await page.goto("/settings");
  await hydrated(page, javaScript);
  const users = page.getByRole("list", { name: "Users" });
  await expect(users.getByRole("listitem", { name: gone.label })).toContainText("Deleted");
  await expect(users.getByRole("checkbox", { name: `Select ${gone.label}` })).toHaveCount(0);

  await users.getByRole("checkbox", { name: `Select ${nameless.email}` }).check();
  await page.getByRole("button", { name: "Freeze Selected", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Freeze Selected Users" });
  await expect(confirm.getByRole("listitem")).toHaveText([nameless.email]);

  // Deleted by someone else while the confirmation is open: the toast says so.
  await asAdmin(baseURL!, async (a) => ok(await a.delete(`/api/admin/users/${nameless.id}`)));
  await confirm.getByRole("button", { name: "Freeze User" }).click();
  const toast = page.getByRole("status");
  await expect(toast).toContainText("0 users updated, 1 failed");
  await expect(toast).toContainText(`${nameless.email}: already deleted`);
});

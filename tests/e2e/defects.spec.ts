// Defects a person hit: one test per defect, each run with JavaScript on and off
// (the two projects) and, where the item is about layout or appears on both, at 1280 and 390 px.
// Items 5 and 13 (reconciliation confirmation, invoice summary links) live with the invoices
// work; item 16 is tests/e2e/a11y.spec.ts.
import type { Page } from "@playwright/test";
import { todayIn } from "../../app/utils/dates";
import { desk, expect, hydrated, signInWithForm, test, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";
import { api, ok, walkContext, WIDTHS, type Width } from "./walk";

const SIZES = Object.keys(WIDTHS) as Width[];

async function admin(baseURL: string) {
  return api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
}

/** A new user made by the admin; `password` given: they have already replaced the temporary one. */
async function newUser(baseURL: string, role: "staff" | "manager", password?: string) {
  const a = await admin(baseURL);
  const email = `defect-${unique()}@e2e.test`;
  const { temporaryPassword } = await ok<{ temporaryPassword: string }>(
    await a.post("/api/admin/users", { data: { email, role, firstName: "Dee", lastName: "Fect" } }),
  );
  await a.dispose();
  if (password) {
    const u = await api(baseURL, email, temporaryPassword);
    await ok(
      await u.post("/api/auth/password/change", {
        data: { currentPassword: temporaryPassword, newPassword: password },
      }),
    );
    await u.dispose();
  }
  return { email, temporaryPassword };
}

async function signInAs(page: Page, baseURL: string, email: string, password: string) {
  const response = await page.request.post("/api/auth/password/login", {
    data: { email, password },
    headers: { Origin: baseURL },
  });
  expect(response.status()).toBe(200);
}

/** A delivery (and, when asked, its invoice) recorded by the admin through the JSON calls. */
async function recordDelivery(
  baseURL: string,
  {
    tons = "10.00",
    sellingRate,
    invoice = false,
    date,
  }: { tons?: string; sellingRate?: string; invoice?: boolean; date?: string } = {},
) {
  const a = await admin(baseURL);
  const agent = await ok<{ id: number; name: string }>(
    await a.post("/api/agents", { data: { name: `Defect Agent ${unique()}` } }),
  );
  const client = await ok<{ id: number; name: string }>(
    await a.post("/api/clients", { data: { name: `Defect Client ${unique()}` } }),
  );
  const delivery = await ok<{ id: number }>(
    await a.post("/api/deliveries", {
      data: { agentId: agent.id, clientId: client.id, tons, location: `Defect yard ${unique()}`, date },
    }),
  );
  if (sellingRate)
    await ok(await a.patch(`/api/deliveries/${delivery.id}`, { data: { sellingRate, buyingRate: "1000" } }));
  const created = invoice
    ? await ok<{ id: number; invoiceNo: string }>(await a.post("/api/invoices", { data: { deliveryId: delivery.id } }))
    : null;
  await a.dispose();
  return { agent, client, delivery, invoice: created };
}

for (const size of SIZES) {
  test.describe(`at ${WIDTHS[size].width} px`, () => {
    test.use({ viewport: WIDTHS[size] });

    test("1. Settings → Change Password takes typing and changes the password", async ({
      page,
      baseURL,
      javaScript,
    }) => {
      const password = "defect-first-password";
      const { email } = await newUser(baseURL!, "staff", password);
      await signInAs(page, baseURL!, email, password);
      await page.goto("/settings");
      await hydrated(page, javaScript);
      await page.getByRole("link", { name: "Change Password" }).click();
      const dialog = page.getByRole("dialog", { name: "Change Password" });
      const submit = dialog.getByRole("button", { name: "Change Password" });
      if (javaScript) await expect(submit).toBeDisabled();
      await dialog.getByLabel("Current password").pressSequentially(password);
      if (javaScript) await expect(submit).toBeDisabled();
      await dialog.getByLabel("New password", { exact: true }).pressSequentially("defect-second-password");
      await dialog.getByLabel("Confirm new password").fill("defect-second-password");
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByRole("status")).toContainText("Password changed successfully");
      await expect(page.getByText("Something went wrong")).toHaveCount(0);
      const again = await page.request.post("/api/auth/password/login", {
        data: { email, password: "defect-second-password" },
        headers: { Origin: baseURL! },
      });
      expect(again.status()).toBe(200);
    });

    test("3. a missing record is 404, a forbidden page 403, never a load failure", async ({
      page,
      loginAs,
      browser,
      baseURL,
      javaScript,
      users,
    }) => {
      await loginAs("manager");
      const missing = {
        "/deliveries/999999/edit": "Delivery not found",
        "/invoices/999999/pay": "Invoice not found",
        "/agents/999999/edit": "Agent not found",
      };
      for (const [path, message] of Object.entries(missing)) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
        await expect(page.getByText(message)).toBeVisible();
        await expect(page.getByText(/Failed to load/)).toHaveCount(0);
      }
      const staff = await browser.newContext({
        baseURL,
        extraHTTPHeaders: desk(),
        javaScriptEnabled: javaScript,
        viewport: WIDTHS[size],
      });
      const staffPage = await staff.newPage();
      await signInAs(staffPage, baseURL!, users.staff.email, E2E_PASSWORD);
      for (const path of ["/invoices", "/invoices/new", "/payments", "/deliveries/1/edit"]) {
        const response = await staffPage.goto(path);
        expect(response?.status(), path).toBe(403);
        await expect(staffPage.getByRole("heading", { name: "403 Forbidden" })).toBeVisible();
        await expect(staffPage.getByText(/Failed to load/)).toHaveCount(0);
      }
      await staff.close();
    });

    test("4. big or malformed ids and cursors are ignored on pages and a 400 on the API", async ({ page, loginAs }) => {
      await loginAs("admin");
      let response = await page.goto("/invoices?clientId=99999999999");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Invoices", exact: true })).toBeVisible();
      response = await page.goto("/invoices/new?deliveryId=99999999999");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("dialog", { name: "Generate Invoice" })).toBeVisible();
      response = await page.goto("/deliveries?cursor=2025-02-30_1");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Deliveries", exact: true })).toBeVisible();
      response = await page.goto("/deliveries?before=99999999999999_1");
      expect(response?.status()).toBe(200);
      for (const path of [
        "/api/invoices?clientId=99999999999",
        "/api/deliveries?cursor=2025-02-30_1",
        "/api/deliveries/99999999999",
      ]) {
        const answer = await page.request.get(path);
        expect([400, 404], path).toContain(answer.status());
      }
    });

    test("6. an invoiced delivery shows its invoice, locks tons, rates and client, and offers no Delete", async ({
      page,
      loginAs,
      baseURL,
      javaScript,
    }) => {
      const { delivery, invoice, client } = await recordDelivery(baseURL!, { tons: "7.00", invoice: true });
      await loginAs("admin");
      await page.goto(`/deliveries/${delivery.id}/edit`);
      await hydrated(page, javaScript);
      const dialog = page.getByRole("dialog", { name: "Edit Delivery" });
      await expect(dialog.getByRole("note")).toContainText(`Invoice #${invoice!.invoiceNo}`);
      await expect(dialog.getByTestId("readonly-tons")).toHaveText("7.00");
      await expect(dialog.getByTestId("readonly-client")).toHaveText(client.name);
      await expect(dialog.getByTestId("readonly-buyingRate")).toBeVisible();
      await expect(dialog.getByTestId("readonly-sellingRate")).toBeVisible();
      for (const label of ["Tons *", "Client", "Buying rate (₦/ton)", "Selling rate (₦/ton)"]) {
        await expect(dialog.getByLabel(label, { exact: true })).toHaveCount(0);
      }
      await expect(dialog.getByRole("link", { name: "Delete" })).toHaveCount(0);
      // What may still change, changes.
      await dialog.getByLabel("Logistics cost (₦)").fill("2,500");
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByRole("status")).toContainText("Delivery updated successfully");
      // The delete route says why instead of offering a button that fails.
      await page.goto(`/deliveries/${delivery.id}/delete`);
      await expect(page.getByRole("dialog", { name: "Cannot delete this delivery" })).toContainText(
        `Invoice #${invoice!.invoiceNo}`,
      );
      await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
    });

    test("7. a dialog over a list dims the whole screen, from the very top", async ({ page, loginAs, javaScript }) => {
      await loginAs("admin");
      for (const path of ["/agents/new", "/deliveries/new", "/settings/password"]) {
        await page.goto(path);
        await hydrated(page, javaScript);
        const overlay = page.getByRole("dialog").locator("xpath=..");
        const box = await overlay.boundingBox();
        expect(box, path).not.toBeNull();
        expect(box!.y, path).toBe(0);
        expect(box!.height, path).toBe(WIDTHS[size].height);
      }
    });

    test("9. a name that differs only in case or spaces is refused; long names stay readable", async ({
      page,
      loginAs,
      baseURL,
      javaScript,
    }) => {
      await loginAs("manager");
      const name = `Dup Agent ${unique()}`;
      const first = await page.request.post("/api/agents", { data: { name }, headers: { Origin: baseURL! } });
      expect(first.status()).toBe(201);
      await page.goto("/agents/new");
      await hydrated(page, javaScript);
      const dialog = page.getByRole("dialog", { name: "Add Agent" });
      await dialog.getByLabel("Agent Name *").fill(`  ${name.toUpperCase()}  `);
      await dialog.getByRole("button", { name: "Add Agent" }).click();
      await expect(dialog.getByText("already exists")).toBeVisible();
      const api409 = await page.request.post("/api/agents", {
        data: { name: ` ${name.toLowerCase()} ` },
        headers: { Origin: baseURL! },
      });
      expect(api409.status()).toBe(409);
      expect(((await api409.json()) as { message: string }).message).toContain("already exists");
      const clientName = `Dup Client ${unique()}`;
      expect(
        (
          await page.request.post("/api/clients", { data: { name: clientName }, headers: { Origin: baseURL! } })
        ).status(),
      ).toBe(201);
      expect(
        (
          await page.request.post("/api/clients", {
            data: { name: clientName.toUpperCase() },
            headers: { Origin: baseURL! },
          })
        ).status(),
      ).toBe(409);

      const long = `Agent with a very long name that a phone cannot show in one line ${unique()}`;
      expect(
        (await page.request.post("/api/agents", { data: { name: long }, headers: { Origin: baseURL! } })).status(),
      ).toBe(201);
      await page.goto(`/agents?q=${encodeURIComponent(long)}`);
      await expect(page.getByRole("listitem", { name: long }).getByTitle(long)).toBeVisible();
    });

    test("10. summary figures are compact at a million, money people check stays exact", async ({
      page,
      loginAs,
      baseURL,
    }) => {
      // 100 t x ₦65,000 = ₦6,500,000.00; ₦2,000,000.00 paid.
      const { invoice } = await recordDelivery(baseURL!, { tons: "100.00", sellingRate: "65000", invoice: true });
      await loginAs("manager");
      const paid = await page.request.post("/api/payments", {
        data: { invoiceId: invoice!.id, amount: "2000000", paymentDate: todayIn("Africa/Lagos") },
        headers: { Origin: baseURL! },
      });
      expect(paid.status()).toBe(201);
      await page.goto("/payments");
      const total = page.getByTestId("total-amount");
      await expect(total).toHaveText(/₦[\d.]+M/);
      await expect(total.locator("[title]")).toHaveAttribute("title", /^₦\d{1,3}(,\d{3})+\.\d{2}$/);
      await expect(page.getByText("₦2,000,000.00").first()).toBeVisible();
      await page.goto("/invoices");
      await expect(page.getByRole("listitem", { name: `Invoice #${invoice!.invoiceNo}` })).toContainText(
        "₦6,500,000.00",
      );
      await page.goto("/");
      await expect(page.getByTestId("stat-outstanding")).toHaveText(/₦[\d.]+M/);
    });

    test("11. signing in shows the success toast; the forced password page follows the spec", async ({
      page,
      baseURL,
      javaScript,
      users,
    }) => {
      await signInWithForm(page, users.manager.email, E2E_PASSWORD);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("status")).toContainText("Success");
      await expect(page.getByRole("status")).toContainText("You have been logged in successfully");
      await page.context().clearCookies();

      const { email, temporaryPassword } = await newUser(baseURL!, "staff");
      await signInWithForm(page, email, temporaryPassword);
      await expect(page).toHaveURL(/\/change-password$/);
      await hydrated(page, javaScript);
      const submit = page.getByRole("button", { name: "Change Password" });
      if (javaScript) {
        await expect(submit).toBeDisabled();
        await page.getByLabel("Current password").fill(temporaryPassword);
        await expect(submit).toBeDisabled();
      } else {
        await page.getByLabel("Current password").fill(temporaryPassword);
      }
      await page.getByLabel("New password", { exact: true }).fill("short");
      await page.getByLabel("Confirm new password").fill("different");
      await expect(submit).toBeEnabled();
      await submit.click();
      // Length before match: only the length message.
      await expect(page.getByText("Password too short")).toBeVisible();
      await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
      await expect(page.getByText("Passwords don't match")).toHaveCount(0);
      await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");

      await page.getByLabel("Current password").fill(temporaryPassword);
      await page.getByLabel("New password", { exact: true }).fill("defect-new-password");
      await page.getByLabel("Confirm new password").fill("defect-new-passwordX");
      if (javaScript) {
        // While the next attempt is on its way, the last attempt's message is gone.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route("**/change-password*", async (route) => {
          if (route.request().method() === "POST") await held;
          await route.continue();
        });
        await page.getByRole("button", { name: "Change Password" }).click();
        await expect(page.getByText("Password too short")).toHaveCount(0);
        release();
      } else {
        await page.getByRole("button", { name: "Change Password" }).click();
      }
      await expect(page.getByText("Passwords don't match")).toBeVisible();
      await expect(page.getByText("Password too short")).toHaveCount(0);

      await page.getByLabel("Current password").fill(temporaryPassword);
      await page.getByLabel("New password", { exact: true }).fill("defect-new-password");
      await page.getByLabel("Confirm new password").fill("defect-new-password");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("status")).toContainText("Password changed successfully");
    });

    test("12. every error under its own field, outlined; a summary only for the rest", async ({
      page,
      loginAs,
      javaScript,
      users,
    }) => {
      await page.goto("/login?dialog=email");
      await hydrated(page, javaScript);
      const signIn = page.getByRole("dialog", { name: "Sign in" });
      await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(signIn.getByText("Please enter your email")).toHaveCount(1);
      await expect(signIn.getByText("Please enter your password")).toHaveCount(1);
      await expect(signIn.getByText(/Missing credentials|both email and password/)).toHaveCount(0);
      await expect(signIn.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
      await expect(signIn.getByLabel("Email")).toHaveAccessibleDescription("Please enter your email");
      await expect(signIn.getByRole("alert")).toHaveCount(0);
      // A wrong password belongs to no one field: the summary says it.
      await signIn.getByLabel("Email").fill(users.staff.email);
      await signIn.getByLabel("Password").fill("not-the-password");
      await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(signIn.getByRole("alert")).toContainText("Invalid email or password");

      await loginAs("admin");
      await page.goto("/settings");
      await hydrated(page, javaScript);
      const rates = page.getByRole("region", { name: "Default Rates Configuration" });
      await rates.getByLabel("Buying Rate (₦ per ton)").fill("");
      await rates.getByLabel("Selling Rate (₦ per ton)").fill("12.34");
      await rates.getByLabel("Offloading Cost (₦ per delivery)").fill("");
      await rates.getByRole("button", { name: "Save Rates" }).click();
      const answer = page.getByRole("region", { name: "Default Rates Configuration" });
      await expect(answer.getByText("Buying rate is required")).toBeVisible();
      await expect(answer.getByText("Offloading cost is required")).toBeVisible();
      await expect(answer.getByLabel("Buying Rate (₦ per ton)")).toHaveAttribute("aria-invalid", "true");
      await expect(answer.getByLabel("Offloading Cost (₦ per delivery)")).toHaveAttribute("aria-invalid", "true");
      await expect(answer.getByLabel("Selling Rate (₦ per ton)")).not.toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText("Failed to update settings")).toHaveCount(0);
      await expect(page.getByText("Settings updated successfully")).toHaveCount(0);
    });

    test("15. the temporary password and the two-factor key have copy buttons with JavaScript", async ({
      page,
      loginAs,
      javaScript,
    }) => {
      if (javaScript) await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      // Setting up two-factor wants a sign-in of the last 5 minutes.
      await loginAs("admin", { fresh: true });
      await page.goto("/settings/users/new");
      await hydrated(page, javaScript);
      const dialog = page.getByRole("dialog", { name: "Add User" });
      await dialog.getByLabel("Email *").fill(`copy-${unique()}@e2e.test`);
      await dialog.getByLabel("Role *").selectOption("staff");
      await dialog.getByRole("button", { name: "Create User" }).click();
      const created = page.getByRole("dialog", { name: "User Created" });
      const password = (await created.getByTestId("temporary-password").textContent())!.trim();
      await expect(created.getByTestId("temporary-password")).toHaveClass(/select-all/);
      const copy = created.getByRole("button", { name: "Copy password to clipboard" });
      if (javaScript) {
        await copy.click();
        await expect(copy).toHaveText("Copied");
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
      } else {
        await expect(copy).toHaveCount(0);
      }

      await page.goto("/settings/two-factor");
      await hydrated(page, javaScript);
      const setup = page.getByRole("dialog", { name: "Set Up Two-factor Authentication" });
      // The admin is shared by the runs at 1280 and 390 px: a set-up one of them started is shown
      // again (GET never writes a new secret), so "Set up" is there only the first time.
      const setUp = setup.getByRole("button", { name: "Set up" });
      await expect(setUp.or(setup.getByTestId("totp-secret")).first()).toBeVisible();
      if (await setUp.isVisible()) await setUp.click();
      const secret = await setup.getByTestId("totp-secret").getAttribute("data-secret");
      await expect(setup.getByTestId("totp-secret")).toHaveClass(/select-all/);
      const copyKey = setup.getByRole("button", { name: "Copy key to clipboard" });
      if (javaScript) {
        await copyKey.click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      } else {
        await expect(copyKey).toHaveCount(0);
      }
    });
  });
}

test("2. phone dashboards fit 390 px: bars on screen, wide tables scroll in their own box", async ({
  page,
  loginAs,
  browser,
  baseURL,
  javaScript,
  users,
}) => {
  await page.setViewportSize(WIDTHS.phone);
  await recordDelivery(baseURL!);
  await loginAs("admin");
  await page.goto("/");
  await hydrated(page, javaScript);
  const bar = page.getByRole("navigation", { name: "Mobile" });
  await expect(bar.getByLabel("Menu")).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole("banner").getByLabel("Open menu")).toBeInViewport({ ratio: 1 });
  for (const name of ["Recent Deliveries", "Pending Invoices"]) {
    const box = await page.getByRole("heading", { name, exact: true }).locator("xpath=..").boundingBox();
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(WIDTHS.phone.width);
  }
  const table = page.getByRole("region", { name: "Recent deliveries" });
  const tableBox = await table.boundingBox();
  expect(tableBox!.x + tableBox!.width).toBeLessThanOrEqual(WIDTHS.phone.width);
  await bar.getByLabel("Menu").click();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeInViewport();

  const staff = await browser.newContext({
    baseURL,
    extraHTTPHeaders: desk(),
    javaScriptEnabled: javaScript,
    viewport: WIDTHS.phone,
  });
  const staffPage = await staff.newPage();
  await signInAs(staffPage, baseURL!, users.staff.email, E2E_PASSWORD);
  await staffPage.request.post("/api/deliveries", {
    data: { agentId: 1, tons: "3.00", location: "Phone yard" },
    headers: { Origin: baseURL! },
  });
  await staffPage.goto("/");
  const status = await staffPage.getByRole("columnheader", { name: "Status" }).boundingBox();
  expect(status!.x + status!.width).toBeLessThanOrEqual(WIDTHS.phone.width);
  await staff.close();
});

test("8. the collapsed sidebar's tooltips show, unclipped", async ({ browser, baseURL, javaScript, users }) => {
  const context = await walkContext(browser, baseURL!, { theme: "light", width: "desktop", javaScript });
  const { hostname } = new URL(baseURL!);
  await context.addCookies([{ name: "sidebar_state", value: "false", domain: hostname, path: "/" }]);
  await context.request.post("/api/auth/password/login", {
    data: { email: users.admin.email, password: E2E_PASSWORD },
    headers: { Origin: baseURL! },
  });
  const page = await context.newPage();
  await page.goto("/deliveries");
  await expect(page.locator("[data-sidebar-state]")).toHaveAttribute("data-sidebar-state", "collapsed");
  const item = page
    .getByRole("navigation", { name: "Main" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: "Payments" }) });
  await item.hover();
  const tooltip = item.locator("span[aria-hidden]").filter({ hasText: "Payments" });
  await expect.poll(() => tooltip.evaluate((el) => getComputedStyle(el).opacity)).toBe("1");
  // Nothing between the tooltip and the page clips it.
  const clippedBy = await tooltip.evaluate((el) => {
    const box = el.getBoundingClientRect();
    for (let node = el.parentElement; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const outer = node.getBoundingClientRect();
      if (box.left < outer.left || box.right > outer.right || box.top < outer.top || box.bottom > outer.bottom)
        return node.tagName + "." + node.className;
    }
    return null;
  });
  expect(clippedBy).toBeNull();
  await context.close();
});

test("14. deliveries page back and forth: Older, Newer and First page, filters kept", async ({
  page,
  baseURL,
  javaScript,
}) => {
  test.slow();
  const password = "defect-paging-password";
  const { email } = await newUser(baseURL!, "staff", password);
  const staff = await api(baseURL!, email, password);
  // 55 deliveries, old enough to stay out of this month's figures.
  for (let i = 0; i < 55; i++) {
    const date = `2020-01-${String((i % 28) + 1).padStart(2, "0")}`;
    await ok(
      await staff.post("/api/deliveries", { data: { agentId: 1, tons: "1.00", location: `Paging ${i}`, date } }),
    );
  }
  await staff.dispose();
  await signInAs(page, baseURL!, email, password);
  for (const size of SIZES) {
    await page.setViewportSize(WIDTHS[size]);
    await page.goto("/deliveries?from=2020-01-01");
    await hydrated(page, javaScript);
    const pager = page.getByRole("navigation", { name: "Pages of deliveries" });
    const rows = page.getByRole("region", { name: "Deliveries", exact: true }).locator("tbody tr");
    await expect(rows).toHaveCount(50);
    await expect(pager.getByRole("link", { name: "Newer" })).toHaveCount(0);
    await expect(pager.getByRole("link", { name: "First page" })).toHaveCount(0);
    await pager.getByRole("link", { name: "Older" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(rows).toHaveCount(5);
    await pager.getByRole("link", { name: "Newer" }).click();
    await expect(page).toHaveURL(/before=/);
    await expect(rows).toHaveCount(50);
    await page.goto("/deliveries?from=2020-01-01");
    await pager.getByRole("link", { name: "Older" }).click();
    await pager.getByRole("link", { name: "First page" }).click();
    await expect(page).not.toHaveURL(/cursor=|before=/);
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(rows).toHaveCount(50);
  }
});

import { request as playwrightRequest, type Page } from "@playwright/test";
import { generate } from "otplib";
import { desk, expect, signInWithForm, test, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";

/** A fresh user created through the admin API, signed in once to replace the temporary password. */
async function createUserViaApi(baseURL: string, role: "staff" | "manager", password: string) {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, ...desk() } });
  expect(
    (
      await api.post("/api/auth/password/login", { data: { email: FIXTURE_USERS.admin.email, password: E2E_PASSWORD } })
    ).status(),
  ).toBe(200);
  const email = `sec-${unique()}@e2e.test`;
  const created = await api.post("/api/admin/users", { data: { email, role, firstName: "Sec", lastName: unique() } });
  expect(created.status()).toBe(201);
  const { temporaryPassword } = await created.json();
  await api.dispose();
  const user = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, ...desk() } });
  expect((await user.post("/api/auth/password/login", { data: { email, password: temporaryPassword } })).status()).toBe(
    200,
  );
  expect(
    (
      await user.post("/api/auth/password/change", {
        data: { currentPassword: temporaryPassword, newPassword: password },
      })
    ).status(),
  ).toBe(200);
  await user.dispose();
  return email;
}

async function logout(page: Page) {
  await page.getByLabel("User menu").click();
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test("an admin adds a staff user who must change the temporary password; freezing ends their session", async ({
  page,
  loginAs,
  browser,
  javaScript,
  baseURL,
  users,
}) => {
  await loginAs("admin");
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();
  // The admin's own row: no checkbox and no buttons.
  const ownRow = page.getByRole("listitem", { name: `${users.admin.firstName} ${users.admin.lastName}` });
  await expect(ownRow).toContainText(users.admin.email);
  await expect(ownRow.getByRole("checkbox")).toHaveCount(0);
  await expect(ownRow.getByRole("button")).toHaveCount(0);
  await expect(ownRow.getByRole("link")).toHaveCount(0);

  await page.getByRole("link", { name: "Add User" }).click();
  const dialog = page.getByRole("dialog", { name: "Add User" });
  await dialog.getByRole("button", { name: "Create User" }).click();
  if (javaScript) {
    // The browser's own required-field check stops the empty form; nothing is created.
    await expect(dialog).toBeVisible();
  }
  const email = `yard-${unique()}@e2e.test`;
  await dialog.getByLabel("Email *").fill(email);
  await dialog.getByLabel("Role *").selectOption("staff");
  await dialog.getByLabel("First name").fill("Yinka");
  await dialog.getByRole("button", { name: "Create User" }).click();

  const created = page.getByRole("dialog", { name: "User Created" });
  await expect(created).toBeVisible();
  await expect(created.getByRole("link", { name: "Close" })).toHaveCount(0);
  const temporaryPassword = (await created.getByLabel("Temporary password").textContent())!.trim();
  expect(temporaryPassword.length).toBeGreaterThanOrEqual(12);
  await created.getByRole("link", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const row = page.getByRole("listitem", { name: `Yinka` }).filter({ hasText: email });
  await expect(row).toContainText("staff");

  // The new user, in another browser, signs in with the temporary password and must change it.
  const other = await browser.newContext({ baseURL, extraHTTPHeaders: desk(), javaScriptEnabled: javaScript });
  const staffPage = await other.newPage();
  await signInWithForm(staffPage, email, temporaryPassword);
  await expect(staffPage).toHaveURL(/\/change-password$/);
  await staffPage.getByLabel("Current password").fill(temporaryPassword);
  await staffPage.getByLabel("New password", { exact: true }).fill("yinka-own-password");
  await staffPage.getByLabel("Confirm new password").fill("yinka-own-password");
  await staffPage.getByRole("button", { name: "Change Password" }).click();
  await expect(staffPage.getByRole("heading", { name: "Staff Dashboard" })).toBeVisible();

  // The admin freezes them: their open session ends at once.
  await row.getByRole("button", { name: /^Freeze/ }).click();
  await expect(page.getByRole("status")).toContainText("User frozen");
  await expect(row).toContainText("Frozen");
  await staffPage.goto("/settings");
  await expect(staffPage).toHaveURL(/\/login/);
  await signInWithForm(staffPage, email, "yinka-own-password");
  await expect(staffPage.getByRole("alert")).toContainText("not active");

  if (javaScript) {
    // Bulk buttons appear once something is selected; Select All counts.
    await expect(page.getByRole("button", { name: "Freeze Selected", exact: true })).toHaveCount(0);
    const boxes = page.getByRole("list", { name: "Users" }).getByRole("checkbox");
    const count = await boxes.count();
    await page.getByLabel(/^Select All/).check();
    await expect(page.getByText(`Select All (${count} selected)`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Freeze Selected", exact: true })).toBeVisible();
    await page.getByLabel(/^Select All/).uncheck();
    await expect(page.getByText("Select All (0 selected)")).toBeVisible();
  }
  // Bulk unfreeze through the confirmation (a GET form and a POST confirmation without JS).
  await row.getByRole("checkbox").check();
  if (javaScript) await expect(page.getByText("Select All (1 selected)")).toBeVisible();
  await page.getByRole("button", { name: "Unfreeze Selected" }).click();
  const confirm = page.getByRole("dialog", { name: "Unfreeze Selected Users" });
  await expect(confirm).toContainText(email);
  await confirm.getByRole("button", { name: "Unfreeze User" }).click();
  await expect(page.getByRole("status")).toContainText("1 user updated successfully");
  await expect(row).not.toContainText("Frozen");
  await signInWithForm(staffPage, email, "yinka-own-password");
  await expect(staffPage.getByRole("heading", { name: "Staff Dashboard" })).toBeVisible();

  // Reset: a new temporary password, and the open session ends.
  await row.getByRole("link", { name: /^Reset Password/ }).click();
  await page.getByRole("dialog", { name: "Reset Password" }).getByRole("button", { name: "Reset Password" }).click();
  const reset = page.getByRole("dialog", { name: "Password Reset Successful" });
  const newTemporary = (await reset.getByLabel("Temporary password").textContent())!.trim();
  expect(newTemporary).not.toBe(temporaryPassword);
  await reset.getByRole("link", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await staffPage.goto("/settings");
  await expect(staffPage).toHaveURL(/\/login/);

  // Delete asks first and says it cannot be undone.
  await row.getByRole("link", { name: /^Delete/ }).click();
  const del = page.getByRole("dialog", { name: "Delete User" });
  await expect(del).toContainText("cannot be undone");
  await del.getByRole("button", { name: "Delete User" }).click();
  await expect(page.getByRole("status")).toContainText("User deleted successfully");
  await expect(row).toContainText("Deleted");
  await expect(row.getByRole("button", { name: /Freeze|Unfreeze/ })).toHaveCount(0);
  await other.close();
});

test("a user turns on two-factor codes and then needs a code to sign in", async ({ page, javaScript, baseURL }) => {
  const password = "totp-user-password";
  const email = await createUserViaApi(baseURL!, "manager", password);
  await signInWithForm(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Set Up Two-factor" }).click();
  const setup = page.getByRole("dialog", { name: "Set Up Two-factor Authentication" });
  await setup.getByRole("button", { name: "Set up" }).click();
  await expect(setup.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await setup.getByLabel("Or enter this key").textContent())!.replace(/\s/g, "");
  await setup.getByLabel("6-digit code").fill("000000");
  await setup.getByRole("button", { name: "Turn On" }).click();
  await expect(setup.getByText("Invalid authenticator code")).toBeVisible();
  const now = Math.floor(Date.now() / 1000);
  await setup.getByLabel("6-digit code").fill(await generate({ secret, epoch: now }));
  await setup.getByRole("button", { name: "Turn On" }).click();
  // The recovery codes' copy button has a status of its own: the toast is the one that says so.
  await expect(page.getByRole("status").filter({ hasText: "Two-factor authentication enabled" })).toBeVisible();
  // The recovery codes are shown once (decision 0401); tests/e2e/sign-in-hardening.spec.ts uses them.
  await page
    .getByRole("dialog", { name: "Save Your Recovery Codes" })
    .getByRole("link", { name: "I Have Saved Them" })
    .click();
  await expect(page.getByRole("link", { name: "Turn Off Two-factor" })).toBeVisible();
  await logout(page);

  await signInWithForm(page, email, password);
  await expect(page).toHaveURL(/\/login\/verify/);
  const step = page.getByRole("dialog", { name: "Two-factor authentication" });
  const input = step.getByLabel("Authentication code");
  await expect(input).toHaveAttribute("maxlength", "6");
  await expect(input).toHaveAttribute("inputmode", "numeric");
  if (javaScript) {
    await input.fill("12ab");
    await expect(input).toHaveValue("12");
    await expect(step.getByRole("button", { name: "Verify" })).toBeDisabled();
  }
  const wrong = (await generate({ secret, epoch: now + 30 })) === "123456" ? "654321" : "123456";
  await input.fill(wrong);
  await step.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toContainText("Invalid authenticator code");
  // The set-up code's time step is used up; the next step's code is still within the window.
  await page.getByLabel("Authentication code").fill(await generate({ secret, epoch: now + 30 }));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Manager Dashboard" })).toBeVisible();
});

test("a user registers a passkey and signs in with it, with and without the e-mail", async ({
  page,
  javaScript,
  baseURL,
}) => {
  test.skip(!javaScript, "WebAuthn ceremonies need JavaScript");
  const password = "passkey-user-password";
  const email = await createUserViaApi(baseURL!, "staff", password);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await signInWithForm(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Add Passkey" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Passkey" });
  await dialog.getByRole("button", { name: "Register Passkey" }).click();
  // A staff user's Settings page words it the spec's non-admin way.
  await expect(dialog.getByText("Please enter a device name")).toBeVisible();
  await dialog.getByLabel("Device name").fill("Yard phone");
  await dialog.getByRole("button", { name: "Register Passkey" }).click();
  await expect(page.getByRole("status")).toContainText("Passkey registered");
  await expect(page.getByRole("list", { name: "Passkeys" })).toContainText("Yard phone");
  await expect(page.getByRole("list", { name: "Passkeys" })).toContainText("Never used");
  await logout(page);

  await page.goto("/login?dialog=passkey");
  await page.getByLabel("Email (optional)").fill(email);
  await page.getByRole("button", { name: "Sign in with passkey" }).click();
  await expect(page).toHaveURL(/\/deliveries$/);
  await expect(page.getByLabel("User menu")).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByRole("list", { name: "Passkeys" })).toContainText("Last used");
  await logout(page);

  await page.goto("/login?dialog=passkey");
  await page.getByRole("button", { name: "Sign in with passkey" }).click();
  await expect(page).toHaveURL(/\/deliveries$/);
  await expect(page.getByLabel("User menu")).toBeVisible();

  await page.goto("/settings");
  await page.getByRole("link", { name: "Delete passkey Yard phone" }).click();
  await page.getByRole("dialog", { name: "Delete Passkey" }).getByRole("button", { name: "Delete Passkey" }).click();
  await expect(page.getByRole("status")).toContainText("Passkey deleted successfully");
  await expect(page.getByText("No passkeys registered yet.")).toBeVisible();
});

test("the role switcher shows for admins only, and Switch needs a different role", async ({
  page,
  loginAs,
  javaScript,
  browser,
  baseURL,
  users,
}) => {
  await loginAs("admin");
  await page.goto("/settings");
  await page.getByLabel("Role switcher", { exact: true }).click();
  const card = page.getByRole("region", { name: "Development Role Switcher" });
  await expect(card.getByText("testing only")).toBeVisible();
  await expect(card.getByLabel("Admin (+ User Management)")).toBeChecked();
  await expect(card.getByLabel("Staff (Operations Only)")).toBeVisible();
  await expect(card.getByLabel("Manager (Full Access)")).toBeVisible();
  if (javaScript) {
    await expect(card.getByRole("button", { name: "Switch" })).toBeDisabled();
    await card.getByLabel("Manager (Full Access)").check();
    await expect(card.getByRole("button", { name: "Switch" })).toBeEnabled();
  } else {
    await card.getByRole("button", { name: "Switch" }).click();
    await expect(page.getByRole("status")).toContainText("Role unchanged");
  }

  const other = await browser.newContext({ baseURL, extraHTTPHeaders: desk(), javaScriptEnabled: javaScript });
  const staffPage = await other.newPage();
  const response = await staffPage.request.post("/api/auth/password/login", {
    data: { email: users.staff.email, password: E2E_PASSWORD },
    headers: { Origin: baseURL! },
  });
  expect(response.status()).toBe(200);
  await staffPage.goto("/settings");
  await expect(staffPage.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
  await expect(staffPage.getByLabel("Role switcher", { exact: true })).toHaveCount(0);
  await other.close();
});

test("the bulk admin calls reach their own routes (static segments beat :id)", async ({
  page,
  loginAs,
  javaScript,
}) => {
  test.skip(!javaScript, "a JSON API check: once is enough");
  await loginAs("admin");
  const me = await (await page.request.get("/api/auth/user")).json();
  const bulk = await page.request.delete("/api/admin/users/bulk", { data: { userIds: [me.id] } });
  expect(bulk.status()).toBe(200);
  expect(await bulk.json()).toMatchObject({ success: [], failed: [me.id] });
  const bulkStatus = await page.request.patch("/api/admin/users/bulk/status", {
    data: { userIds: [me.id], status: "frozen" },
  });
  expect(await bulkStatus.json()).toMatchObject({ success: [], failed: [me.id] });
  const list = await page.request.get("/api/admin/users");
  expect((await list.json()).some((u: { id: string }) => u.id === me.id)).toBe(true);
});

import { expect, hydrated, test } from "./fixtures";

// Decisions 0900, 0901: the audit trail answers "who changed this rate, and when?", and a closed month
// refuses a back-dated payment with a clear message. Both run with JavaScript on and off.

test("an admin changes a default rate, then filters the audit trail and sees who changed it", async ({
  page,
  loginAs,
  javaScript,
  users,
}) => {
  // The projects run at once, and another journey changes the selling and buying rates: each
  // project here changes a rate no other journey reads, to a value of its own.
  const tax = `${10 + Math.floor(Math.random() * 80)}.${10 + Math.floor(Math.random() * 89)}`;
  const offloading = 1000 + Math.floor(Math.random() * 8999);
  // The trail words each field and value (decision 0900): "Tax rate 12.34%", "Offloading cost ₦1,234.50".
  const field = javaScript
    ? { label: "Tax Rate (%)", key: "taxRate", value: tax, words: "Tax rate", shown: `${tax}%`, was: /^\d+\.\d{2}%$/ }
    : {
        label: "Offloading Cost (₦ per delivery)",
        key: "offloadingCost",
        value: `${offloading}.50`,
        words: "Offloading cost",
        shown: `₦${offloading.toLocaleString("en-US")}.50`,
        was: /^₦[\d,]+\.\d{2}$/,
      };
  await loginAs("admin");
  // The rate changes through the JSON call, which saves only the fields it is given: the rates
  // form posts every rate it shows, so a save here could write back a rate another journey of
  // the shared server changed a moment earlier (that journey, agents-clients, uses the form).
  const saved = await page.request.patch("/api/settings", { data: { [field.key]: field.value } });
  expect(saved.status()).toBe(200);
  await page.goto("/settings");
  await hydrated(page, javaScript);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit Trail" }).click();
  await expect(page.getByRole("heading", { name: "Audit Trail" })).toBeVisible();
  await hydrated(page, javaScript);
  const filters = page.getByRole("form", { name: "Filter audit events" });
  await filters.getByLabel("Record", { exact: true }).selectOption("settings");
  await filters.getByLabel("Changed by (e-mail)").fill(users.admin.email);
  await filters.getByLabel("What happened").selectOption("settings.update");
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=settings\.update/);

  // Other journeys save the rates too, and a later save may show this value as its "before":
  // the event is the one whose change of this field ends at this test's own value.
  const escaped = field.shown.replace(/[.$]/g, "\\$&");
  const event = page
    .getByRole("list", { name: "Audit events" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("row", { name: new RegExp(`^${field.words}\\b.* ${escaped}$`) }) });
  await expect(event).toHaveCount(1);
  await expect(event).toContainText("Settings changed");
  await expect(event).toContainText(`by ${users.admin.firstName} ${users.admin.lastName}`);
  // What changed, before → after.
  const row = event.getByRole("row", { name: new RegExp(`^${field.words}\\b`) });
  await expect(row.getByRole("cell").nth(1)).toHaveText(`→ ${field.shown}`);
  await expect(row.getByRole("cell").nth(0)).toHaveText(field.was);
  await expect(row.getByRole("cell").nth(0)).not.toHaveText(field.shown);
});

test("close a month, then a back-dated payment is refused with the message", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  await loginAs("admin");
  const agents = await (await page.request.get("/api/agents")).json();
  const delivery = await (
    await page.request.post("/api/deliveries", {
      data: { agentId: agents[0].id, tons: "1.00", location: `Closed month ${javaScript ? "js" : "nojs"}` },
    })
  ).json();
  expect((await page.request.patch(`/api/deliveries/${delivery.id}`, { data: { sellingRate: "5000" } })).status()).toBe(
    200,
  );
  const invoice = await (await page.request.post("/api/invoices", { data: { deliveryId: delivery.id } })).json();
  expect(invoice.id).toBeGreaterThan(0);

  // Closing is cumulative and a repeated close changes nothing, so both projects may close
  // January 2000 in either order. The browser tests share one server, and a close holds every
  // earlier month too, so the month is older than any date another test writes.
  // The card offers only the months still open (decision 0901), and January 2000 may already be
  // closed: the confirmation's post is made as it would be.
  const response = await page.request.post("/settings/periods", {
    form: { intent: "close", month: "2000-01" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto("/settings");
  await hydrated(page, javaScript);
  await expect(page.getByRole("status")).toContainText(/January 2000 (was already closed|closed)/);
  await expect(page.getByTestId("closed-through")).toContainText("Closed through");

  await page.goto(`/invoices/${invoice.id}/pay`);
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Record Payment" });
  await dialog.getByLabel("Amount (₦)").fill("1000");
  await dialog.getByLabel("Payment date").fill("2000-01-15");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(dialog).toContainText("This month is closed");
  await expect(dialog.getByLabel("Payment date")).toHaveAttribute("aria-invalid", "true");

  const payments = (await (await page.request.get("/api/payments")).json()) as { invoiceId: number }[];
  expect(payments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(0);
});

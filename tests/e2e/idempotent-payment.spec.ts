import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** An invoice of ₦5,000 to pay, made through the JSON calls of the signed-in manager. */
async function invoiceToPay(page: Page, location: string): Promise<{ id: number }> {
  const agents = await (await page.request.get("/api/agents")).json();
  const delivery = await (
    await page.request.post("/api/deliveries", { data: { agentId: agents[0].id, tons: "1.00", location } })
  ).json();
  // The rates of the moment may be 0 here: the manager sets this delivery's selling rate.
  expect((await page.request.patch(`/api/deliveries/${delivery.id}`, { data: { sellingRate: "5000" } })).status()).toBe(
    200,
  );
  const invoice = await (await page.request.post("/api/invoices", { data: { deliveryId: delivery.id } })).json();
  expect(invoice.id).toBeGreaterThan(0);
  return invoice;
}

// Decision 0805: Record Payment submitted twice (a double tap, a retry on a weak connection)
// records one payment, and both posts land on the same page. Written for JavaScript off, where
// nothing on the page can stop the second post; it holds with JavaScript on too.
test("Record Payment submitted twice records one payment", async ({ page, loginAs, javaScript }) => {
  await loginAs("manager");
  const invoice = await invoiceToPay(page, `Twice ${javaScript ? "js" : "nojs"}`);

  await page.goto(`/invoices/${invoice.id}/pay`);
  const dialog = page.getByRole("dialog", { name: "Record Payment" });
  await dialog.getByLabel("Amount (₦)").fill("1000");
  await dialog.getByLabel("Reference (optional)").fill("TWICE");
  // The first post of this very form (its hidden key included), as a retry would send it.
  const form = Object.fromEntries(
    await Promise.all(
      ["idempotencyKey", "amount", "paymentDate", "reference"].map(
        async (name) => [name, await page.locator(`form [name="${name}"]`).inputValue()] as const,
      ),
    ),
  );
  expect(form.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  const first = await page.request.post(`/invoices/${invoice.id}/pay`, {
    form,
    maxRedirects: 0,
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(first.status()).toBe(302);
  // The second: the button itself.
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(page.getByRole("status")).toContainText("Payment recorded successfully");
  expect(new URL(page.url()).pathname).toBe(first.headers()["location"]);

  const payments = (await (await page.request.get("/api/payments")).json()) as {
    invoiceId: number;
    reference: string;
  }[];
  expect(payments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
});

test.describe("an answer lost on the way back", () => {
  // Remix logs the proxy page it could not decode as a SyntaxError before it throws.
  test.use({ expectedConsole: /net::ERR_CONNECTION_RESET|status of 502|^SyntaxError/ });

  // A payment that landed but whose answer was lost (the connection dropped on the way back): the
  // dialog stays as it was, with its key, and says so; sent again, it records nothing new. Before,
  // the failed fetch showed the error page, and the dialog opened again with a new key.
  test("Record Payment whose answer is lost keeps the dialog and its key", async ({ page, loginAs, javaScript }) => {
    test.skip(!javaScript, "without JavaScript the browser resends the same post itself");
    await loginAs("manager");
    const invoice = await invoiceToPay(page, "Lost answer");

    await page.goto(`/invoices/${invoice.id}/pay`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const dialog = page.getByRole("dialog", { name: "Record Payment" });
    await dialog.getByLabel("Amount (₦)").fill("1000");
    const key = await page.locator('form [name="idempotencyKey"]').inputValue();
    // The post reaches the server and is recorded; its answer never reaches the page.
    let landed = 0;
    await page.route(`**/invoices/${invoice.id}/pay.data*`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await route.fetch({ maxRedirects: 0 });
      landed++;
      await route.abort("connectionreset");
    });
    await dialog.getByRole("button", { name: "Record Payment" }).click();
    await expect(dialog).toContainText("No answer from the server");
    expect(landed).toBe(1);
    await expect(dialog.getByLabel("Amount (₦)")).toHaveValue("1,000");
    expect(await page.locator('form [name="idempotencyKey"]').inputValue()).toBe(key);

    await page.unroute(`**/invoices/${invoice.id}/pay.data*`);
    await dialog.getByRole("button", { name: "Record Payment" }).click();
    await expect(page.getByRole("status")).toContainText("Payment recorded successfully");
    const payments = (await (await page.request.get("/api/payments")).json()) as { invoiceId: number }[];
    expect(payments.filter((p) => p.invoiceId === invoice.id)).toHaveLength(1);
  });

  // A proxy's own error page instead of the app's answer (the payment landed behind it), then
  // Close: the invoice behind the dialog loads again and shows the payment that may have landed.
  test("Record Payment answered by a proxy's error page, then closed, shows the invoice as it now is", async ({
    page,
    loginAs,
    javaScript,
  }) => {
    test.skip(!javaScript, "without JavaScript the browser shows the proxy's page");
    await loginAs("manager");
    const invoice = await invoiceToPay(page, "Proxy");

    await page.goto(`/invoices/${invoice.id}/payment`);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect(page.getByRole("heading", { name: "Payments (0)" })).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "Record Payment" });
    await dialog.getByLabel("Amount (₦)").fill("1000");
    await page.route(`**/invoices/${invoice.id}/payment.data*`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await route.fetch({ maxRedirects: 0 });
      await route.fulfill({ status: 502, contentType: "text/html", body: "<html><body>Bad gateway</body></html>" });
    });
    await dialog.getByRole("button", { name: "Record Payment" }).click();
    await expect(dialog).toContainText("No answer from the server");
    await page.unroute(`**/invoices/${invoice.id}/payment.data*`);
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("heading", { name: "Payments (1)" })).toBeVisible();
  });
});

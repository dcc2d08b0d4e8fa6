import { expect, test } from "./fixtures";

// Issue 11: Record Payment submitted twice (a double tap, a retry on a weak connection)
// records one payment, and both posts land on the same page. Written for JavaScript off, where
// nothing on the page can stop the second post; it holds with JavaScript on too.
test("Record Payment submitted twice records one payment", async ({ page, loginAs, javaScript }) => {
  await loginAs("manager");
  const agents = await (await page.request.get("/api/agents")).json();
  const delivery = await (
    await page.request.post("/api/deliveries", {
      data: { agentId: agents[0].id, tons: "1.00", location: `Twice ${javaScript ? "js" : "nojs"}` },
    })
  ).json();
  // The rates of the moment may be 0 here: the manager sets this delivery's selling rate.
  expect((await page.request.patch(`/api/deliveries/${delivery.id}`, { data: { sellingRate: "5000" } })).status()).toBe(
    200,
  );
  const invoice = await (await page.request.post("/api/invoices", { data: { deliveryId: delivery.id } })).json();
  expect(invoice.id).toBeGreaterThan(0);

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

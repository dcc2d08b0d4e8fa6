import { apiPoster, expect, hydrated, invoiceThroughApi, test } from "./fixtures";
import { WIDTHS, type Width } from "./walk";

// Reversing a client payment recorded in error (docs/decisions/0920):
// an admin opens Reverse from the invoice page, gives a reason, and lands on the Payments list
// of that invoice with the reversal and the reversed payment marked; the invoice is owed the
// amount again. With JavaScript on and off, at desktop and phone widths. A manager records
// payments but is offered no Reverse.

test("an admin reverses a payment from the invoice page; the invoice is owed it again", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  // 10 tons at ₦65,000: an invoice of ₦650,000.00, paid twice ₦1,000.00.
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Reversal",
    rates: { sellingRate: "65000", buyingRate: "1000" },
  });
  const payments = [];
  for (const width of ["desktop", "phone"]) {
    payments.push(await post("/api/payments", { invoiceId: invoice.id, amount: "1000.00", reference: `REF-${width}` }));
  }

  for (const [index, width] of (["desktop", "phone"] as Width[]).entries()) {
    const payment = payments[index];
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`/invoices/${invoice.id}`);
    await hydrated(page, javaScript);
    await page.getByRole("link", { name: `Reverse payment #${payment.id}` }).click();
    const dialog = page.getByRole("dialog", { name: "Reverse Payment" });
    await expect(dialog).toContainText(`Invoice #${invoice.invoiceNo}`);
    await expect(dialog.getByTestId("payment-amount")).toHaveText("₦1,000.00");
    // No reason: refused, nothing reversed.
    if (!javaScript) {
      await dialog.getByRole("button", { name: "Reverse Payment" }).click();
      await expect(page.getByRole("dialog", { name: "Reverse Payment" }).getByText("Reason is required")).toBeVisible();
    }
    await page
      .getByRole("dialog", { name: "Reverse Payment" })
      .getByLabel("Reason")
      .fill(`Entered on the wrong invoice (${width})`);
    await page
      .getByRole("dialog", { name: "Reverse Payment" })
      .getByRole("button", { name: "Reverse Payment" })
      .click();

    await expect(page.getByRole("status").filter({ hasText: "Payment reversed" })).toContainText(
      `₦1,000.00 taken back from Invoice #${invoice.invoiceNo}`,
    );
    await expect(page).toHaveURL(new RegExp(`/payments\\?invoiceNo=${invoice.invoiceNo}$`));
    const history = page.getByRole("region", { name: "Payment History" });
    const reversal = history.getByRole("listitem").filter({ hasText: `Reverses payment #${payment.id}` });
    await expect(reversal).toContainText("-₦1,000.00");
    await expect(reversal).toContainText("Reversal");
    await expect(reversal).toContainText(`Entered on the wrong invoice (${width})`);
    const reversed = history.getByRole("listitem").filter({ hasText: new RegExp(`Payment #${payment.id} ·`) });
    await expect(reversed).toContainText("Reversed");
    await expect(page.getByRole("link", { name: `Reverse payment #${payment.id}` })).toHaveCount(0);
  }

  // Both payments taken back: the invoice is owed its whole amount again, and says why.
  await page.goto(`/invoices/${invoice.id}`);
  const section = page.getByRole("region", { name: /^Payments/ });
  await expect(section.getByText("Reversal")).toHaveCount(2);
  await expect(section.getByText(`Reverses payment #${payments[0].id}`)).toBeVisible();
  await expect(page.getByRole("link", { name: /^Reverse payment/ })).toHaveCount(0);
});

test("a manager is offered no Reverse, and the dialog's address refuses them", async ({ page, loginAs }) => {
  await loginAs("manager");
  await page.goto("/payments");
  await expect(page.getByRole("heading", { name: "Payment History" })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Reverse payment/ })).toHaveCount(0);
  const refused = await page.goto("/payments/1/reverse");
  expect(refused?.status()).toBe(403);
});

// A Payments list line's Reverse is a plain link (RowLink, decision 0505), which the app shell
// turns into a dialog over the list with JavaScript; without it, a page of its own. Either way
// the list's filter rides along and the list comes back filtered.
test("an admin reverses a payment from the filtered Payments list and comes back to the same filter", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "List reversal",
    rates: { sellingRate: "65000", buyingRate: "1000" },
  });
  for (const width of ["desktop", "phone"] as Width[]) {
    const reference = `LIST-REV-${javaScript ? "JS" : "NOJS"}-${width}-${Date.now().toString(36)}`;
    const payment = await post("/api/payments", { invoiceId: invoice.id, amount: "2500.00", reference });
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`/payments?reference=${reference}`);
    await hydrated(page, javaScript);
    const history = page.getByRole("region", { name: "Payment History" });
    await expect(history.getByRole("listitem")).toHaveCount(1);
    await history.getByRole("link", { name: `Reverse payment #${payment.id}` }).click();
    await expect(page).toHaveURL(new RegExp(`/payments/${payment.id}/reverse\\?reference=${reference}$`));
    const dialog = page.getByRole("dialog", { name: "Reverse Payment" });
    await expect(dialog.getByTestId("payment-amount")).toHaveText("₦2,500.00");
    // With JavaScript the dialog opens over the list, which stays on the page behind it.
    if (javaScript) await expect(history.getByRole("listitem")).toHaveCount(1);
    await dialog.getByLabel("Reason").fill(`Bank returned it (${width})`);
    await dialog.getByRole("button", { name: "Reverse Payment" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Payment reversed" })).toContainText(
      `₦2,500.00 taken back from Invoice #${invoice.invoiceNo}`,
    );
    await expect(page).toHaveURL(new RegExp(`/payments\\?reference=${reference}$`));
    // The filter holds the payment and its reversal (which carries the same reference).
    const lines = page.getByRole("region", { name: "Payment History" }).getByRole("listitem");
    await expect(lines).toHaveCount(2);
    await expect(
      lines.filter({ hasText: `Reverses payment #${payment.id}: Bank returned it (${width})` }),
    ).toContainText("Reversal");
    await expect(lines.filter({ hasText: new RegExp(`Payment #${payment.id} ·`) })).toContainText("Reversed");
    await expect(page.getByRole("link", { name: `Reverse payment #${payment.id}` })).toHaveCount(0);
  }
});

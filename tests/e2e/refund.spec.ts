import { apiPoster, expect, hydrated, invoiceThroughApi, test } from "./fixtures";
import { WIDTHS, type Width } from "./walk";

// Refunding a client credit (docs/decisions/0920, "Money entries after the fact"): an
// invoice paid in full and then credited carries a client credit; an admin opens Refund Credit on
// the invoice page, pays part of it back, then the rest, and the invoice's payments show each
// refund with its reason. With JavaScript on and off, at desktop and phone widths. A manager is
// offered no Refund Credit.

/** A paid invoice credited ₦3,000.00: the client's credit. */
async function creditedInvoice(
  post: ReturnType<typeof apiPoster>,
  request: import("@playwright/test").APIRequestContext,
  origin: string,
) {
  // 10 tons at ₦65,000: an invoice of ₦650,000.00, paid in full, then credited ₦3,000.00.
  const { invoice } = await invoiceThroughApi(request, origin, {
    label: "Refund",
    rates: { sellingRate: "65000", buyingRate: "1000" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "650000.00", reference: "FULL" });
  await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: "3000.00", reason: "Wet shells" });
  return invoice;
}

test("an admin refunds a client credit from the invoice page, in two parts", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("admin");
  const invoice = await creditedInvoice(apiPoster(page.request, baseURL!), page.request, baseURL!);
  // The Invoices list finds it: the Client credit filter, and the card says how much.
  await page.goto("/invoices");
  await hydrated(page, javaScript);
  const filters = page.getByRole("form", { name: "Filter invoices" });
  await filters.getByLabel("Status").selectOption("credit");
  await filters.getByLabel("Invoice #").fill(invoice.invoiceNo);
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=credit/);
  const card = page.getByRole("listitem", { name: `Invoice #${invoice.invoiceNo}` });
  await expect(card).toContainText("Client credit");
  await expect(card).toContainText("₦3,000.00");

  // Each part: the width, the amount typed, the credit before it, the refund as listed.
  const parts: [Width, string, string, string][] = [
    ["desktop", "1000.00", "₦3,000.00", "-₦1,000.00"],
    ["phone", "2000.00", "₦2,000.00", "-₦2,000.00"],
  ];
  for (const [width, amount, credit, listed] of parts) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`/invoices/${invoice.id}`);
    await hydrated(page, javaScript);
    await page.getByRole("link", { name: "Refund Credit" }).click();
    const dialog = page.getByRole("dialog", { name: "Refund Credit" });
    await expect(dialog).toContainText(`Invoice #${invoice.invoiceNo}`);
    await expect(dialog.getByTestId("client-credit")).toHaveText(credit);
    // No reason: refused, nothing refunded.
    if (!javaScript) {
      await dialog.getByRole("button", { name: "Record Refund" }).click();
      await expect(page.getByRole("dialog", { name: "Refund Credit" }).getByText("Reason is required")).toBeVisible();
    }
    const form = page.getByRole("dialog", { name: "Refund Credit" });
    await form.getByLabel("Amount (₦)").fill(amount);
    await form.getByLabel("Reference (optional)").fill(`RF-${width}`);
    await form.getByLabel("Reason").fill(`Paid back by transfer (${width})`);
    await form.getByRole("button", { name: "Record Refund" }).click();

    await expect(page.getByRole("status").filter({ hasText: "Refund recorded" })).toContainText(
      `paid back to the client on Invoice #${invoice.invoiceNo}`,
    );
    await expect(page).toHaveURL(new RegExp(`/invoices/${invoice.id}$`));
    const refund = page
      .getByRole("region", { name: /^Payments/ })
      .getByRole("listitem")
      .filter({ hasText: `Paid back by transfer (${width})` });
    await expect(refund).toContainText(listed);
    await expect(refund).toContainText("Refund");
    await expect(refund).toContainText(`Ref: RF-${width}`);
  }

  // The whole credit paid back: nothing is owed either way, and there is nothing more to refund.
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦0.00");
  await expect(page.getByRole("link", { name: "Refund Credit" })).toHaveCount(0);
  await page.goto(`/invoices?status=credit&invoiceNo=${invoice.invoiceNo}`);
  await expect(page.getByText("No invoices match the current filter")).toBeVisible();

  // The second refund never left the bank: reversed, the client has that credit again.
  await page.goto(`/invoices/${invoice.id}`);
  await hydrated(page, javaScript);
  await page
    .getByRole("region", { name: /^Payments/ })
    .getByRole("listitem")
    .filter({ hasText: "Paid back by transfer (phone)" })
    .getByRole("link", { name: /^Reverse payment #/ })
    .click();
  const reverse = page.getByRole("dialog", { name: "Reverse Refund" });
  await expect(reverse.getByTestId("payment-amount")).toHaveText("₦2,000.00");
  await reverse.getByLabel("Reason").fill("The transfer bounced");
  await reverse.getByRole("button", { name: "Reverse Refund" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Refund reversed" })).toContainText(
    `₦2,000.00 back as client credit on Invoice #${invoice.invoiceNo}`,
  );
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByTestId("invoice-balance")).toHaveText("Credit ₦2,000.00");
  await expect(page.getByText(/^Reverses refund #\d+: The transfer bounced$/)).toBeVisible();
  await expect(page.getByRole("link", { name: "Refund Credit" })).toBeVisible();
});

test("a manager is offered no Refund Credit, and the dialog's address refuses them", async ({
  page,
  baseURL,
  loginAs,
}) => {
  await loginAs("manager");
  const invoice = await creditedInvoice(apiPoster(page.request, baseURL!), page.request, baseURL!);
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByTestId("invoice-balance")).toHaveText("Credit ₦3,000.00");
  await expect(page.getByRole("link", { name: "Refund Credit" })).toHaveCount(0);
  const refused = await page.goto(`/invoices/${invoice.id}/refund`);
  expect(refused?.status()).toBe(403);
});

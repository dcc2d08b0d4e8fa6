import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";
import { AXE_SOURCE, seriousAxeViolations, WIDTHS, type Width } from "./walk";

// Moving a client credit to another invoice (docs/decisions/0920, "Money entries
// after the fact"): invoice A was paid in full and then credited, invoice B of the same
// client still owes; a manager opens Apply Credit on A, chooses B, and moves part of the credit,
// then the rest. Each invoice names the other. With JavaScript on and off, at desktop and phone
// widths. Staff are refused.

test("a manager moves a client credit to another invoice of the client, in two parts", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const first = await invoiceThroughApi(page.request, baseURL!, {
    label: "Move",
    tag,
    rates: { sellingRate: "65000", buyingRate: "1000" },
  });
  const invoices = [first.invoice];
  for (let more = 0; more < 2; more++) {
    const next = await invoiceThroughApi(page.request, baseURL!, {
      label: "Move",
      tag,
      agent: first.agent,
      client: first.client,
      delivery: { tons: "1.00" },
      rates: { sellingRate: "65000", buyingRate: "1000" },
    });
    invoices.push(next.invoice);
  }
  // A: ₦650,000.00 paid in full, then credited ₦3,000.00. B: ₦65,000.00, unpaid. C: ₦65,000.00,
  // all but ₦500.00 paid (it owes less than the credit).
  const [a, b, c] = invoices;
  await post("/api/payments", { invoiceId: a.id, amount: "650000.00", reference: "FULL" });
  await post(`/api/invoices/${a.id}/credit-notes`, { amount: "3000.00", reason: "Wet shells" });
  await post("/api/payments", { invoiceId: c.id, amount: "64500.00", reference: "MOST" });

  // Each part: the width, the amount typed, the credit before it.
  const parts: [Width, string, string][] = [
    ["desktop", "1000.00", "₦3,000.00"],
    ["phone", "2000.00", "₦2,000.00"],
  ];
  for (const [width, amount, credit] of parts) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`/invoices/${a.id}`);
    await hydrated(page, javaScript);
    await page.getByRole("link", { name: "Apply Credit" }).click();
    const dialog = page.getByRole("dialog", { name: "Apply Credit" });
    await expect(dialog.getByTestId("client-credit")).toHaveText(credit);
    if (!javaScript) {
      // No invoice chosen: refused, nothing moved.
      await dialog.getByRole("button", { name: "Move Credit" }).click();
      await expect(page.getByRole("dialog", { name: "Apply Credit" }).getByText("Invoice is required")).toBeVisible();
    } else {
      await page.evaluate(AXE_SOURCE);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    const form = page.getByRole("dialog", { name: "Apply Credit" });
    if (javaScript && width === "desktop") {
      // The amount follows the choice: what C owes, less than the credit; then the credit again.
      await form.getByLabel("To invoice").selectOption(String(c.id));
      await expect(form.getByLabel("Amount (₦)")).toHaveValue("500.00");
      await form.getByLabel("To invoice").selectOption(String(b.id));
      await expect(form.getByLabel("Amount (₦)")).toHaveValue("3000.00");
    }
    await form.getByLabel("To invoice").selectOption(String(b.id));
    await form.getByLabel("Amount (₦)").fill(amount);
    await form.getByRole("button", { name: "Move Credit" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Credit moved" })).toContainText(
      `moved to Invoice #${b.invoiceNo}`,
    );
    await expect(page).toHaveURL(new RegExp(`/invoices/${a.id}$`));
  }

  // A carries no credit any more and names B twice; B is paid ₦3,000.00 of ₦65,000.00 and names A.
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦0.00");
  await expect(page.getByRole("link", { name: "Apply Credit" })).toHaveCount(0);
  const movedOut = page.getByRole("region", { name: /^Payments/ }).getByText(`Credit moved to invoice #${b.invoiceNo}`);
  await expect(movedOut).toHaveCount(2);
  await page.goto(`/invoices/${b.id}`);
  await expect(page.getByTestId("paid")).toHaveText("₦3,000.00");
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦62,000.00");
  await expect(
    page.getByRole("region", { name: /^Payments/ }).getByText(`Credit from invoice #${a.invoiceNo}`),
  ).toHaveCount(2);
});

test("staff cannot open Apply Credit", async ({ page, loginAs }) => {
  await loginAs("staff");
  const refused = await page.goto("/invoices/1/apply-credit");
  expect(refused?.status()).toBe(403);
});

import { apiPoster, expect, hydrated, invoiceThroughApi, test } from "./fixtures";
import { WIDTHS, type Width } from "./walk";

// Reversing a credit note issued in error (docs/decisions/0920, "Money entries
// after the fact"): an admin opens Reverse beside the credit note on the invoice page, gives a reason, and
// is back on the invoice with the reversal and the reversed credit note marked; the invoice is
// owed the amount again and can take a corrected credit note. With JavaScript on and off, at
// desktop and phone widths. A manager issues credit notes but is offered no Reverse.

test("an admin reverses a credit note from the invoice page; the invoice is owed it again", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  // 10 tons at ₦65,000: an invoice of ₦650,000.00, credited twice ₦2,000.00.
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Credit Reversal",
    rates: { sellingRate: "65000", buyingRate: "1000" },
  });
  const credits: { id: number; creditNoteNo: string }[] = [];
  for (const width of ["desktop", "phone"]) {
    credits.push(
      (await post(`/api/invoices/${invoice.id}/credit-notes`, {
        amount: "2000.00",
        reason: `Wet shells (${width})`,
      })) as {
        id: number;
        creditNoteNo: string;
      },
    );
  }

  for (const [index, width] of (["desktop", "phone"] as Width[]).entries()) {
    const credit = credits[index];
    await page.setViewportSize(WIDTHS[width]);
    await page.goto(`/invoices/${invoice.id}`);
    await hydrated(page, javaScript);
    await page.getByRole("link", { name: `Reverse credit note ${credit.creditNoteNo}` }).click();
    const dialog = page.getByRole("dialog", { name: "Reverse Credit Note" });
    await expect(dialog).toContainText(`Invoice #${invoice.invoiceNo}`);
    await expect(dialog).toContainText(`${credit.creditNoteNo},`);
    await expect(dialog.getByTestId("credit-note-amount")).toHaveText("₦2,000.00");
    // No reason: refused, nothing reversed.
    if (!javaScript) {
      await dialog.getByRole("button", { name: "Reverse Credit Note" }).click();
      await expect(
        page.getByRole("dialog", { name: "Reverse Credit Note" }).getByText("Reason is required"),
      ).toBeVisible();
    }
    await page
      .getByRole("dialog", { name: "Reverse Credit Note" })
      .getByLabel("Reason")
      .fill(`Issued against the wrong invoice (${width})`);
    await page
      .getByRole("dialog", { name: "Reverse Credit Note" })
      .getByRole("button", { name: "Reverse Credit Note" })
      .click();

    await expect(
      page.getByRole("status").filter({ hasText: `Credit note ${credit.creditNoteNo} reversed` }),
    ).toContainText(`₦2,000.00 owed again on Invoice #${invoice.invoiceNo}`);
    await expect(page).toHaveURL(new RegExp(`/invoices/${invoice.id}$`));
    const section = page.getByRole("region", { name: /^Credit notes/ });
    const reversal = section.getByRole("listitem").filter({ hasText: `Reverses ${credit.creditNoteNo}:` });
    await expect(reversal).toContainText("-₦2,000.00");
    await expect(reversal).toContainText("Reversal");
    await expect(reversal).toContainText(`Issued against the wrong invoice (${width})`);
    const reversed = section.getByRole("listitem").filter({ hasText: `Wet shells (${width})` });
    await expect(reversed).toContainText("Reversed");
    await expect(page.getByRole("link", { name: `Reverse credit note ${credit.creditNoteNo}` })).toHaveCount(0);
  }

  // Both taken back: nothing is credited, and a corrected credit note can be issued.
  await expect(page.getByTestId("credited")).toHaveText("₦0.00");
  await expect(page.getByRole("region", { name: /^Credit notes/ }).getByText("Reversal", { exact: true })).toHaveCount(
    2,
  );
  await expect(page.getByRole("link", { name: "Credit Note", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Reverse credit note/ })).toHaveCount(0);
});

test("a manager is offered no Reverse beside a credit note, and the dialog's address refuses them", async ({
  page,
  baseURL,
  loginAs,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Credit Manager",
    delivery: { tons: "1.00" },
    rates: { sellingRate: "65000" },
  });
  const credit = (await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: "100.00", reason: "Wet" })) as {
    id: number;
    creditNoteNo: string;
  };
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByRole("region", { name: /^Credit notes/ })).toContainText(credit.creditNoteNo);
  await expect(page.getByRole("link", { name: /^Reverse credit note/ })).toHaveCount(0);
  const refused = await page.goto(`/invoices/${invoice.id}/credit-notes/${credit.id}/reverse`);
  expect(refused?.status()).toBe(403);
});

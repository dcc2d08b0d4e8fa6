// Invoice money seen by a manager on a phone (decision 0300): an invoice made late is due from
// the day it is issued; its profit follows a cost entered after invoicing; its page links to its
// print view and PDF; the cards show what was credited and what is left; the credit-note dialog
// says what its limit means; a manager is told that reversing is an admin's job.
import type { Page } from "@playwright/test";
import { addDays, formatDate, todayIn } from "../../app/utils/dates";
import { formatNaira } from "../../app/utils/money";
import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const today = () => todayIn("Africa/Lagos");

/** The page never scrolls sideways at phone width. */
async function fitsThePhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize(PHONE);
});

test("an invoice of months-old deliveries is due the client's terms after today, not overdue", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  const agentName = `Late Agent ${javaScript ? "js" : "nojs"}`;
  const due = addDays(today(), 30);
  await page.goto("/invoices/new");
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Generate Invoice" });
  await dialog.getByLabel("Agent").fill(agentName);
  await dialog.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("agent") === agentName);
  await dialog
    .getByRole("list", { name: "Deliveries to invoice" })
    .getByRole("link", { name: new RegExp(agentName) })
    .click();
  await expect(dialog.getByText("Expected payment date").locator("..")).toContainText(formatDate(due));
  await dialog.getByRole("button", { name: "Generate Invoice" }).click();
  await expect(page.getByRole("status")).toContainText("Invoice created successfully");
  const number = /#(\d+)/.exec((await page.getByRole("status").textContent()) ?? "")![1];
  const card = page.getByRole("listitem", { name: `Invoice #${number}` });
  await expect(card).toContainText("pending");
  await expect(card).not.toContainText("overdue");
  await expect(card).toContainText(formatDate(due));
  await fitsThePhone(page);

  // The invoice page says the same, and so does its print view.
  await card.getByRole("link", { name: `Invoice #${number}`, exact: true }).click();
  await expect(page.getByRole("heading", { name: `Invoice #${number}` })).toBeVisible();
  // The invoice's facts, not its history (which names the same fields).
  const facts = (term: string) => page.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("..");
  await expect(facts("Due Date")).toContainText(formatDate(due));
  await expect(facts("Issued")).toContainText(formatDate(today()));
  await page.getByRole("link", { name: `Print invoice #${number}` }).click();
  await expect(page).toHaveURL(/\/invoices\/\d+\/print$/);
  // (Its "Please pay by" line reads the same date, when the business has bank details to show.)
  const printed = page.getByRole("article", { name: `Invoice ${number}` });
  await expect(printed.getByRole("definition").filter({ hasText: formatDate(due) })).toBeVisible();
  await expect(printed.getByText("Due Date").locator("xpath=following-sibling::dd[1]")).toHaveText(formatDate(due));
});

test("the invoice page links to its print view and its PDF", async ({ page, loginAs, baseURL, javaScript }) => {
  await loginAs("manager");
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Papers",
    rates: { sellingRate: "1000.00" },
  });
  await page.goto(`/invoices/${invoice.id}`);
  await hydrated(page, javaScript);
  const header = page
    .getByRole("banner")
    .or(page.locator("header"))
    .filter({ hasText: `Invoice #${invoice.invoiceNo}` });
  const print = header.getByRole("link", { name: `Print invoice #${invoice.invoiceNo}` });
  const pdf = header.getByRole("link", { name: `PDF of invoice #${invoice.invoiceNo}` });
  await expect(print).toBeVisible();
  await expect(pdf).toBeVisible();
  await fitsThePhone(page);
  await expect(pdf).toHaveAttribute("href", `/invoices/${invoice.id}/pdf`);
  const downloading = page.waitForEvent("download");
  await pdf.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  await print.click();
  await expect(page).toHaveURL(`/invoices/${invoice.id}/print`);
  await expect(page.getByRole("article", { name: `Invoice ${invoice.invoiceNo}` })).toBeVisible();
});

test("a haulage bill entered after invoicing moves the invoice's profit", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  // 10 t at 1,000.00 selling and 600.00 buying: profit 4,000.00 before the bill.
  const { invoice, delivery } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Haulage",
    rates: { sellingRate: "1000.00", buyingRate: "600.00" },
  });
  await page.goto(`/invoices/${invoice.id}`);
  // The invoice's facts, not its history (which names the same field).
  const profit = () => page.locator("dt", { hasText: /^Profit$/ }).locator("..");
  await expect(profit()).toContainText(formatNaira("4000.00"));
  await page.goto(`/deliveries/${delivery.id}/edit`);
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Edit Delivery" });
  await expect(dialog).toContainText("the invoice's profit follows them");
  await dialog.getByLabel("Logistics cost (₦)").fill("1500.50");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toContainText("Delivery updated successfully");
  await page.goto(`/invoices/${invoice.id}`);
  await expect(profit()).toContainText(formatNaira("2499.50"));
  const history = page.getByRole("list", { name: "Invoice history" });
  await expect(history).toContainText("Invoice profit recounted after a delivery's costs changed");
  await expect(history).toContainText(/Profit\s*₦4,000\.00\s*→\s*₦2,499\.50/);
  await expect(history).toContainText(/Delivery edited\s*—\s*→\s*#\d+/);
  await fitsThePhone(page);
});

test("a card shows what was paid, credited and is left; the credit-note dialog says what its limit means", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const { invoice, client } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Cards",
    tag: unique(),
    rates: { sellingRate: "1000.00" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "4000.00", paymentDate: today() });
  await page.goto(`/invoices/${invoice.id}/credit-note`);
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Credit Note" });
  // Amount 10,000.00, paid 4,000.00: up to 10,000.00 can be credited, 6,000.00 of it clears the balance.
  await expect(dialog).toContainText(
    `Can credit up to ${formatNaira("10000.00")}: the first ${formatNaira("6000.00")} clears the balance, and the rest is owed back to the client as a credit.`,
  );
  await expect(dialog).not.toContainText("beyond the balance");
  await fitsThePhone(page);
  await dialog.getByLabel("Amount (₦)").fill("1000.00");
  await dialog.getByLabel("Reason").fill("Short weight");
  await dialog.getByRole("button", { name: "Issue Credit Note" }).click();
  await expect(page.getByRole("status")).toContainText(/credit note/i);

  await page.goto(`/invoices?clientId=${client.id}`);
  const card = page.getByRole("listitem", { name: `Invoice #${invoice.invoiceNo}` });
  for (const [label, value] of [
    ["Paid", "4000.00"],
    ["Credited", "1000.00"],
    ["Balance", "5000.00"],
  ]) {
    await expect(
      card.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd[1]"),
    ).toHaveText(formatNaira(value));
  }
  await fitsThePhone(page);
});

test("a manager is told that reversing a payment or a credit note is an admin's job", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Reverse",
    rates: { sellingRate: "1000.00" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "100.00", paymentDate: today() });
  await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: "50.00", reason: "Moisture" });
  await page.goto(`/invoices/${invoice.id}`);
  await hydrated(page, javaScript);
  await expect(page.getByRole("link", { name: /^Reverse/ })).toHaveCount(0);
  await expect(page.getByText("Only an admin can reverse a payment entered in error: ask an admin.")).toBeVisible();
  await expect(page.getByText("Only an admin can reverse a credit note entered in error: ask an admin.")).toBeVisible();
  await page.goto(`/payments?invoiceNo=${invoice.invoiceNo}`);
  await expect(page.getByText("Only an admin can reverse a payment entered in error: ask an admin.")).toBeVisible();
  await fitsThePhone(page);

  await loginAs("admin");
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByRole("link", { name: /^Reverse payment/ })).toBeVisible();
  await expect(page.getByText(/Only an admin can reverse/)).toHaveCount(0);
});

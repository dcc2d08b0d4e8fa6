import type { Page } from "@playwright/test";
import { addDays, formatMonth } from "../../app/utils/dates";
import { expect, seededOn, test } from "./fixtures";

async function count(page: Page, testId: string) {
  return Number(await page.getByTestId(testId).textContent());
}

async function generateInvoiceFor(page: Page, agentName: string) {
  await page.goto("/invoices");
  await page.getByRole("link", { name: "Generate Invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate Invoice" });
  // The picker is searched and paged: find the delivery by its agent, then choose it.
  await dialog.getByLabel("Agent").fill(agentName);
  await dialog.getByRole("button", { name: "Search" }).click();
  // Let the search land before choosing: a row of the list before it may hold the same agent,
  // and a click while the search is in flight would cut it short.
  await expect(page).toHaveURL((url) => url.searchParams.get("agent") === agentName);
  await dialog
    .getByRole("list", { name: "Deliveries to invoice" })
    .getByRole("link", { name: new RegExp(agentName) })
    .click();
  await expect(dialog.getByRole("link", { name: new RegExp(agentName) })).toHaveAttribute("aria-current", "true");
  await expect(dialog.getByText("₦1,300,000.00").first().or(dialog.getByText("₦325,000.00").first())).toBeVisible();
  await dialog.getByRole("button", { name: "Generate Invoice" }).click();
  await expect(page.getByRole("status")).toContainText("Invoice created successfully");
  const description = await page.getByRole("status").textContent();
  return /#(\d+)/.exec(description ?? "")![1];
}

test("a manager invoices a delivery and records a partial then a final payment", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  await loginAs("manager");
  const project = javaScript ? "js" : "nojs";
  await page.goto("/invoices");
  const paid = await count(page, "summary-paid");

  // 20 t x ₦65,000 = ₦1,300,000.00
  const number = await generateInvoiceFor(page, `Invoice Agent ${project}`);
  const card = page.getByRole("listitem", { name: `Invoice #${number}` });
  await expect(card).toContainText("₦1,300,000.00");
  await expect(card).toContainText("pending");
  // Other tests invoice and pay at the same time, so the Pending count can move either way:
  // the Pending link must list this invoice instead.
  await page
    .getByRole("link", { name: /pending/i })
    .filter({ has: page.getByTestId("summary-pending") })
    .click();
  await expect(page).toHaveURL(/status=pending/);
  await expect(page.getByRole("listitem", { name: `Invoice #${number}` })).toBeVisible();

  await page.goto("/");
  const outstandingBefore = await page.getByTestId("stat-outstanding").textContent();

  await page.goto("/invoices");
  await card.getByRole("link", { name: "Record Payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Record Payment" });
  await expect(dialog.getByTestId("balance")).toHaveText("₦1,300,000.00");
  await dialog.getByLabel("Amount (₦)").fill("300,000.50");
  await dialog.getByLabel("Reference (optional)").fill(`TRF-${project}-1`);
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(page.getByRole("status")).toContainText("Payment recorded successfully");
  await expect(card).toContainText("partial");
  await expect(card).toContainText("₦300,000.50");

  await card.getByRole("link", { name: "Record Payment" }).click();
  await expect(dialog.getByTestId("balance")).toHaveText("₦999,999.50");
  await dialog.getByLabel("Amount (₦)").fill("1000000");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Amount exceeds the remaining balance of ₦999,999.50");
  await dialog.getByLabel("Amount (₦)").fill("999999.50");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(page.getByRole("status")).toContainText("Payment recorded successfully");
  await expect(card).toContainText("paid");
  await expect(card.getByRole("link", { name: "Record Payment" })).toHaveCount(0);
  expect(await count(page, "summary-paid")).toBeGreaterThanOrEqual(paid + 1);

  await page.goto("/payments");
  await expect(page.getByText(`Ref: TRF-${project}-1`)).toBeVisible();

  await page.goto("/");
  await expect(page.getByTestId("stat-outstanding")).not.toHaveText(outstandingBefore ?? "");

  // The delivery was two days ago: its month's details list it as invoiced.
  const month = addDays(seededOn(baseURL!), -2).slice(0, 7);
  await page.goto("/reconciliation");
  const monthCard = page.getByRole("listitem", { name: formatMonth(month) });
  await monthCard.getByRole("link", { name: "View Details" }).click();
  await expect(monthCard.getByRole("link", { name: "Hide Details" })).toBeVisible();
  // Details are paged (50 a page, newest first); deliveries other tests record this month can
  // push this one to a later page, so follow "Older" until it shows.
  const row = monthCard.getByRole("row", { name: new RegExp(`Invoice Agent ${project}`) });
  const older = page
    .getByRole("navigation", { name: `${formatMonth(month)} detail pages` })
    .getByRole("link", { name: "Older" });
  for (let pages = 0; pages < 20 && (await row.count()) === 0 && (await older.count()) > 0; pages++) {
    const href = (await older.getAttribute("href"))!;
    const cursor = new URL(href, page.url()).searchParams.get("detailsCursor");
    await page.goto(href);
    expect(new URL(page.url()).searchParams.get("detailsCursor")).toBe(cursor);
    await expect(monthCard.getByRole("link", { name: "Hide Details" })).toBeVisible();
  }
  await expect(row).toContainText("invoiced");
});

test("an invoice past its expected date counts as overdue", async ({ page, loginAs, baseURL }) => {
  await loginAs("admin");
  // Seeded: delivered and invoiced 120 days ago with 30-day terms, so due 90 days ago (an invoice
  // made today is due from today, decision 0300).
  const due = addDays(seededOn(baseURL!), -90);
  await page.goto(`/invoices?from=${due}&to=${due}`);
  const card = page.getByRole("listitem", { name: /^Invoice #/ }).first();
  await expect(card).toContainText("overdue");
  const name = (await card.getAttribute("aria-label"))!;
  await page.goto("/invoices?status=overdue");
  await expect(page.getByRole("listitem", { name })).toBeVisible();
});

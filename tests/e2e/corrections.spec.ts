// Decision 0920: an invoice's own page, voiding one and invoicing its delivery again, and a credit
// note changing the balance and status. Each project uses its own agents' deliveries
// (tests/e2e/start-server.ts), so the js and nojs runs never touch each other's invoices.
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function generateInvoiceFor(page: Page, agentName: string) {
  await page.goto("/invoices");
  await page.getByRole("link", { name: "Generate Invoice" }).click();
  const dialog = page.getByRole("dialog", { name: "Generate Invoice" });
  await dialog.getByLabel("Agent").fill(agentName);
  await dialog.getByRole("button", { name: "Search" }).click();
  await dialog
    .getByRole("list", { name: "Deliveries to invoice" })
    .getByRole("link", { name: new RegExp(agentName) })
    .click();
  await expect(dialog.getByRole("link", { name: new RegExp(agentName) })).toHaveAttribute("aria-current", "true");
  await dialog.getByRole("button", { name: "Generate Invoice" }).click();
  await expect(page.getByRole("status")).toContainText("Invoice created successfully");
  const description = await page.getByRole("status").textContent();
  return /#(\d+)/.exec(description ?? "")![1];
}

async function openInvoice(page: Page, number: string) {
  await page.goto(`/invoices?invoiceNo=${number}`);
  await page.getByRole("link", { name: `Invoice #${number}`, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Invoice #${number}`);
}

test("a manager voids an invoice with a reason and invoices its delivery again", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  const agent = `Void Agent ${javaScript ? "js" : "nojs"}`;
  const number = await generateInvoiceFor(page, agent);
  await openInvoice(page, number);
  // 10 t x ₦65,000 = ₦650,000.00, tax-inclusive at 7.5%: 650,000 x 7.5 / 107.5 = 45,348.837...
  await expect(page.getByTestId("amount")).toHaveText("₦650,000.00");
  await expect(page.getByTestId("tax")).toHaveText("₦45,348.84");
  await expect(page.getByRole("region", { name: "Deliveries on this invoice" })).toContainText(agent);

  await page.getByRole("link", { name: "Void" }).click();
  const dialog = page.getByRole("dialog", { name: `Void Invoice #${number}?` });
  await dialog.getByLabel("Reason").fill("Weighbridge ticket belonged to another truck");
  await dialog.getByRole("button", { name: "Void invoice" }).click();
  await expect(page.getByRole("status")).toContainText(`Invoice #${number} voided`);
  await expect(page.getByTestId("void-reason")).toContainText("Weighbridge ticket belonged to another truck");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("void");
  await expect(page.getByRole("link", { name: "Record Payment" })).toHaveCount(0);
  // What it covered is still shown.
  await expect(page.getByRole("region", { name: "Deliveries on this invoice" })).toContainText(agent);

  // Struck through with its reason in the list.
  await page.goto(`/invoices?status=void&invoiceNo=${number}`);
  const card = page.getByRole("listitem", { name: `Invoice #${number}` });
  await expect(card).toContainText("Void: Weighbridge ticket belonged to another truck");
  await expect(card.getByRole("link", { name: `Invoice #${number}`, exact: true })).toHaveClass(/line-through/);
  await expect(card.getByRole("link", { name: "Record Payment" })).toHaveCount(0);

  // The delivery is confirmed again and goes on a new invoice under a new number.
  const again = await generateInvoiceFor(page, agent);
  expect(Number(again)).toBeGreaterThan(Number(number));
  await openInvoice(page, again);
  await expect(page.getByTestId("amount")).toHaveText("₦650,000.00");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("pending");
});

test("a credit note lowers the balance, a payment settles the rest, a further credit leaves a client credit", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  const number = await generateInvoiceFor(page, `Credit Agent ${javaScript ? "js" : "nojs"}`);
  await openInvoice(page, number);
  // 4 t x ₦65,000
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦260,000.00");

  await page.getByRole("link", { name: "Credit Note" }).click();
  let dialog = page.getByRole("dialog", { name: "Credit Note" });
  await expect(dialog.getByTestId("creditable")).toHaveText("₦260,000.00");
  await dialog.getByLabel("Amount (₦)").fill("60,000");
  await dialog.getByLabel("Reason").fill("Moisture 14%, agreed discount");
  await dialog.getByRole("button", { name: "Issue Credit Note" }).click();
  await expect(page.getByRole("status")).toContainText(/Credit note CN-\d+ issued/);
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦200,000.00");
  await expect(page.getByTestId("credited")).toHaveText("₦60,000.00");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("partial");
  await expect(page.getByRole("region", { name: "Invoice details" })).toBeVisible();
  await expect(page.getByText("Moisture 14%, agreed discount")).toBeVisible();
  // Voiding is no longer offered: a credited invoice is corrected by credit notes.
  await expect(page.getByRole("link", { name: "Void" })).toHaveCount(0);

  await page.getByRole("link", { name: "Record Payment" }).click();
  dialog = page.getByRole("dialog", { name: "Record Payment" });
  await expect(dialog.getByTestId("balance")).toHaveText("₦200,000.00");
  await dialog.getByLabel("Amount (₦)").fill("200000.01");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Amount exceeds the remaining balance of ₦200,000.00");
  await dialog.getByLabel("Amount (₦)").fill("200000");
  await dialog.getByRole("button", { name: "Record Payment" }).click();
  await expect(page.getByRole("status")).toContainText("Payment recorded successfully");
  await expect(page.getByTestId("invoice-balance")).toHaveText("₦0.00");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("paid");

  await page.getByRole("link", { name: "Credit Note" }).click();
  dialog = page.getByRole("dialog", { name: "Credit Note" });
  await expect(dialog.getByTestId("creditable")).toHaveText("₦200,000.00");
  await dialog.getByLabel("Amount (₦)").fill("10000");
  await dialog.getByLabel("Reason").fill("Late delivery penalty");
  await dialog.getByRole("button", { name: "Issue Credit Note" }).click();
  await expect(page.getByRole("status")).toContainText(/Credit note CN-\d+ issued/);
  await expect(page.getByTestId("invoice-balance")).toHaveText("Credit ₦10,000.00");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("paid");
});

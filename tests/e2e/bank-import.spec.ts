// The bank statement import (docs/decisions/1241), with JavaScript and without: a manager goes
// Receipts → Bank statement, imports the bank's CSV into a new account, confirms the short-paid
// credit's proposed match, sees the invoice paid with the WHT withheld, and records the client's
// certificate on the Withholding page, and finds the withholding on the client's statement.
import { todayIn } from "../../app/utils/dates";
import { formatNaira } from "../../app/utils/money";
import { expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

test("a statement's short-paid credit is confirmed as a receipt with its withholding", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const tag = unique();
  const name = `Bank import ${javaScript ? "JS" : "HTML"} ${tag}`;
  const { client, invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Bank import",
    clientFields: { name, taxRate: "7.5", whtRate: "5", paymentTermsDays: 30 },
    rates: { sellingRate: "1000.00" },
  });
  const day = todayIn("Africa/Lagos").split("-").reverse().join("/");
  const narration = `NIP TRF ${tag} INV ${invoice.invoiceNo}`;
  const csv = [
    "Trans Date,Reference,Narration,Debit,Credit,Balance",
    `${day},E2E-${tag},"${narration}",,"9,534.88","9,534.88"`,
    `${day},FEE-${tag},"SMS ALERT ${tag}",25.00,,"9,509.88"`,
  ].join("\r\n");

  await page.goto("/receipts");
  await hydrated(page, javaScript);
  await page.getByRole("link", { name: "Bank statement" }).click();
  await expect(page.getByRole("heading", { name: "Bank statement", level: 1 })).toBeVisible();
  await page.getByRole("combobox", { name: "Bank account" }).selectOption("new");
  await page.getByRole("button", { name: "Use this account" }).click();
  await page.getByLabel("New account name").fill(`Account ${tag}`);
  await page.getByLabel("Date column").fill("Trans Date");
  await page.getByLabel("Date format").selectOption("dd/MM/yyyy");
  await page.getByLabel("Narration column").fill("Narration");
  await page.getByLabel("Reference column (optional)").fill("Reference");
  await page.getByLabel("Amounts").selectOption("split");
  await page.getByLabel("Credit column (credit and debit)").fill("Credit");
  await page.getByLabel("Debit column (optional)").fill("Debit");
  await page
    .getByLabel(/CSV file/)
    .setInputFiles({ name: "statement.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Import statement" }).click();
  if (javaScript) await expect(page.getByText("Statement imported: 2 new lines, 0 already imported")).toBeVisible();

  const line = page.getByRole("listitem").filter({ hasText: narration }).first();
  await expect(line).toBeVisible();
  const proposal = line
    .getByRole("list", { name: /Proposed matches/ })
    .getByRole("listitem")
    .first();
  await expect(proposal).toContainText(name);
  await expect(proposal).toContainText("short by the client's withholding");
  await proposal.getByRole("button", { name: /^Confirm/ }).click();
  await expect(page.getByText(/Receipt #\d+ from /).first()).toBeVisible();

  await page.goto("/receipts/bank?status=matched");
  await hydrated(page, javaScript);
  const matched = page.getByRole("listitem").filter({ hasText: narration }).first();
  await expect(matched).toContainText("Matched");
  await matched.getByRole("link", { name: /^Receipt #\d+$/ }).click();
  await expect(page.getByRole("heading", { name: /^Receipt #\d+$/, level: 1 })).toBeVisible();
  await page
    .getByRole("link", { name: `#${invoice.invoiceNo}` })
    .first()
    .click();
  await expect(page.getByTestId("withheld")).toHaveText(formatNaira("465.12"));
  await expect(page.getByTestId("invoice-balance")).toContainText(formatNaira("0"));

  await page.goto(`/withholdings?clientId=${client.id}&status=outstanding`);
  await hydrated(page, javaScript);
  const item = page.getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText(formatNaira("465.12"));
  await item.getByLabel("Certificate no.").fill(`FIRS/WHT/${tag}`);
  await item.getByRole("button", { name: "Record certificate" }).click();
  await page.goto(`/withholdings?clientId=${client.id}&status=received`);
  await expect(page.getByText(`Certificate FIRS/WHT/${tag}, received`, { exact: false })).toBeVisible();

  // The client's statement shows the withholding as a line of its own and closes at nothing owed.
  await page.goto(`/clients/${client.id}/statement`);
  await hydrated(page, javaScript);
  const lines = page.getByRole("region", { name: "Transactions" });
  await expect(lines.getByRole("row").filter({ hasText: "WHT withheld" })).toContainText(formatNaira("465.12"));
  const balances = page.getByRole("region", { name: "Balances" });
  await expect(balances.getByText("Closing balance").locator("..")).toContainText(formatNaira("0"));
});

test("staff are refused the bank statement", async ({ page, loginAs }) => {
  await loginAs("staff");
  expect((await page.goto("/receipts/bank"))?.status()).toBe(403);
});

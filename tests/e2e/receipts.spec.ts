// Receipts and withholding (docs/decisions/1240), with JavaScript and without: a manager records
// a transfer short by the client's WHT from Payments → Receipts → Record Receipt, sees the invoice
// paid with what was withheld, and records the client's certificate on the Withholding page.
import { formatNaira } from "../../app/utils/money";
import { expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

test("a short transfer settles an invoice with the WHT withheld, and its certificate is recorded", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const name = `Receipts ${javaScript ? "JS" : "HTML"} ${unique()}`;
  const { client, invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Receipts",
    clientFields: { name, taxRate: "7.5", whtRate: "5", paymentTermsDays: 30 },
    rates: { sellingRate: "1000.00" },
  });

  await page.goto("/payments");
  await hydrated(page, javaScript);
  await page.getByRole("link", { name: "Receipts", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Receipts", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Record Receipt" }).click();
  await expect(page.getByRole("heading", { name: "Record Receipt", level: 1 })).toBeVisible();
  await page.getByRole("combobox", { name: "Client" }).selectOption(String(client.id));
  await page.getByRole("button", { name: "Show invoices" }).click();
  await expect(page.getByText(`Invoice #${invoice.invoiceNo}`, { exact: true })).toBeVisible();
  await expect(page.getByText(`settled whole by ${formatNaira("9534.88")} cash`)).toBeVisible();
  await page.getByLabel("Amount received (₦)").fill("9534.88");
  await page.getByLabel("Bank reference (optional)").fill("NIP-E2E");
  await page.getByRole("button", { name: "Record Receipt" }).click();

  await expect(page.getByRole("heading", { name: /^Receipt #\d+$/, level: 1 })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `#${invoice.invoiceNo}` });
  await expect(row.getByRole("cell")).toHaveText([
    `#${invoice.invoiceNo}`,
    formatNaira("10000.00"),
    formatNaira("9534.88"),
    formatNaira("465.12"),
    formatNaira("0"),
  ]);
  await row.getByRole("link", { name: `#${invoice.invoiceNo}` }).click();
  await expect(page.getByTestId("withheld")).toHaveText(formatNaira("465.12"));
  await expect(page.getByTestId("invoice-balance")).toContainText(formatNaira("0"));
  await expect(page.getByRole("heading", { name: "Receipts (1)" })).toBeVisible();

  await page.goto(`/withholdings?clientId=${client.id}&status=outstanding`);
  await hydrated(page, javaScript);
  const item = page.getByRole("listitem").filter({ hasText: name });
  await item.getByLabel("Certificate no.").fill("FIRS/WHT/77");
  await item.getByRole("button", { name: "Record certificate" }).click();
  await page.goto(`/withholdings?clientId=${client.id}&status=received`);
  await expect(page.getByText(/Certificate FIRS\/WHT\/77, received/)).toBeVisible();
});

test("staff are refused receipts and withholding", async ({ page, loginAs }) => {
  await loginAs("staff");
  expect((await page.goto("/receipts"))?.status()).toBe(403);
  expect((await page.goto("/withholdings"))?.status()).toBe(403);
});

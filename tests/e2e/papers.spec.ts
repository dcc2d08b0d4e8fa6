import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { amountInWords } from "../../app/utils/amount-words.server";
import { todayIn } from "../../app/utils/dates";
import { formatNaira, sub, toFixed } from "../../app/utils/money";
import { apiPoster, expect, invoiceThroughApi, test, unique } from "./fixtures";
import { pdfToText } from "./pdf-text";

/** A client with an address, one delivery invoiced for them, and a payment of 0.50 on it. */
async function invoiceWithPayment(request: APIRequestContext, origin: string) {
  const tag = unique();
  const post = apiPoster(request, origin);
  // 12.5 t at ₦65,000.04 is ₦812,500.50.
  const { invoice } = await invoiceThroughApi(request, origin, {
    label: "Print",
    tag,
    clientFields: { taxRate: "7.5", address: "Km 5 Benin Road\nOkomu", taxNo: `TIN-${tag}` },
    delivery: { tons: "12.50", location: "Ikorodu yard", truckNo: `LAG-${tag.slice(-4)}` },
    rates: { sellingRate: "65000.04" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "0.50", paymentDate: todayIn("Africa/Lagos") });
  return { invoice, clientName: `Print Client ${tag}`, truck: `LAG-${tag.slice(-4)}` };
}

test("the printable invoice: company, client, lines, tax, words, payments and balance; chrome hidden in print", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  await loginAs("manager");
  const { invoice, clientName, truck } = await invoiceWithPayment(page.request, baseURL!);
  await page.goto(`/invoices?invoiceNo=${invoice.invoiceNo}`);
  await page.getByRole("link", { name: `Print invoice #${invoice.invoiceNo}` }).click();
  await expect(page).toHaveURL(`/invoices/${invoice.id}/print`);
  const doc = page.getByRole("article", { name: `Invoice ${invoice.invoiceNo}` });
  await expect(doc.getByRole("heading", { name: "INVOICE" })).toBeVisible();
  await expect(doc.getByRole("region", { name: "Bill to" })).toContainText(clientName);
  await expect(doc.getByRole("region", { name: "Bill to" })).toContainText("Km 5 Benin Road");
  const row = doc.getByRole("row").filter({ hasText: truck });
  await expect(row).toContainText("Ikorodu yard");
  await expect(row).toContainText("12.50");
  await expect(row).toContainText("65,000.04");
  await expect(row).toContainText("812,500.50");
  expect(invoice.amount).toBe("812500.50");
  await expect(doc.getByTestId("amount-in-words")).toHaveText(amountInWords(invoice.amount));
  await expect(doc).toContainText("Tax included (7.50%)");
  await expect(doc.getByTestId("balance-due")).toHaveText(formatNaira(toFixed(sub(invoice.amount, "0.50"))));
  await expect(doc).toContainText("-₦0.50");
  // The Print button needs JavaScript; without it the browser's own Print works on the same page.
  await expect(page.getByRole("button", { name: "Print" })).toHaveCount(javaScript ? 1 : 0);
  // A document, not a page of the app: no hydration data, in which every line went out a second time.
  expect(await page.content()).not.toContain("__remixContext");
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("complementary", { name: "Sidebar" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Invoice actions" })).toBeHidden();
  await expect(doc).toBeVisible();
});

test("the PDF invoice: an attachment named by number, with the number, the amount in words and ₦", async ({
  page,
  loginAs,
  baseURL,
}, testInfo) => {
  await loginAs("manager");
  const { invoice } = await invoiceWithPayment(page.request, baseURL!);
  await page.goto(`/invoices/${invoice.id}/print`);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`invoice-${invoice.invoiceNo}.pdf`);
  const file = (await download.path())!;
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 4).toString()).toBe("%PDF");
  const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  expect(text).toContain(invoice.invoiceNo);
  expect(text).toContain(amountInWords(invoice.amount));
  expect(text).toContain(formatNaira(invoice.amount));
  // A picture of the first page, kept with the test's results to look at (₦ drawn, not a box).
  const dir = mkdtempSync(path.join(tmpdir(), "invoice-png-"));
  execFileSync("pdftoppm", ["-r", "80", "-png", "-f", "1", "-l", "1", file, path.join(dir, "page")]);
  await testInfo.attach("invoice-page-1.png", { path: path.join(dir, "page-1.png"), contentType: "image/png" });

  const res = await page.request.get(`/invoices/${invoice.id}/pdf`);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  expect(res.headers()["content-disposition"]).toBe(`attachment; filename="invoice-${invoice.invoiceNo}.pdf"`);
});

test("an invoice paid and credited past its amount: a credit, not a balance due, and no payment instructions", async ({
  page,
  loginAs,
  baseURL,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Credited",
    clientFields: { taxRate: "0" },
    rates: { sellingRate: "1000.00" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: invoice.amount, paymentDate: todayIn("Africa/Lagos") });
  await post(`/api/invoices/${invoice.id}/credit-notes`, { amount: "100.00", reason: "Wet shells" });
  await page.goto(`/invoices/${invoice.id}/print`);
  const doc = page.getByRole("article", { name: `Invoice ${invoice.invoiceNo}` });
  await expect(page.getByTestId("balance-due")).toHaveText(formatNaira("100.00"));
  await expect(doc.getByLabel("Totals")).toContainText(`Credit${formatNaira("100.00")}`);
  await expect(doc.getByLabel("Totals")).not.toContainText("Balance Due");
  await expect(doc.getByRole("region", { name: "Payment instructions" })).toHaveCount(0);
  await expect(doc).not.toContainText("Please pay by");

  const res = await page.request.get(`/invoices/${invoice.id}/pdf`);
  const text = pdfToText(Buffer.from(await res.body()));
  expect(text).toMatch(new RegExp(`Credit\\s+${formatNaira("100.00")}`));
  expect(text).not.toContain("Balance Due");
  expect(text).not.toContain("Please pay by");
});

test("staff cannot open an invoice's print view or PDF", async ({ page, loginAs }) => {
  await loginAs("staff");
  expect((await page.request.get("/invoices/1/pdf", { maxRedirects: 0 })).status()).toBe(403);
  const res = await page.goto("/invoices/1/print");
  expect(res?.status()).toBe(403);
});

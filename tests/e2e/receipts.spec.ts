// Receipts and withholding (docs/decisions/1240), with JavaScript and without: a manager records
// a transfer short by the client's WHT from Payments → Receipts → Record Receipt, sees the invoice
// paid with what was withheld, and records the client's certificate on the Withholding page; an
// admin records one transfer over two invoices, follows it to the invoices and reverses it, at
// desktop and phone widths; the four pages have no serious axe finding in either theme.
import type { APIRequestContext } from "@playwright/test";
import { todayIn } from "../../app/utils/dates";
import { formatNaira } from "../../app/utils/money";
import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";
import { checkPage, sidewaysScroll, signIn, walkContext, WIDTHS, type Finding, type Width } from "./walk";

/** A client at VAT 7.5 % and WHT 5 % with two invoices of 10,000.00 (each settled whole by 9,534.88 cash). */
async function clientWithTwoInvoices(request: APIRequestContext, baseURL: string, label: string) {
  const tag = unique();
  const first = await invoiceThroughApi(request, baseURL, {
    label,
    tag,
    clientFields: { taxRate: "7.5", whtRate: "5", paymentTermsDays: 30 },
    rates: { sellingRate: "1000.00" },
  });
  const second = await invoiceThroughApi(request, baseURL, {
    label,
    tag,
    agent: first.agent,
    client: first.client,
    rates: { sellingRate: "1000.00" },
  });
  return { client: first.client, name: String(first.client.name), invoices: [first.invoice, second.invoice] };
}

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
  await page.getByRole("main").getByRole("link", { name: "Receipts", exact: true }).click();
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

for (const width of Object.keys(WIDTHS) as Width[]) {
  test.describe(`at ${WIDTHS[width].width} px`, () => {
    test.use({ viewport: WIDTHS[width] });

    test("one transfer over two invoices, each settled with its WHT, followed to the invoice and reversed", async ({
      page,
      loginAs,
      baseURL,
      javaScript,
    }) => {
      await loginAs("admin");
      const { client, name, invoices } = await clientWithTwoInvoices(page.request, baseURL!, `Rcpt2 ${width}`);
      const noSidewaysScroll = async () => {
        if (width === "phone") expect(await sidewaysScroll(page)).toBeNull();
      };

      // Receipts and Withholding sit under Payments in the admin's navigation.
      await page.goto("/payments");
      await hydrated(page, javaScript);
      if (width === "phone") await page.getByRole("navigation", { name: "Mobile" }).getByLabel("Menu").click();
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Receipts" }).click();
      await expect(page.getByRole("heading", { name: "Receipts", level: 1 })).toBeVisible();
      await noSidewaysScroll();
      await page.getByRole("link", { name: "Record Receipt" }).click();
      await expect(page.getByRole("heading", { name: "Record Receipt", level: 1 })).toBeVisible();
      await page.getByRole("combobox", { name: "Client" }).selectOption(String(client.id));
      await expect(page.getByRole("combobox", { name: "Client" })).toHaveValue(String(client.id));
      await page.getByRole("button", { name: "Show invoices" }).click();
      for (const invoice of invoices)
        await expect(page.getByText(`Invoice #${invoice.invoiceNo}`, { exact: true })).toBeVisible();
      await noSidewaysScroll();
      // No amounts chosen: the cash goes to the oldest due first, 9,534.88 settling each whole.
      await page.getByLabel("Amount received (₦)").fill("19069.76");
      await page.getByLabel("Bank reference (optional)").fill("NIP-TWO");
      await page.getByRole("button", { name: "Record Receipt" }).click();

      await expect(page.getByRole("heading", { name: /^Receipt #\d+$/, level: 1 })).toBeVisible();
      const receiptUrl = new URL(page.url()).pathname;
      await noSidewaysScroll();
      for (const invoice of invoices)
        await expect(
          page
            .getByRole("row")
            .filter({ hasText: `#${invoice.invoiceNo}` })
            .getByRole("cell"),
        ).toHaveText([
          `#${invoice.invoiceNo}`,
          formatNaira("10000.00"),
          formatNaira("9534.88"),
          formatNaira("465.12"),
          formatNaira("0"),
        ]);

      // The invoice page: the receipt with its cash and WHT apart.
      await page
        .getByRole("row")
        .filter({ hasText: `#${invoices[1].invoiceNo}` })
        .getByRole("link", { name: `#${invoices[1].invoiceNo}` })
        .click();
      await expect(page.getByRole("heading", { name: "Receipts (1)" })).toBeVisible();
      await expect(
        page.getByText(
          `Settled ${formatNaira("10000.00")}: cash ${formatNaira("9534.88")}, WHT ${formatNaira("465.12")}`,
        ),
      ).toBeVisible();
      await expect(page.getByTestId("withheld")).toHaveText(formatNaira("465.12"));
      await noSidewaysScroll();

      // The Withholding page: two outstanding, one certificate recorded.
      await page.goto(`/withholdings?clientId=${client.id}&status=outstanding`);
      await hydrated(page, javaScript);
      await noSidewaysScroll();
      const items = page.getByRole("listitem").filter({ hasText: name });
      await expect(items).toHaveCount(2);
      await items.first().getByLabel("Certificate no.").fill(`FIRS/${width}/1`);
      await items.first().getByRole("button", { name: "Record certificate" }).click();
      await expect(page.getByRole("listitem").filter({ hasText: name })).toHaveCount(1);
      await page.goto(`/withholdings?clientId=${client.id}&status=received`);
      await expect(page.getByText(`Certificate FIRS/${width}/1, received`, { exact: false })).toBeVisible();

      // An admin reverses the receipt: every invoice is owed again.
      await page.goto(receiptUrl);
      await hydrated(page, javaScript);
      await page.getByLabel("Reason").fill("Recorded against the wrong client");
      await page.getByRole("button", { name: "Reverse Receipt" }).click();
      await expect(page.getByText("Reversed: every invoice it settled is owed again.")).toBeVisible();
      await page.goto(`/invoices/${invoices[0].id}`);
      await expect(page.getByTestId("invoice-balance")).toContainText(formatNaira("10000.00"));
    });
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`the receipts, bank statement and withholding pages have no serious axe finding, ${theme}, at both widths`, async ({
    browser,
    baseURL,
    javaScript,
  }) => {
    test.slow();
    const findings: Finding[] = [];
    for (const width of Object.keys(WIDTHS) as Width[]) {
      const context = await walkContext(browser, baseURL!, { theme, width, javaScript, axe: true });
      await signIn(context, baseURL!, "admin");
      const { client, invoices } = await clientWithTwoInvoices(context.request, baseURL!, `RcptAxe ${theme} ${width}`);
      const receipt = await apiPoster(context.request, baseURL!)("/api/receipts", {
        clientId: client.id,
        amount: "19069.76",
        reference: "NIP-AXE",
      });
      // A statement line naming an invoice, so the bank page shows a proposal with its forms.
      const day = todayIn("Africa/Lagos").split("-").reverse().join("/");
      const imported = await context.request.post(`${baseURL}/api/bank-statements`, {
        headers: { Origin: baseURL! },
        multipart: {
          accountName: `Axe bank ${theme} ${width} ${Date.now()}`,
          dateColumn: "Date",
          dateFormat: "dd/MM/yyyy",
          narrationColumn: "Details",
          amountStyle: "signed",
          amountColumn: "Amount",
          file: {
            name: "statement.csv",
            mimeType: "text/csv",
            buffer: Buffer.from(`Date,Details,Amount\n${day},"TRF INV ${invoices[1].invoiceNo}",100.00\n`),
          },
        },
      });
      expect(imported.status(), await imported.text()).toBe(201);
      const page = await context.newPage();
      for (const url of [
        "/receipts",
        "/receipts/new",
        `/receipts/new?clientId=${client.id}`,
        `/receipts/${receipt.id}`,
        "/withholdings",
        "/receipts/bank",
        "/receipts/bank?status=unmatched",
      ])
        findings.push(...(await checkPage(page, url, { javaScript, width })));
      await context.close();
    }
    expect(findings).toEqual([]);
  });
}

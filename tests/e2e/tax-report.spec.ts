// The monthly tax report (docs/decisions/0990), with JavaScript and without: a manager reaches it
// from the dashboard, opens this month, and finds an invoice's tax and a credit note's tax under
// the invoice's rate, the month's documents listed, and the month's CSV. Other journeys invoice
// on the same server at the same time: each project's invoice gets a tax rate nobody else uses,
// so that rate's row holds only this test's documents.
import { formatMonth, todayIn } from "../../app/utils/dates";
import { formatNaira } from "../../app/utils/money";
import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

test("a manager opens this month's tax: an invoice's tax less a credit note's, under its rate", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const rate = javaScript ? "3.25" : "4.25";
  const r = Number(rate);
  // 10 tons at 100 x (100 + r): the amount is 1,000 x (100 + r), containing exactly 1,000 x r of tax.
  const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Tax",
    tag,
    clientFields: { taxRate: rate, paymentTermsDays: 30 },
    rates: { sellingRate: (100 * (100 + r)).toFixed(2) },
  });
  const note = (await post(`/api/invoices/${invoice.id}/credit-notes`, {
    amount: (100 * (100 + r)).toFixed(2),
    reason: "Wet shells",
  })) as { id: number; creditNoteNo: string };

  const month = todayIn("Africa/Lagos").slice(0, 7);
  await page.goto("/");
  await hydrated(page, javaScript);
  await page.getByRole("navigation", { name: "Quick links" }).getByRole("link", { name: "Tax Report" }).click();
  await expect(page).toHaveURL("/tax");
  await expect(page.getByRole("heading", { name: "Tax Report", level: 1 })).toBeVisible();
  await page
    .getByRole("region", { name: "Tax by month" })
    .getByRole("link", { name: formatMonth(month) })
    .click();
  await expect(page).toHaveURL(`/tax?month=${month}`);
  await expect(page.getByRole("heading", { name: formatMonth(month), level: 2 })).toContainText("Open");

  const byRate = page.getByRole("region", { name: `${formatMonth(month)} by tax rate` });
  const row = byRate.getByRole("row").filter({ hasText: `${rate}%` });
  // Invoices, sales, tax on sales, credit notes, credited, tax credited, net tax.
  await expect(row.getByRole("cell")).toHaveText([
    `${rate}%`,
    "1",
    formatNaira(1000 * (100 + r)),
    formatNaira(1000 * r),
    "1",
    formatNaira(100 * (100 + r)),
    formatNaira(100 * r),
    formatNaira(900 * r),
  ]);

  const invoices = page.getByRole("region", { name: `Invoices issued in ${formatMonth(month)}` });
  await expect(invoices.getByRole("row").filter({ hasText: `Tax Client ${tag}` })).toContainText(formatNaira(1000 * r));
  await expect(page.getByRole("region", { name: `Credit notes of ${formatMonth(month)}` })).toContainText(
    note.creditNoteNo,
  );
  await invoices.getByRole("link", { name: `#${invoice.invoiceNo}` }).click();
  await expect(page).toHaveURL(`/invoices/${invoice.id}`);
  await page.goBack();
  await expect(page).toHaveURL(`/tax?month=${month}`);

  // The month's CSV: its documents, this test's invoice and credit note among them.
  const csv = await page.request.get(`/tax/export?month=${month}`);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toContain(`Invoice,${invoice.invoiceNo},`);
  expect(text).toContain(`Credit note,${note.creditNoteNo},`);
  await expect(page.getByRole("link", { name: /CSV/ })).toHaveAttribute("href", `/tax/export?month=${month}`);

  await page.getByRole("link", { name: "Hide Details" }).click();
  await expect(page).toHaveURL("/tax");
  await expect(page.getByRole("region", { name: `${formatMonth(month)} by tax rate` })).toHaveCount(0);
});

// A client's statement of account, reached from the client's card, with its
// closing balance and ageing box; the dates are a GET form (works without JavaScript); a bad
// period is a message on the page and a 400 from the API.
import { readFileSync } from "node:fs";
import { AGEING_LABELS, ageingBucket } from "../../app/rules/ageing";
import { addDays, todayIn } from "../../app/utils/dates";
import { formatNaira, sub, toFixed } from "../../app/utils/money";
import { apiPoster, expect, invoiceThroughApi, test, unique } from "./fixtures";
import { pdfToText } from "./pdf-text";

test("a client's statement: opening, lines, closing balance and the ageing bucket of its invoice", async ({
  page,
  loginAs,
  baseURL,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const today = todayIn("Africa/Lagos");
  const monthStart = `${today.slice(0, 8)}01`;
  // Delivered ten days ago on terms of 0 days, invoiced today: due today (decision 0300, "Due
  // date"), so its bucket is the rule's for a due date of today.
  const delivered = addDays(today, -10) < monthStart ? monthStart : addDays(today, -10);
  const name = `Statement Client ${tag}`;
  const { client, invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Statement",
    tag,
    clientFields: { taxRate: "0", paymentTermsDays: 0 },
    delivery: { location: "Ikorodu yard", truckNo: `ST-${tag.slice(-4)}`, date: delivered },
    rates: { sellingRate: "12345.67" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "1000.05", paymentDate: today });
  const closing = toFixed(sub(invoice.amount, "1000.05"));

  await page.goto(`/clients?q=${encodeURIComponent(name)}`);
  await page.getByRole("link", { name: `Statement of ${name}` }).click();
  await expect(page).toHaveURL(`/clients/${client.id}/statement`);
  await expect(page.getByRole("heading", { name: "Statement of Account" })).toBeVisible();

  // The dates through the GET form: this month so far.
  const form = page.getByRole("form", { name: "Statement period" });
  await form.getByLabel("From").fill(monthStart);
  await form.getByLabel("To").fill(today);
  await form.getByRole("button", { name: "Show statement" }).click();
  await expect(page).toHaveURL(new RegExp(`from=${monthStart}&to=${today}`));

  const balances = page.getByRole("region", { name: "Balances" });
  await expect(balances.getByText("Opening balance").locator("..")).toContainText(formatNaira("0"));
  await expect(balances.getByText("Closing balance").locator("..")).toContainText(formatNaira(closing));
  const lines = page.getByRole("region", { name: "Transactions" });
  await expect(lines.getByRole("row").filter({ hasText: "Payment" })).toContainText(formatNaira(closing));

  const bucket = AGEING_LABELS[ageingBucket(today, today, closing)];
  const ageing = page.getByRole("region", { name: /Ageing as of/ });
  await expect(ageing.getByText(bucket, { exact: true }).locator("..")).toContainText(formatNaira(closing));
  await expect(ageing.getByText("Total", { exact: true }).locator("..")).toContainText(formatNaira(closing));

  // The same statement as a PDF, downloaded from its link: the client, the closing balance, the ageing.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`statement-${client.id}-${monthStart}-to-${today}.pdf`);
  const pdfText = pdfToText(readFileSync((await download.path())!));
  expect(pdfText).toContain(name);
  expect(pdfText).toContain(formatNaira(closing));
  expect(pdfText).toContain(bucket);

  // And as CSV, its lines read in the same snapshot as its figures (decision 0970): the
  // last line's running balance is the closing balance.
  const csv = await page.request.get(`/clients/${client.id}/statement/export?from=${monthStart}&to=${today}`);
  expect(csv.status()).toBe(200);
  const rows = (await csv.text()).split("\r\n").map((r) => r.split(","));
  const closingRow = rows.find((r) => r[1] === "Closing balance");
  expect(closingRow?.[6]).toBe(closing);
  expect(rows[rows.indexOf(closingRow!) - 1][6]).toBe(closing);

  // A bad period: a message on the page, the API a 400.
  await page.goto(
    `/clients/${client.id}/statement?from=${today}&to=${monthStart === today ? "2000-01-01" : monthStart}`,
  );
  await expect(page.getByRole("alert").filter({ hasText: "The start date is after the end date" })).toBeVisible();
  const bad = await page.request.get(`/api/clients/${client.id}/statement?from=2020-02-30&to=2020-03-01`);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { message: string }).message).toContain("not a valid date");
});

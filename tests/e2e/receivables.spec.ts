// Receivables (docs/decisions/0995), with JavaScript and without: a manager reaches it from the
// dashboard, finds a client's part-paid invoice under Current with its balance, opens the
// client's statement from the row, and downloads the CSV. Other journeys make clients on the same
// server: this one's name sorts before theirs, so it is on the first page.
import { formatDate, todayIn } from "../../app/utils/dates";
import { formatNaira } from "../../app/utils/money";
import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

test("a manager finds what a client owes, aged, and opens its statement", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const name = `0 Receivables ${javaScript ? "JS" : "HTML"} ${unique()}`;
  const { client, invoice } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Receivables",
    clientFields: { name, taxRate: "7.5", paymentTermsDays: 30 },
    rates: { sellingRate: "1000.00" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "4000.00" });

  await page.goto("/");
  await hydrated(page, javaScript);
  await page.getByRole("navigation", { name: "Quick links" }).getByRole("link", { name: "Receivables" }).click();
  await expect(page).toHaveURL("/receivables");
  await expect(page.getByRole("heading", { name: "Receivables", level: 1 })).toBeVisible();
  await expect(page.getByText(`as of ${formatDate(todayIn("Africa/Lagos"))}`)).toBeVisible();

  // Due in 30 days: all of the 6,000.00 still owed is Current.
  const row = page.getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell")).toHaveText([
    name,
    formatNaira("6000.00"),
    formatNaira("0"),
    formatNaira("0"),
    formatNaira("0"),
    formatNaira("0"),
    formatNaira("6000.00"),
    "Statement",
  ]);

  const csv = await page.request.get("/receivables/export");
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`${client.id},${name},6000.00,0.00,0.00,0.00,0.00,6000.00`);

  await row.getByRole("link", { name: `Statement of ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}/statement`));
  await expect(page.getByRole("heading", { name: "Statement of Account", level: 1 })).toBeVisible();
  await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
});

test("staff are refused the receivables", async ({ page, loginAs }) => {
  await loginAs("staff");
  const response = await page.goto("/receivables");
  expect(response?.status()).toBe(403);
});

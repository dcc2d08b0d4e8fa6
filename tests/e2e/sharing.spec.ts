import { expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";
import { AXE_SOURCE, seriousAxeViolations, sidewaysScroll, WIDTHS } from "./walk";

// Share links and reminders in the browser (docs/decisions/1260), with JavaScript on and off: a
// manager makes a link from the invoice page, it opens signed out (small, not indexed, no
// referrer, no app, no axe findings, no sideways scroll on a phone), is revoked and then says so;
// the Reminders page's WhatsApp button goes to wa.me with the client's number and the message.

const SHARED_PAGE_BUDGET_BYTES = 30 * 1024;

test("a manager shares an invoice, the link opens signed out, and revoked it says so", async ({
  page,
  browser,
  baseURL,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  const tag = unique();
  const { invoice, client } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Share",
    tag,
    rates: { sellingRate: "1500.00" },
  });
  await page.goto(`/invoices/${invoice.id}`);
  await hydrated(page, javaScript);
  await page.getByRole("link", { name: "Share", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Share", exact: true })).toBeVisible();
  await hydrated(page, javaScript);
  await page.getByLabel("Expires after (days)").fill("7");
  await page.getByRole("button", { name: "Create link" }).click();
  const output = page.getByTestId("new-share-url");
  await expect(output).toBeVisible();
  const url = (await output.textContent())!.trim();
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{22}$/);
  await expect(page.getByRole("table")).toContainText("Active");

  // Signed out, on a phone, in a browser of its own.
  const reader = await browser.newContext({ javaScriptEnabled: javaScript, viewport: WIDTHS.phone });
  await reader.addInitScript({ content: AXE_SOURCE });
  const shared = await reader.newPage();
  const sizes: Promise<number>[] = [];
  shared.on("requestfinished", (request) => {
    sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize));
  });
  const response = await shared.goto(url, { waitUntil: "load" });
  expect(response?.status()).toBe(200);
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
  expect(response?.headers()["x-robots-tag"]).toContain("noindex");
  await expect(shared.getByRole("heading", { name: "INVOICE" })).toBeVisible();
  await expect(shared.getByText(String(client.name))).toBeVisible();
  await expect(shared.getByRole("link", { name: "Download PDF" })).toBeVisible();
  await expect(shared.getByRole("navigation")).toHaveCount(0);
  await expect(shared.locator('a[href^="/invoices"], a[href^="/clients"], a[href="/"]')).toHaveCount(0);
  await shared.waitForLoadState("networkidle");
  const total = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  expect(total, `${total} bytes on the wire`).toBeLessThan(SHARED_PAGE_BUDGET_BYTES);
  console.log(`shared invoice page: ${total} bytes on the wire (${javaScript ? "js" : "nojs"})`);
  if (javaScript) {
    expect(await seriousAxeViolations(shared)).toEqual([]);
    expect(await sidewaysScroll(shared)).toBeNull();
  }

  // Revoked from the share page: the link now says so, and nothing of the invoice.
  await page.goto(page.url());
  await hydrated(page, javaScript);
  await page
    .getByRole("button", { name: /^Revoke link/ })
    .first()
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Share link revoked" })).toBeVisible();
  const gone = await shared.goto(url);
  expect(gone?.status()).toBe(410);
  await expect(shared.getByRole("alert")).toContainText("expired or was withdrawn");
  await expect(shared.getByText(String(invoice.invoiceNo))).toHaveCount(0);
  await reader.close();
});

test("the Reminders page's WhatsApp button carries the client's number and message, and records the send", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  const tag = unique();
  // Payment terms 0: due the day it is made, so the on-the-day level is reached today.
  const { invoice, client } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Remind",
    tag,
    clientFields: { paymentTermsDays: 0, whatsappNumber: "0803 555 1234" },
    rates: { sellingRate: "2000.00" },
  });
  expect(client.whatsappNumber).toBe("+2348035551234");
  let opened: string | null = null;
  await page.route("https://wa.me/**", async (route) => {
    opened = route.request().url();
    await route.fulfill({ status: 200, contentType: "text/html", body: "<title>WhatsApp</title><p>chat</p>" });
  });
  // The list starts at this client (it pages by client id).
  await page.goto(`/reminders?after=${Number(client.id) - 1}`);
  await hydrated(page, javaScript);
  const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: String(client.name) }) });
  await expect(card).toContainText(`Invoice ${invoice.invoiceNo}`);
  await card.getByRole("button", { name: /Send on WhatsApp/ }).click();
  await expect(page).toHaveURL(/^https:\/\/wa\.me\//);
  expect(opened).not.toBeNull();
  const wa = new URL(opened!);
  expect(wa.pathname).toBe("/2348035551234");
  const text = wa.searchParams.get("text")!;
  expect(text).toContain(`Hello ${client.name}`);
  expect(text).toContain(`Invoice ${invoice.invoiceNo}: ₦20,000.00`);
  expect(text).toMatch(/Your statement: http:\/\/\S+\/s\/[A-Za-z0-9_-]{22}/);

  // Recorded: no longer due, and the invoice lists it.
  await page.goto(`/reminders?after=${Number(client.id) - 1}`);
  await expect(page.getByRole("heading", { name: String(client.name) })).toHaveCount(0);
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByRole("region", { name: "Reminders" })).toContainText("WhatsApp");
});

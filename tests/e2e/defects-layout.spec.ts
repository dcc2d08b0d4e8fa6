import type { Page } from "@playwright/test";
import { todayIn } from "../../app/utils/dates";
import { apiPoster, expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";

// Layout defects found by walking the app at 1280 and 390 px, with JavaScript on and off. Each
// test measures the layout where the defect was seen (decisions 0951, 0980, 0990).

const PHONE = { width: 390, height: 844 };

/** How far the page scrolls sideways (0 when it fits). */
async function sidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The number of pages of a PDF, read from its page objects. */
function pdfPages(pdf: Buffer) {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

test.describe("the printable invoice", () => {
  test("fits a phone: no sideways scroll, the amount column inside the sheet, the totals on the right", async ({
    page,
    loginAs,
    baseURL,
  }) => {
    await loginAs("manager");
    const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
      label: "Layout",
      clientFields: { taxRate: "7.5" },
      delivery: { tons: "12.50", truckNo: "LAG-1234" },
      rates: { sellingRate: "65000.04" },
    });
    await apiPoster(page.request, baseURL!)("/api/payments", {
      invoiceId: invoice.id,
      amount: "0.50",
      paymentDate: todayIn("Africa/Lagos"),
    });
    await page.setViewportSize(PHONE);
    await page.goto(`/invoices/${invoice.id}/print`);
    const doc = page.getByRole("article", { name: `Invoice ${invoice.invoiceNo}` });
    expect(await sidewaysScroll(page)).toBe(0);
    const sheet = (await doc.boundingBox())!;
    const table = (await doc.getByRole("table").boundingBox())!;
    const amount = (await doc.getByRole("cell", { name: "812,500.50" }).first().boundingBox())!;
    // The whole amount column on the sheet, inside its margin, none of it scrolled out of sight.
    expect(amount.x + amount.width).toBeLessThanOrEqual(sheet.x + sheet.width - 8);
    expect(table.x + table.width).toBeLessThanOrEqual(sheet.x + sheet.width - 8);
    // The totals wrap under the amount in words and keep to the right edge, with the table's.
    const totals = (await doc.getByRole("definition").filter({ hasText: "₦812,500.00" }).boundingBox())!;
    expect(Math.abs(totals.x + totals.width - (table.x + table.width))).toBeLessThan(1);
  });

  test("prints on one A4 page", async ({ page, loginAs, baseURL }) => {
    await loginAs("manager");
    const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
      label: "Layout",
      rates: { sellingRate: "65000" },
    });
    for (const size of [PHONE, { width: 1280, height: 900 }]) {
      await page.setViewportSize(size);
      await page.goto(`/invoices/${invoice.id}/print`);
      expect(pdfPages(await page.pdf({ format: "A4" })), `at ${size.width} px`).toBe(1);
      expect(pdfPages(await page.pdf({ preferCSSPageSize: true })), `at ${size.width} px`).toBe(1);
    }
  });
});

test("the agent statement at 1280 px: the table inside its card, amounts apart, a payout on one line", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const agent = await post("/api/agents", { name: `Layout Agent ${tag}` });
  const delivery = await post("/api/deliveries", {
    agentId: agent.id,
    tons: "120.00",
    location: "Ikorodu yard",
    truckNo: `LAY-${tag.slice(-4)}`,
  });
  const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
    data: { buyingRate: "125000.00", mobilizationPayment: "25000.00" },
    headers: { Origin: baseURL! },
  });
  expect(priced.status(), await priced.text()).toBe(200);
  const payout = await post(`/api/agents/${agent.id}/payouts`, {
    amount: "1500000.00",
    method: "bank_transfer",
    reference: `TRF-${tag}`,
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/agents/${agent.id}/statement`);
  await hydrated(page, javaScript);
  expect(await sidewaysScroll(page)).toBe(0);
  // The section, and in it the box the table scrolls in.
  const section = page.getByRole("region", { name: "Deliveries and payouts" }).first();
  const lines = section.getByRole("region", { name: "Deliveries and payouts" });
  // The table fits its card: nothing to scroll, Owed in sight.
  expect(await lines.evaluate((box) => box.scrollWidth - box.clientWidth)).toBe(0);
  const card = (await section.boundingBox())!;
  const owed = (await lines.getByRole("columnheader", { name: "Owed" }).boundingBox())!;
  expect(owed.x + owed.width).toBeLessThanOrEqual(card.x + card.width);
  // Neighbouring amounts are apart: at least 12 px between the text of one cell and the next.
  const row = lines.getByRole("row").filter({ hasText: `LAY-${tag.slice(-4)}` });
  const gaps = await row.evaluate((tr) => {
    const spans = [...tr.querySelectorAll("td")].map((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return range.getBoundingClientRect();
    });
    return spans.slice(1).map((b, i) => (b.width && spans[i].width ? b.left - spans[i].right : Infinity));
  });
  expect(Math.min(...gaps)).toBeGreaterThanOrEqual(12);
  // The payout row is one line high, as the closing line is.
  const payoutRow = lines.getByRole("row").filter({ hasText: `Payout #${payout.id}` });
  const oneLine = (await lines.getByRole("row").filter({ hasText: "Owed at end" }).boundingBox())!.height;
  expect((await payoutRow.boundingBox())!.height).toBeLessThanOrEqual(oneLine + 1);
});

test("the tax report's month on a phone: no sideways scroll, Net tax whole on its card", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("manager");
  // A month with millions of tax in it: 100 tons at ₦1,075,000.00, 7.5% contained.
  await invoiceThroughApi(page.request, baseURL!, {
    label: "Layout Tax",
    clientFields: { taxRate: "7.5" },
    delivery: { tons: "100.00" },
    rates: { sellingRate: "1075000.00" },
  });
  const month = todayIn("Africa/Lagos").slice(0, 7);
  await page.setViewportSize(PHONE);
  await page.goto(`/tax?month=${month}`);
  await hydrated(page, javaScript);
  expect(await sidewaysScroll(page)).toBe(0);
  const figures = page.getByRole("definition");
  for (const label of ["Tax on sales", "Tax credited", "Net tax"]) {
    const figure = page.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) });
    const card = (await figure.locator("..").boundingBox())!;
    const value = figure.locator("xpath=following-sibling::dd[1]");
    const box = (await value.boundingBox())!;
    expect(box.x + box.width, label).toBeLessThanOrEqual(card.x + card.width);
    expect(await value.evaluate((dd) => dd.scrollWidth - dd.clientWidth), label).toBe(0);
    expect(card.x + card.width, label).toBeLessThanOrEqual(PHONE.width);
  }
  await expect(figures.first()).toBeVisible();
});

test.describe("the list filters", () => {
  test("on a phone the filter card is closed and the list starts on the first screen; it opens on demand", async ({
    page,
    loginAs,
    javaScript,
  }) => {
    await loginAs("manager");
    await page.setViewportSize(PHONE);
    await page.goto("/deliveries");
    await hydrated(page, javaScript);
    const filters = page.getByRole("form", { name: "Filter deliveries" });
    await expect(filters).toBeHidden();
    const list = page.getByRole("region", { name: "Deliveries", exact: true });
    expect((await list.boundingBox())!.y).toBeLessThan(PHONE.height - 100);
    await page.getByText("Filters", { exact: true }).click();
    await expect(filters.getByLabel("Status")).toBeVisible();
    await filters.getByLabel("Status").selectOption("confirmed");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/status=confirmed/);
    // A filter is active: the card opens by itself and says how many.
    await expect(filters.getByLabel("Status")).toHaveValue("confirmed");
    await expect(page.getByText("1 active")).toBeVisible();
    await page.goto("/invoices?status=overdue");
    await expect(page.getByRole("form", { name: "Filter invoices" }).getByLabel("Status")).toBeVisible();
  });

  test("at 1280 px the card is open, with no summary, and every label on one line", async ({
    page,
    loginAs,
    javaScript,
  }) => {
    await loginAs("manager");
    await page.setViewportSize({ width: 1280, height: 900 });
    const cards = [
      { path: "/deliveries", name: "Filter deliveries", labels: ["From", "To", "Status", "Agent"] },
      { path: "/invoices", name: "Filter invoices", labels: ["Invoice #", "Status", "Client", "Due from", "Due to"] },
      {
        path: "/payments",
        name: "Filter payments",
        labels: ["Paid from", "Paid to", "Client", "Invoice #", "Reference"],
      },
    ];
    for (const card of cards) {
      await page.goto(card.path);
      await hydrated(page, javaScript);
      const form = page.getByRole("form", { name: card.name });
      await expect(form).toBeVisible();
      await expect(page.getByText("Filters", { exact: true })).toBeHidden();
      const tops = [];
      for (const label of card.labels)
        tops.push((await form.locator("label", { hasText: label }).first().boundingBox())!.y);
      expect(Math.max(...tops) - Math.min(...tops), `${card.path}: ${tops.join(", ")}`).toBeLessThan(0.5);
      // The boxes under the labels line up too (a long list's search box stands above its select).
      const boxes = [];
      for (const label of card.labels) {
        const under = form.locator("label", { hasText: label }).first().locator("xpath=following-sibling::*[1]");
        boxes.push((await under.boundingBox())!);
      }
      expect(
        Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y + b.height)),
      ).toBeLessThan(0.5);
    }
  });
});

test("dates show one way (Mar 05, 2026) and moments another (Mar 05, 2026 14:02 WAT) on every screen", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  // 100 t at 500.00 a ton earns the agent 50,000.00, more than any offloading cost another
  // journey sets meanwhile (audit.spec.ts sets up to 9,999.50), so the payout below is owed.
  const { invoice, agent } = await invoiceThroughApi(page.request, baseURL!, {
    label: "Dates",
    delivery: { tons: "100.00" },
    rates: { sellingRate: "1000.00", buyingRate: "500.00" },
  });
  await post("/api/payments", { invoiceId: invoice.id, amount: "100.00", paymentDate: todayIn("Africa/Lagos") });
  await post(`/api/agents/${agent.id}/payouts`, { amount: "10.00", method: "cash" });
  const month = todayIn("Africa/Lagos").slice(0, 7);
  for (const path of [
    `/invoices/${invoice.id}`,
    `/agents/${agent.id}/statement`,
    "/agents/owed",
    `/tax?month=${month}`,
    "/receivables",
    "/payments",
  ]) {
    await page.goto(path);
    await hydrated(page, javaScript);
    const text = await page.locator("main").innerText();
    expect(text, path).not.toMatch(/\b\d{2}\/\d{2}\/\d{4}\b/);
    expect(text, path).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(text, path).not.toMatch(/\b[A-Z][a-z]{2} \d, \d{4}\b/);
    expect(text, path).toMatch(/\b[A-Z][a-z]{2} \d{2}, \d{4}\b/);
  }
  // Moments: the invoice's history and the audit trail, to the minute, in the business time
  // zone and naming it (decision 0900).
  await page.goto(`/invoices/${invoice.id}`);
  await expect(page.getByRole("list", { name: "Invoice history" }).locator("time").first()).toHaveText(
    /^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} WAT$/,
  );
  // The trail's changes show the values as they were stored; its own times are moments.
  await page.goto("/audit");
  await expect(page.locator("main time").first()).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} WAT$/);
});

test("the toast's close button closes it, with JavaScript and without", async ({ page, loginAs, javaScript }) => {
  await loginAs("manager");
  await page.goto("/agents/new");
  await hydrated(page, javaScript);
  const dialog = page.getByRole("dialog", { name: "Add Agent" });
  await dialog.getByLabel("Agent Name *").fill(`Toast Agent ${unique()}`);
  await dialog.getByRole("button", { name: "Add Agent" }).click();
  const toast = page.getByRole("status").filter({ hasText: "Agent created successfully" });
  await expect(toast).toBeVisible();
  await page.getByRole("button", { name: "Close notification" }).click();
  await expect(toast).toBeHidden();
  await expect(page.getByRole("button", { name: "Close notification" })).toBeHidden();
});

test("the rates form shows every field's error at once", async ({ page, loginAs, javaScript }) => {
  await loginAs("admin");
  await page.goto("/settings");
  await hydrated(page, javaScript);
  const rates = page.getByRole("region", { name: "Default Rates Configuration" });
  await rates.getByLabel("Buying Rate (₦ per ton)").fill("");
  await rates.getByLabel("Selling Rate (₦ per ton)").fill("");
  await rates.getByLabel("Tax Rate (%)").fill("150");
  await rates.getByLabel("Offloading Cost (₦ per delivery)").fill("99999999999999");
  await rates.getByRole("button", { name: "Save Rates" }).click();
  for (const label of [
    "Buying Rate (₦ per ton)",
    "Selling Rate (₦ per ton)",
    "Tax Rate (%)",
    "Offloading Cost (₦ per delivery)",
  ]) {
    await expect(rates.getByLabel(label), label).toHaveAttribute("aria-invalid", "true");
  }
  await expect(rates.getByText("Selling rate is required")).toBeVisible();
});

test("a money field says what it takes: a visible hint, and the browser's own message names it too", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  await page.goto("/deliveries/new");
  await hydrated(page, javaScript);
  const cost = page.getByLabel("Logistics cost (₦)");
  const hintId = (await cost.getAttribute("aria-describedby"))!;
  await expect(page.locator(`[id="${hintId}"]`)).toHaveText("Amount in naira, up to 2 decimals");
  await expect(page.locator(`[id="${hintId}"]`)).toBeVisible();
  // Without JavaScript nothing trims what is typed: the browser refuses it, and its message shows
  // the field's title under "Please match the requested format".
  await expect(cost).toHaveAttribute("title", "Amount in naira, up to 2 decimals");
  if (!javaScript) {
    await cost.fill("1.234");
    expect(await cost.evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  }
});

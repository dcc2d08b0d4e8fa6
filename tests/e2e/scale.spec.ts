// Paged lists (decision 0502), the status counts and reconciliation: paging forward and back on Invoices and
// Payments with a filter kept; the status counts as links; "Generate Invoice" on
// reconciliation asks first. JavaScript on and off (the projects), at 1280 and 390 px.
import type { Page } from "@playwright/test";
import { formatMonth } from "../../app/utils/dates";
import { expect, hydrated, test } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";
import { api, ok, WIDTHS, type Width } from "./walk";

const SIZES = Object.keys(WIDTHS) as Width[];
type Api = Awaited<ReturnType<typeof api>>;

/** A confirmed delivery at ₦1,000 a ton (New Delivery copies the settings' rates; the edit sets its own). */
async function delivery(admin: Api, data: Record<string, unknown>) {
  const d = await ok<{ id: number }>(
    await admin.post("/api/deliveries", { data: { location: "Scale yard", ...data } }),
  );
  await ok(await admin.patch(`/api/deliveries/${d.id}`, { data: { sellingRate: "1000" } }));
  return d;
}

const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A client with `count` invoiced deliveries, each paid in part with reference `<ref>-<i>`. */
async function clientWithInvoices(baseURL: string, count: number) {
  const admin = await api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const t = tag();
  const agent = await ok<{ id: number }>(await admin.post("/api/agents", { data: { name: `Pager Agent ${t}` } }));
  const client = await ok<{ id: number; name: string }>(
    await admin.post("/api/clients", { data: { name: `Pager Client ${t}`, taxRate: "0", paymentTermsDays: 30 } }),
  );
  const reference = `PG${t}`;
  for (let i = 0; i < count; i++) {
    const d = await delivery(admin, { agentId: agent.id, clientId: client.id, tons: "1.00" });
    const inv = await ok<{ id: number }>(await admin.post("/api/invoices", { data: { deliveryId: d.id } }));
    await ok(
      await admin.post("/api/payments", {
        data: { invoiceId: inv.id, amount: "1.00", reference: `${reference}-${i}` },
      }),
    );
  }
  await admin.dispose();
  return { client, reference };
}

/** On a phone the filter card starts folded when no filter is active (decision 0502): open it. */
async function openFilters(page: Page) {
  const summary = page.getByText("Filters", { exact: true });
  if (await summary.isVisible()) await summary.click();
}

async function cards(page: Page) {
  return page.getByRole("listitem", { name: /^Invoice #/ }).count();
}

test("invoices and payments page forward and back with the filter kept", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const { client, reference } = await clientWithInvoices(baseURL!, 52);
  await loginAs("manager");
  for (const size of SIZES) {
    await page.setViewportSize(WIDTHS[size]);
    await page.goto("/invoices");
    await hydrated(page, javaScript);
    await openFilters(page);
    await page.getByLabel("Client", { exact: true }).selectOption({ label: client.name });
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`clientId=${client.id}`));
    await expect.poll(() => cards(page)).toBe(50);
    const pager = page.getByRole("navigation", { name: "Invoice pages" });
    await expect(pager.getByRole("link", { name: "Newer" })).toHaveCount(0);
    await pager.getByRole("link", { name: "Older" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page).toHaveURL(new RegExp(`clientId=${client.id}`));
    await expect.poll(() => cards(page)).toBe(2);
    await expect(page.getByLabel("Client", { exact: true })).toHaveValue(String(client.id));
    await expect(pager.getByRole("link", { name: "Older" })).toHaveCount(0);
    await pager.getByRole("link", { name: "Newer" }).click();
    await expect(page).toHaveURL(/before=/);
    await expect.poll(() => cards(page)).toBe(50);
    await pager.getByRole("link", { name: "First page" }).click();
    await expect(page).not.toHaveURL(/cursor=|before=/);
    await expect(page).toHaveURL(new RegExp(`clientId=${client.id}`));
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth).catch(() => WIDTHS[size].width),
    ).toBeLessThanOrEqual(WIDTHS[size].width);

    await page.goto("/payments");
    await hydrated(page, javaScript);
    await openFilters(page);
    await page.getByLabel("Reference").fill(reference);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`reference=${reference}`));
    const refs = page.getByText(new RegExp(`Ref: ${reference}-`));
    await expect(refs).toHaveCount(50);
    await expect(page.getByTestId("total-payments")).toHaveText("52");
    const paymentsPager = page.getByRole("navigation", { name: "Payment pages" });
    await paymentsPager.getByRole("link", { name: "Older" }).click();
    await expect(refs).toHaveCount(2);
    await expect(page.getByLabel("Reference")).toHaveValue(reference);
    await expect(page.getByTestId("total-payments")).toHaveText("52");
    await paymentsPager.getByRole("link", { name: "Newer" }).click();
    await expect(refs).toHaveCount(50);
  }
});

test("the invoice status counts are separate, and each filters the list", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  const admin = await api(baseURL!, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const t = tag();
  const agent = await ok<{ id: number }>(await admin.post("/api/agents", { data: { name: `Status Agent ${t}` } }));
  const d = await delivery(admin, { agentId: agent.id, tons: "2.00" });
  const inv = await ok<{ id: number; invoiceNo: string }>(
    await admin.post("/api/invoices", { data: { deliveryId: d.id } }),
  );
  await ok(await admin.post("/api/payments", { data: { invoiceId: inv.id, amount: "500.00" } }));
  await admin.dispose();
  await loginAs("manager");
  for (const size of SIZES) {
    await page.setViewportSize(WIDTHS[size]);
    await page.goto("/invoices");
    await hydrated(page, javaScript);
    const summary = page.getByRole("navigation", { name: "Invoice summary" });
    for (const label of ["Pending", "Partial", "Overdue", "Paid"])
      await expect(summary.getByRole("link", { name: new RegExp(`^${label}`) })).toBeVisible();
    expect(Number(await page.getByTestId("summary-partial").textContent())).toBeGreaterThanOrEqual(1);
    await summary.getByRole("link", { name: /^Partial/ }).click();
    await expect(page).toHaveURL(/status=partial/);
    await expect(summary.getByRole("link", { name: /^Partial/ })).toHaveAttribute("aria-current", "page");
    await expect(page.getByLabel("Status")).toHaveValue("partial");
    await expect(page.getByRole("listitem", { name: `Invoice #${inv.invoiceNo}` })).toBeVisible();
    const badges = page.getByRole("listitem", { name: /^Invoice #/ });
    const n = await badges.count();
    for (let i = 0; i < Math.min(n, 5); i++) await expect(badges.nth(i)).toContainText("partial");
    await summary.getByRole("link", { name: /^Overdue/ }).click();
    await expect(page).toHaveURL(/status=overdue/);
    await expect(page.getByRole("listitem", { name: `Invoice #${inv.invoiceNo}` })).toHaveCount(0);
  }
});

test("Generate Invoice on reconciliation asks first, showing clients, deliveries, tons and amount", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  const admin = await api(baseURL!, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const t = tag();
  const agent = await ok<{ id: number }>(await admin.post("/api/agents", { data: { name: `Month Agent ${t}` } }));
  const a = await ok<{ id: number; name: string }>(
    await admin.post("/api/clients", { data: { name: `Alpha ${t}`, taxRate: "0", paymentTermsDays: 30 } }),
  );
  const b = await ok<{ id: number; name: string }>(
    await admin.post("/api/clients", { data: { name: `Beta ${t}`, taxRate: "0", paymentTermsDays: 30 } }),
  );
  // One month per run (project x width), far enough back to be a month of its own.
  const months = javaScript ? ["2001-01", "2001-02"] : ["2001-04", "2001-05"];
  for (const month of months) {
    for (const [clientId, tons, day] of [
      [a.id, "10.00", "03"],
      [a.id, "5.50", "09"],
      [b.id, "2.00", "12"],
    ] as const) {
      await delivery(admin, { agentId: agent.id, clientId, tons, date: `${month}-${day}` });
    }
  }
  await admin.dispose();
  await loginAs("manager");
  for (const [i, size] of SIZES.entries()) {
    const month = months[i];
    await page.setViewportSize(WIDTHS[size]);
    const after = `${month.slice(0, 5)}${String(Number(month.slice(5)) + 1).padStart(2, "0")}`;
    await page.goto(`/reconciliation?cursor=${after}`);
    await hydrated(page, javaScript);
    const card = page.getByRole("listitem", { name: formatMonth(month) });
    const generate = card.getByRole("link", { name: "Generate Invoice", exact: true });
    await generate.click();
    // The next numbers, whichever month (decision 0501); invoices made meanwhile by parallel tests move them on.
    const dialog = page.getByRole("dialog", { name: /^Generate Invoices #\d+ and #\d+$/ });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("row", { name: new RegExp(`Alpha ${t}`) })).toContainText("2");
    await expect(dialog.getByRole("row", { name: new RegExp(`Alpha ${t}`) })).toContainText("15.50");
    await expect(dialog.getByRole("row", { name: new RegExp(`Alpha ${t}`) })).toContainText("₦15,500.00");
    await expect(dialog.getByRole("row", { name: new RegExp(`Beta ${t}`) })).toContainText("₦2,000.00");
    await expect(dialog.getByRole("row", { name: /Total/ })).toContainText("₦17,500.00");
    // Cancel changes nothing.
    await dialog.getByRole("link", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(generate).toBeVisible();
    await generate.click();
    await expect(dialog).toBeVisible();
    // An invoice another journey makes meanwhile takes the numbers shown: the dialog asks again,
    // titled with the new numbers.
    const created = page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Invoice created successfully\\s*${formatMonth(month)}:`) });
    // The toast shows for five seconds: what it said is kept as soon as it shows. Every journey
    // that makes an invoice takes the next numbers, and the whole suite's journeys run at once:
    // under that load the dialog can ask again many times before one try lands.
    let said = "";
    for (let attempt = 0; attempt < 40 && !said; attempt++) {
      const shown = await dialog.getByRole("heading").first().textContent();
      await dialog.getByRole("button", { name: "Create 2 invoices" }).click();
      const heading = () => dialog.getByRole("heading").first().textContent({ timeout: 500 });
      const outcome = async () =>
        (await created.count()) > 0
          ? (said = (await created.first().textContent()) ?? "made")
          : (await heading().catch(() => shown)) !== shown
            ? "asked again"
            : "waiting";
      await expect.poll(() => outcome().catch(() => "waiting")).not.toBe("waiting");
      await hydrated(page, javaScript);
    }
    expect(said).toContain("Invoice created successfully");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(card).toContainText("Invoices: #");
    await expect(card.getByRole("link", { name: /^Generate Invoice/ })).toHaveCount(0);
  }
});

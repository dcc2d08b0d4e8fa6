// Reconciliation, month close and closed months, as a manager and an admin walking them at 1280 and
// 390 px with JavaScript on and off (decisions 0501 and 0901): the invoice number a confirmation
// shows is the number issued, whichever month is invoiced first; closing asks first, offering
// months as choices; a closed month's deliveries and invoicing show read-only, with the reason.
import type { Browser, Page } from "@playwright/test";
import { formatMonth } from "../../app/utils/dates";
import { desk, expect, hydrated, test, unique } from "./fixtures";
import { E2E_PASSWORD, FIXTURE_USERS } from "./users";
import { api, ok, WIDTHS } from "./walk";

type Api = Awaited<ReturnType<typeof api>>;

/** An agent and a client of their own, and a confirmed delivery (₦1,000 a ton) on each date. */
async function deliveriesOn(baseURL: string, dates: string[]) {
  const admin = await api(baseURL, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const t = unique();
  const agent = await ok<{ id: number; name: string }>(
    await admin.post("/api/agents", { data: { name: `Month Agent ${t}` } }),
  );
  const client = await ok<{ id: number }>(
    await admin.post("/api/clients", { data: { name: `Month Client ${t}`, taxRate: "0", paymentTermsDays: 30 } }),
  );
  const ids: number[] = [];
  for (const date of dates) ids.push(await confirmedDelivery(admin, { agentId: agent.id, clientId: client.id, date }));
  await admin.dispose();
  return { agent, ids };
}

async function confirmedDelivery(admin: Api, data: Record<string, unknown>) {
  const d = await ok<{ id: number }>(
    await admin.post("/api/deliveries", { data: { location: "Month yard", tons: "2.00", ...data } }),
  );
  await ok(await admin.patch(`/api/deliveries/${d.id}`, { data: { sellingRate: "1000" } }));
  return d.id;
}

const nextMonth = (m: string) => {
  const [y, mm] = m.split("-").map(Number);
  return mm === 12 ? `${y + 1}-01` : `${y}-${String(mm + 1).padStart(2, "0")}`;
};

/**
 * Invoices `month` from its card as a person would, and returns the number the confirmation
 * promised, which must be the number issued. Other journeys on the same server make invoices
 * too, in bursts: when one takes the promised number first, nothing is made and the
 * confirmation asks again with the new number (at most ten times here).
 */
async function generateFromCard(page: Page, javaScript: boolean, month: string) {
  const card = page.getByRole("listitem", { name: formatMonth(month) });
  await card.getByRole("link", { name: /^Generate Invoice/ }).click();
  const dialog = page.getByRole("dialog", { name: /^Generate Invoice #\d+$/ });
  for (let attempt = 0; attempt < 10; attempt++) {
    await expect(dialog).toBeVisible();
    const promised = (await dialog.getByRole("heading").first().textContent())!.replace(/^Generate Invoice /, "");
    await dialog.getByRole("button", { name: "Create invoice" }).click();
    // Made (a toast says so), or asked again under a new number (the title changes).
    const created = page
      .getByRole("status")
      .filter({ hasText: new RegExp(`Invoice created successfully\\s*${formatMonth(month)}:`) });
    const heading = () => dialog.getByRole("heading").first().textContent({ timeout: 500 });
    const title = `Generate Invoice ${promised}`;
    // The toast shows for five seconds: what it said is kept as soon as it shows.
    let said = "";
    const outcome = async () =>
      (await created.count()) > 0
        ? (said = (await created.first().textContent()) ?? "made")
        : (await heading().catch(() => title)) !== title
          ? "asked again"
          : "waiting";
    await expect.poll(() => outcome().catch(() => "waiting")).not.toBe("waiting");
    await hydrated(page, javaScript);
    if (said) {
      expect(said).toContain(`${formatMonth(month)}: ${promised}`);
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(card).toContainText(`Invoices: ${promised}`);
      return promised;
    }
    const refused = page
      .getByRole("status")
      .filter({ hasText: `Invoice ${promised} has been issued since this was shown` });
    await expect(refused.first()).toBeVisible();
  }
  throw new Error(`${month}: the promised number was taken ten times running`);
}

test("reconciliation: the number a month's confirmation shows is the number issued, months invoiced out of order", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  // Three months of their own per project, far back enough to be alone on their page.
  const months = javaScript ? ["2003-06", "2003-07", "2003-08"] : ["2003-10", "2003-11", "2003-12"];
  await deliveriesOn(
    baseURL!,
    months.map((m) => `${m}-10`),
  );
  await loginAs("manager");
  await page.setViewportSize(WIDTHS.desktop);
  await page.goto(`/reconciliation?cursor=${nextMonth(months[2])}`);
  await hydrated(page, javaScript);
  // The latest month first, then the oldest, then the middle one: each gets what it promised.
  const issued = [await generateFromCard(page, javaScript, months[2])];
  // No month's button promises a number of its own (any may be chosen first); the dialog does.
  for (const m of months.slice(0, 2)) {
    const card = page.getByRole("listitem", { name: formatMonth(m) });
    await expect(card.getByRole("link", { name: "Generate Invoice", exact: true })).toBeVisible();
    await expect(card).not.toContainText(/#\d+/);
  }
  await page
    .getByRole("listitem", { name: formatMonth(months[0]) })
    .getByRole("link", { name: "Generate Invoice" })
    .click();
  await expect(page.getByRole("dialog")).toContainText(/This will be invoice #\d+, the next number\./);
  await page.getByRole("dialog").getByRole("link", { name: "Cancel" }).click();
  for (const m of [months[0], months[1]]) issued.push(await generateFromCard(page, javaScript, m));
  expect(new Set(issued).size).toBe(3);
});

test("reconciliation on a phone: Total Tons, Revenue and Status each keep to their own space", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  const month = javaScript ? "2004-02" : "2004-04";
  const admin = await api(baseURL!, FIXTURE_USERS.admin.email, E2E_PASSWORD);
  const agent = await ok<{ id: number }>(await admin.post("/api/agents", { data: { name: `Wide ${unique()}` } }));
  // Revenue in the hundreds of millions: the longest figure a month is likely to show.
  const d = await ok<{ id: number }>(
    await admin.post("/api/deliveries", {
      data: { agentId: agent.id, tons: "9999.99", location: "Wide yard", date: `${month}-03` },
    }),
  );
  await ok(await admin.patch(`/api/deliveries/${d.id}`, { data: { sellingRate: "99999.99" } }));
  await admin.dispose();
  await loginAs("manager");
  await page.setViewportSize(WIDTHS.phone);
  await page.goto(`/reconciliation?cursor=${nextMonth(month)}`);
  await hydrated(page, javaScript);
  const card = page.getByRole("listitem", { name: formatMonth(month) });
  await expect(card).toContainText("₦999,998,900.00");
  const boxes = [];
  for (const term of ["Total Tons", "Revenue", "Status"]) {
    const value = card.locator("dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");
    const inner = await value.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    });
    boxes.push(inner);
  }
  const cardBox = (await card.boundingBox())!;
  for (const [i, a] of boxes.entries()) {
    expect(a.right).toBeLessThanOrEqual(cardBox.x + cardBox.width);
    for (const b of boxes.slice(i + 1)) {
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      expect(apart, `${JSON.stringify(a)} and ${JSON.stringify(b)} overlap`).toBe(true);
    }
  }
});

test("Generate Invoice: the date search box shows a whole date at 1280 and 390 px", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("manager");
  for (const size of [WIDTHS.desktop, WIDTHS.phone]) {
    await page.setViewportSize(size);
    await page.goto("/invoices/new");
    await hydrated(page, javaScript);
    const date = page.getByRole("dialog", { name: "Generate Invoice" }).getByLabel("Date");
    await date.fill("2026-12-31");
    // Chromium draws "12/31/2026" and its calendar button inside the box: about 9.5rem at 16 px.
    const width = (await date.boundingBox())!.width;
    expect(width, `date box at ${size.width} px`).toBeGreaterThanOrEqual(152);
  }
});

/** The same signed-in admin with JavaScript switched off: close is everyone's, so one test walks both. */
async function withoutJavaScript(browser: Browser, page: Page, baseURL: string) {
  const context = await browser.newContext({
    extraHTTPHeaders: desk(),
    javaScriptEnabled: false,
    baseURL,
    storageState: await page.context().storageState(),
  });
  return context.newPage();
}

async function closedThrough(page: Page) {
  return ((await (await page.request.get("/api/periods")).json()) as { closedThrough: string | null }).closedThrough;
}

// Closing is for the whole server and cumulative, so the journeys that close months run one
// after another in one test: with JavaScript off (a page), then on (a dialog). A close holds
// every earlier month too, so the months (February to June 2000) are older than any date another
// journey writes; January 2000, which audit.spec.ts and offline.spec.ts close, may be closed
// before this starts or by it, either way.
test("month close asks first, naming the months and what it stops; a closed month then shows read-only", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
  browser,
}) => {
  test.skip(!javaScript, "walks JavaScript off and on itself, one after the other: a close is shared by every test");
  const { agent, ids } = await deliveriesOn(baseURL!, ["2000-02-15", "2000-04-15", "2000-06-15"]);
  await loginAs("admin");
  expect((await closedThrough(page)) ?? "").not.toMatch(/^2000-(0[2-9]|1[0-2])/);

  // JavaScript off: the choice, then a page that asks; Cancel changes nothing.
  const plain = await withoutJavaScript(browser, page, baseURL!);
  await plain.setViewportSize(WIDTHS.phone);
  await plain.goto("/settings");
  const card = plain.getByRole("region", { name: "Month Close" });
  const choice = card.getByLabel("Month to close");
  await expect(choice.locator("option", { hasText: "April 2000" })).toHaveCount(1);
  await expect(choice).toHaveValue("");
  await choice.selectOption({ label: "April 2000" });
  await card.getByRole("button", { name: "Close Month" }).click();
  const ask = plain.getByRole("dialog", { name: "Close April 2000?" });
  await expect(ask).toContainText("February 2000");
  await expect(ask).toContainText("Nobody can then create, change or delete a delivery");
  expect(await closedThrough(plain)).not.toBe("2000-04-30");
  await ask.getByRole("link", { name: "Cancel" }).click();
  await expect(plain).toHaveURL(/\/settings$/);
  expect((await closedThrough(plain)) ?? "").not.toMatch(/^2000-(0[2-9]|1[0-2])/);
  await card.getByLabel("Month to close").selectOption({ label: "April 2000" });
  await card.getByRole("button", { name: "Close Month" }).click();
  await ask.getByRole("button", { name: /^Close / }).click();
  await expect(plain.getByRole("status")).toContainText("April 2000 closed: closed through April 2000");
  expect(await closedThrough(plain)).toBe("2000-04-30");
  // A closed month is no longer offered.
  await expect(card.getByLabel("Month to close").locator("option", { hasText: "April 2000" })).toHaveCount(0);

  // JavaScript on: the same as a dialog over System Settings.
  await page.setViewportSize(WIDTHS.desktop);
  await page.goto("/settings");
  await hydrated(page, true);
  const jsCard = page.getByRole("region", { name: "Month Close" });
  await jsCard.getByLabel("Month to close").selectOption({ label: "June 2000" });
  await jsCard.getByRole("button", { name: "Close Month" }).click();
  const dialog = page.getByRole("dialog", { name: "Close June 2000?" });
  await expect(dialog).toContainText("May 2000, June 2000");
  await dialog.getByRole("link", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  expect(await closedThrough(page)).toBe("2000-04-30");
  await jsCard.getByLabel("Month to close").selectOption({ label: "June 2000" });
  await jsCard.getByRole("button", { name: "Close Month" }).click();
  await dialog.getByRole("button", { name: "Close 2 months" }).click();
  await expect(page.getByRole("status")).toContainText("June 2000 closed: closed through June 2000");
  expect(await closedThrough(page)).toBe("2000-06-30");

  // A closed month's delivery opens read-only with the reason, from the list and directly.
  for (const [p, js] of [
    [plain, false],
    [page, true],
  ] as const) {
    await p.goto("/deliveries?from=2000-02-01&to=2000-02-29");
    await hydrated(p, js);
    await p.getByRole("link", { name: `View delivery of Feb 15, 2000 from ${agent.name}` }).click();
    const view = p.getByRole("dialog", { name: "Delivery" });
    await expect(view.getByRole("note")).toContainText("This month is closed");
    await expect(view).toContainText("An admin can reopen the month");
    await expect(view.getByRole("button", { name: "Save Changes" })).toHaveCount(0);
    await expect(view.getByRole("link", { name: "Delete" })).toHaveCount(0);
    await expect(view.getByRole("textbox")).toHaveCount(0);
    await p.goto(`/deliveries/${ids[0]}/delete`);
    await expect(p.getByRole("dialog", { name: "Cannot delete this delivery" })).toContainText("This month is closed");

    // Reconciliation says the month is closed and offers no invoice; asked directly, it says why.
    await p.goto("/reconciliation?cursor=2000-07");
    await hydrated(p, js);
    const february = p.getByRole("listitem", { name: "February 2000" });
    await expect(february).toContainText("Closed");
    await expect(february).toContainText("February 2000 is closed");
    await expect(february.getByRole("link", { name: /Generate Invoice/ })).toHaveCount(0);
    await p.goto("/reconciliation?cursor=2000-07&confirm=2000-02");
    const confirm = p.getByRole("dialog");
    await expect(confirm).toContainText("This month is closed");
    await expect(confirm.getByRole("button", { name: /Create/ })).toHaveCount(0);
  }
  await plain.context().close();
});

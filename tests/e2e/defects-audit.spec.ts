import { apiPoster, expect, hydrated, test, unique } from "./fixtures";

// The audit trail and a record's history in plain words (decision 0900): "Delivery updated",
// "Other costs ₦0.00 → ₦5,000.00", agents and people by name, times in Lagos time, an address as
// people write it; the raw record stays in the CSV export and GET /api/audit. And the dashboard's
// counters count up once, not after every action.

const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** A delivery by one new agent, then moved to another with other costs added, through the API. */
async function changedDelivery(
  post: ReturnType<typeof apiPoster>,
  request: import("@playwright/test").APIRequestContext,
  origin: string,
) {
  const tag = unique();
  const first = await post("/api/agents", { name: `Audit First ${tag}` });
  const second = await post("/api/agents", { name: `Audit Second ${tag}` });
  const client = await post("/api/clients", { name: `Audit Client ${tag}` });
  const delivery = await post("/api/deliveries", {
    agentId: first.id,
    clientId: client.id,
    tons: "10.00",
    location: `Audit yard ${tag}`,
  });
  const changed = await request.patch(`/api/deliveries/${delivery.id}`, {
    data: { otherCosts: "5000", agentId: second.id },
    headers: { Origin: origin },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  return { delivery, first: first.name as string, second: second.name as string };
}

/** The page's text carries none of the developer's words the trail used to show. */
async function expectNoDeveloperWords(page: import("@playwright/test").Page) {
  const text = await page.locator("main").innerText();
  for (const raw of ["delivery.update", "delivery.create", "otherCosts", "agentId", "createdBy", "::ffff:", "UTC"])
    expect(text, raw).not.toContain(raw);
}

for (const [size, viewport] of Object.entries(WIDTHS)) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the audit trail names what happened, the agents and the person, in Lagos time", async ({
      page,
      loginAs,
      javaScript,
      users,
      baseURL,
    }) => {
      await loginAs("admin");
      const { delivery, first, second } = await changedDelivery(
        apiPoster(page.request, baseURL!),
        page.request,
        baseURL!,
      );
      await page.goto(`/audit?entity=delivery&entityId=${delivery.id}`);
      await hydrated(page, javaScript);
      await expect(page.getByRole("heading", { name: "Audit Trail" })).toBeVisible();
      await expect(page.getByText(/Lagos time/)).toBeVisible();

      const events = page.getByRole("list", { name: "Audit events" }).getByRole("listitem");
      await expect(events).toHaveCount(2);
      const update = events.first();
      await expect(update).toContainText("Delivery updated");
      await expect(update).toContainText(`Delivery #${delivery.id}`);
      await expect(update).toContainText(`by ${users.admin.firstName} ${users.admin.lastName}`);
      await expect(update.getByRole("row", { name: /^Other costs/ })).toHaveAccessibleName("Other costs — ₦5,000.00");
      await expect(update.getByRole("row", { name: /^Agent/ })).toHaveAccessibleName(`Agent ${first} ${second}`);
      await expect(update.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2} WAT$/);
      // The time is the event's instant an hour ahead of UTC.
      const iso = await update.locator("time").getAttribute("datetime");
      const lagos = new Date(Date.parse(iso!) + 60 * 60 * 1000).toISOString();
      await expect(update.locator("time")).toContainText(lagos.slice(11, 16));
      await expect(update).toContainText(/from 198\.1[89]\.\d+\.\d+/);
      const create = events.nth(1);
      await expect(create).toContainText("Delivery recorded");
      await expect(create.getByRole("row", { name: /^Entered by/ })).toHaveAccessibleName(
        `Entered by ${users.admin.firstName} ${users.admin.lastName}`,
      );
      await expectNoDeveloperWords(page);

      // The filters offer actions and records in words; the values stay the codes.
      const filters = page.getByRole("form", { name: "Filter audit events" });
      await expect(
        filters.getByLabel("What happened").locator("option", { hasText: "Delivery updated" }),
      ).toHaveAttribute("value", "delivery.update");

      // The raw record is still in the API.
      const raw = await (await page.request.get(`/api/audit?entity=delivery&entityId=${delivery.id}`)).json();
      expect(raw[0]).toMatchObject({ action: "delivery.update" });
      expect(raw[0].changes.map((c: { field: string }) => c.field)).toEqual(
        expect.arrayContaining(["otherCosts", "agentId"]),
      );

      if (size === "phone") {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    });

    test("a delivery's own history, in the Edit Delivery dialog, reads the same way", async ({
      page,
      loginAs,
      javaScript,
      users,
      baseURL,
    }) => {
      await loginAs("manager");
      const { delivery, first, second } = await changedDelivery(
        apiPoster(page.request, baseURL!),
        page.request,
        baseURL!,
      );
      await page.goto(`/deliveries/${delivery.id}/edit`);
      await hydrated(page, javaScript);
      await page.getByText("History", { exact: true }).click();
      const history = page.getByRole("list", { name: "Delivery history" });
      await expect(history.getByRole("listitem")).toHaveCount(2);
      const update = history.getByRole("listitem").first();
      await expect(update).toContainText("Delivery updated");
      await expect(update).toContainText(`by ${users.manager.firstName} ${users.manager.lastName}`);
      await expect(update.getByRole("row", { name: /^Other costs/ })).toHaveAccessibleName("Other costs — ₦5,000.00");
      await expect(update.getByRole("row", { name: /^Agent/ })).toHaveAccessibleName(`Agent ${first} ${second}`);
      await expect(update.locator("time")).toHaveText(/ WAT$/);
      const text = await history.innerText();
      for (const raw of ["delivery.update", "otherCosts", "agentId", "UTC", "::ffff:"])
        expect(text, raw).not.toContain(raw);
      if (size === "phone") {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    });
  });
}

test("an invoice's history says it was created, for how many deliveries, by whom", async ({
  page,
  loginAs,
  javaScript,
  users,
  baseURL,
}) => {
  await loginAs("manager");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const agent = await post("/api/agents", { name: `Invoice Audit Agent ${tag}` });
  const client = await post("/api/clients", { name: `Invoice Audit Client ${tag}` });
  const delivery = await post("/api/deliveries", {
    agentId: agent.id,
    clientId: client.id,
    tons: "10.00",
    location: `Invoice audit yard ${tag}`,
  });
  const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
    data: { sellingRate: "1000" },
    headers: { Origin: baseURL! },
  });
  expect(priced.status()).toBe(200);
  const invoice = await post("/api/invoices", { deliveryId: delivery.id });
  await page.goto(`/invoices/${invoice.id}`);
  await hydrated(page, javaScript);
  const history = page.getByRole("list", { name: "Invoice history" });
  const created = history.getByRole("listitem").first();
  await expect(created).toContainText("Invoice created");
  await expect(created).toContainText(`by ${users.manager.firstName} ${users.manager.lastName}`);
  await expect(created.getByRole("row", { name: /^Deliveries/ })).toHaveAccessibleName("Deliveries 1");
  await expect(created.getByRole("row", { name: /^Client/ })).toHaveAccessibleName(`Client ${client.name}`);
  await expect(created.locator("time")).toHaveText(/ WAT$/);
  const text = await history.innerText();
  for (const raw of ["invoice.create", "deliveryCount", "clientId", "UTC"]) expect(text, raw).not.toContain(raw);
});

test("the dashboard's counters count up once, not again after an action or a revalidation", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  test.skip(!javaScript, "Without JavaScript the number is simply there");
  await loginAs("manager");
  await page.goto("/");
  await hydrated(page, javaScript);
  const counter = page.getByTestId("stat-deliveries").locator("[data-value]");
  // The first view counts up to the number.
  await expect
    .poll(async () => (await counter.innerText()).replace(/,/g, "") === (await counter.getAttribute("data-value")))
    .toBe(true);
  // From now on, every number the counter shows is recorded.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const node = document.querySelector('[data-testid="stat-deliveries"] [data-value]');
      if (node) seen.push(node.textContent ?? "");
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const before = Number(await counter.getAttribute("data-value"));

  // An action: a delivery recorded through the API, then the page revalidates.
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const agent = await post("/api/agents", { name: `Counter Agent ${tag}` });
  const client = await post("/api/clients", { name: `Counter Client ${tag}` });
  await post("/api/deliveries", {
    agentId: agent.id,
    clientId: client.id,
    tons: "1.00",
    location: `Counter yard ${tag}`,
  });
  await page.evaluate(() =>
    (window as unknown as { __remixRouter: { revalidate(): void } }).__remixRouter.revalidate(),
  );
  await expect.poll(async () => Number(await counter.getAttribute("data-value"))).toBeGreaterThan(before);
  // Leaving the page and coming back by the navigation is no first view either.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Deliveries" }).click();
  await expect(page).toHaveURL(/\/deliveries/);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
  await expect(counter).toBeVisible();
  await page.waitForTimeout(400);
  const seen = (await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).map((s) =>
    Number(s.replace(/,/g, "")),
  );
  expect(seen.length).toBeGreaterThan(0);
  expect(Math.min(...seen)).toBeGreaterThanOrEqual(before);
});

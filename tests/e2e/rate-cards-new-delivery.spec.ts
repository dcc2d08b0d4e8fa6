import { apiPoster, expect, hydrated, test, unique } from "./fixtures";

// New Delivery's rates panel follows the choices (docs/decisions/1230), with JavaScript on and
// off: an admin adds a buying card for one agent at one pick-up site from today; a manager opening
// New Delivery sees System Settings' buying rate, picks that agent and site (and, without
// JavaScript, presses Show rates, which keeps what was typed) and sees the card's rate; a day
// before the card brings the default back. Staff see no panel and no money. Every card names the
// run's own agent and a site: a card naming one thing from today could tie with another journey's
// (decision 1230).

const lagosToday = () => new Date().toLocaleDateString("en-CA", { timeZone: "Africa/Lagos" });

test("the manager's rates panel follows the agent and date chosen; staff see none", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  const tag = unique();
  const agentName = `Panel Agent ${tag}`;
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const agent = await post("/api/agents", { name: agentName, contact: "08012345678" });
  const site = `Panel Yard ${tag}`;
  await post("/api/rate-cards", { kind: "buying", rate: "43210.50", validFrom: lagosToday(), agentId: agent.id, site });

  await loginAs("manager");
  await page.goto("/deliveries/new");
  await hydrated(page, javaScript);
  const form = page.getByRole("dialog", { name: "New Delivery Entry" });
  const panel = form.getByRole("region", { name: "Rates that will apply" });
  await expect(panel).toContainText("any agent");
  await expect(panel.getByRole("row", { name: /Buying rate/ })).not.toContainText("₦43,210.50");
  await form.getByLabel("Tons *").fill("7.5");
  await form.getByLabel("Agent *").selectOption({ label: agentName });
  await form.getByLabel("Location *").fill(site);
  if (javaScript) {
    await expect(form.getByRole("button", { name: "Show rates" })).toHaveCount(0);
  } else {
    await form.getByRole("button", { name: "Show rates" }).click();
    // The page again, with what was typed kept.
    await expect(form.getByLabel("Tons *")).toHaveValue("7.5");
    await expect(form.getByLabel("Agent *")).toHaveValue(String(agent.id));
    await expect(form.getByLabel("Location *")).toHaveValue(site);
  }
  await expect(panel).toContainText(agentName);
  await expect(panel.getByRole("row", { name: /Buying rate/ })).toContainText("₦43,210.50");
  await expect(panel.getByRole("row", { name: /Buying rate/ })).toContainText(/card #\d+/);

  // The day before the card started: System Settings' rate again.
  const yesterday = new Date(Date.parse(`${lagosToday()}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel("Date *").fill(yesterday);
  if (!javaScript) await form.getByRole("button", { name: "Show rates" }).click();
  await expect(panel.getByRole("row", { name: /Buying rate/ })).not.toContainText("₦43,210.50");
  await expect(panel.getByRole("row", { name: /Buying rate/ })).toContainText("System Settings");
  await expect(form.getByLabel("Agent *")).toHaveValue(String(agent.id));

  await loginAs("staff");
  await page.goto(`/deliveries/new?agentId=${agent.id}&date=${lagosToday()}`);
  await hydrated(page, javaScript);
  const staffForm = page.getByRole("dialog", { name: "New Delivery Entry" });
  await staffForm.getByLabel("Agent *").selectOption({ label: agentName });
  await expect(staffForm).not.toContainText("Rates that will apply");
  await expect(staffForm.getByRole("button", { name: "Show rates" })).toHaveCount(0);
  await expect(staffForm).not.toContainText("43,210");
  expect((await page.request.get(`/deliveries/new/rates?agentId=${agent.id}`)).status()).toBe(403);
});

test("a manager finds an agent's cards from the agents list and on its Edit dialog", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  const tag = unique();
  const agentName = `Card Agent ${tag}`;
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const agent = await post("/api/agents", { name: agentName, contact: "08012345678" });
  await post("/api/rate-cards", {
    kind: "haulage",
    rate: "3456.75",
    validFrom: lagosToday(),
    agentId: agent.id,
    site: `Card Yard ${tag}`,
  });

  await loginAs("manager");
  await page.goto(`/agents?q=${encodeURIComponent(agentName)}`);
  await hydrated(page, javaScript);
  const card = page.getByRole("listitem", { name: agentName });
  await card.getByRole("link", { name: `Edit ${agentName}` }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Agent" });
  await expect(dialog.getByRole("region", { name: `Rate cards naming ${agentName}` }).first()).toContainText(
    "₦3,456.75",
  );
  await page.goto(`/agents?q=${encodeURIComponent(agentName)}`);
  await page.getByRole("link", { name: `Rates of ${agentName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/rates\\?agentId=${agent.id}`));
  await expect(page.getByRole("region", { name: "Rate cards, newest first" }).first()).toContainText("₦3,456.75");
});

import { apiPoster, expect, hydrated, test, unique } from "./fixtures";
import { AXE_SOURCE, seriousAxeViolations, WIDTHS, type Width } from "./walk";

// Long selects of agents and clients get a search box once the page's JavaScript runs (decision
// 0200): typing narrows the options, one match or Enter chooses, and
// the select stays the field. Without JavaScript the select lists every choice and there is no
// box. The journeys add 13 agents (or clients) of their own, so the lists are long whatever
// else the shared server holds.

/** A tag of letters only: the searches below type numbers, which must not match the tag itself. */
const letters = () => unique().replace(/\d/g, (d) => "abcdefghij"[Number(d)]);

test("New Delivery: the agent search narrows the select, one match chooses it, and the delivery is recorded for that agent", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("manager");
  const tag = `Picker ${letters()}`;
  const post = apiPoster(page.request, baseURL!);
  for (let i = 1; i <= 13; i++) await post("/api/agents", { name: `${tag} ${String(i).padStart(2, "0")}` });

  for (const width of ["desktop", "phone"] as Width[]) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto("/deliveries/new");
    await hydrated(page, javaScript);
    const dialog = page.getByRole("dialog", { name: "New Delivery Entry" });
    const select = dialog.getByLabel("Agent *");
    const search = dialog.getByRole("searchbox", { name: "Search agents" });
    // Every agent of the tag is there, with or without JavaScript.
    await expect(select.locator("option", { hasText: tag })).toHaveCount(13);
    if (!javaScript) {
      await expect(search).toHaveCount(0);
      await select.selectOption({ label: `${tag} 07` });
    } else {
      // Words in any order and case, spacing ignored.
      await search.fill(`  ${tag.split(" ")[1].toUpperCase()}   picker `);
      await expect(select.locator("option", { hasText: tag })).toHaveCount(13);
      await expect(dialog.getByText(/^13 of \d+ agents match$/)).toBeVisible();
      await expect(select).toHaveValue("");
      // One match: chosen at once.
      await search.fill(`${tag} 07`);
      await expect(dialog.getByText(/^1 of \d+ agents match$/)).toBeVisible();
      await expect(select.locator("option:not([disabled])")).toHaveCount(1);
      await expect(select.locator("option:checked")).toHaveText(`${tag} 07`);
      // Narrowing further never drops the chosen agent from the select.
      await search.fill(`${tag} 1`);
      // ("1" is part of 01 and of 10 to 13.)
      await expect(select.locator("option:not([disabled])")).toHaveText(
        ["01", "07", "10", "11", "12", "13"].map((n) => `${tag} ${n}`),
      );
      await expect(select.locator("option:checked")).toHaveText(`${tag} 07`);
      // Nothing found says so.
      await search.fill(`${tag} none`);
      await expect(dialog.getByText(/^0 of \d+ agents match$/)).toBeVisible();
      // Enter chooses the first match and does not send the form.
      await search.fill(`${tag} 1`);
      await search.press("Enter");
      await expect(select.locator("option:checked")).toHaveText(`${tag} 01`);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("alert")).toHaveCount(0);
      await search.fill(`${tag} 07`);
      await expect(select.locator("option:checked")).toHaveText(`${tag} 07`);
      // The box and its count pass the accessibility checks the walk makes.
      await page.evaluate(AXE_SOURCE);
      expect(await seriousAxeViolations(page)).toEqual([]);
    }
    const location = `Search ${width} ${unique()}`;
    await dialog.getByLabel("Tons *").fill("3.5");
    await dialog.getByLabel("Location *").fill(location);
    await dialog.getByRole("button", { name: "Record Delivery" }).click();
    await expect(page.getByRole("status")).toContainText("Delivery Recorded");
    // The search box is not a field: the delivery is the chosen agent's.
    await page.goto(`/deliveries`);
    const row = page.getByRole("row", { name: new RegExp(location) });
    await expect(row).toContainText(`${tag} 07`);
    if (width === "phone") continue;

    // Edit Delivery's agent select (a Conform field) takes the searched agent too.
    await row.getByRole("link", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit Delivery" });
    await hydrated(page, javaScript);
    const editSelect = edit.getByLabel("Agent *");
    if (javaScript) await edit.getByRole("searchbox", { name: "Search agents" }).fill(`03 ${tag}`);
    else await editSelect.selectOption({ label: `${tag} 03` });
    await expect(editSelect.locator("option:checked")).toHaveText(`${tag} 03`);
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toContainText("Delivery updated successfully");
    await expect(page.getByRole("row", { name: new RegExp(location) })).toContainText(`${tag} 03`);
  }
});

test("Deliveries filter and Payments filter: a searched agent or client is the filter", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("manager");
  const tag = `Finder ${letters()}`;
  const post = apiPoster(page.request, baseURL!);
  const agents = [];
  const clients = [];
  for (let i = 1; i <= 13; i++) {
    agents.push(await post("/api/agents", { name: `${tag} Agent ${String(i).padStart(2, "0")}` }));
    clients.push(await post("/api/clients", { name: `${tag} Client ${String(i).padStart(2, "0")}` }));
  }

  await page.goto("/deliveries");
  await hydrated(page, javaScript);
  const filters = page.getByRole("form", { name: "Filter deliveries" });
  const agentSelect = filters.getByLabel("Agent", { exact: true });
  if (javaScript) {
    await filters.getByRole("searchbox", { name: "Search agents" }).fill(`agent 05 ${tag}`);
    await expect(agentSelect).toHaveValue(String(agents[4].id));
  } else {
    await expect(filters.getByRole("searchbox")).toHaveCount(0);
    await agentSelect.selectOption(String(agents[4].id));
  }
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`agentId=${agents[4].id}(&|$)`));
  await expect(page).not.toHaveURL(/Finder/);

  await page.goto("/payments");
  await hydrated(page, javaScript);
  const clientSelect = page.getByLabel("Client", { exact: true });
  await expect(clientSelect.locator("option", { hasText: tag })).toHaveCount(13);
  if (javaScript) {
    await page.getByRole("searchbox", { name: "Search clients" }).fill(`${tag} client 12`);
    await expect(clientSelect).toHaveValue(String(clients[11].id));
  } else {
    await expect(page.getByRole("searchbox", { name: "Search clients" })).toHaveCount(0);
    await clientSelect.selectOption(String(clients[11].id));
  }
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`clientId=${clients[11].id}(&|$)`));
  await expect(clientSelect).toHaveValue(String(clients[11].id));
});

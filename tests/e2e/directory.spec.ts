import { apiPoster, expect, hydrated, test, unique } from "./fixtures";
import { WIDTHS, type Width } from "./walk";

// The Agents page with more agents than one page holds (decision 0200): a search by
// part of the name, 50 cards a page newest first, Older, Newer and First page with the search
// kept; at desktop and phone widths, with JavaScript on and off. (Clients use the same
// component; the database tests page both.)

test("agents: a search pages back and forth with Older, Newer and First page, and Clear shows every agent", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  await loginAs("manager");
  const tag = `Pager ${unique()}`;
  const post = apiPoster(page.request, baseURL!);
  for (let i = 1; i <= 52; i++) await post("/api/agents", { name: `${tag} ${String(i).padStart(2, "0")}` });

  for (const width of ["desktop", "phone"] as Width[]) {
    await page.setViewportSize(WIDTHS[width]);
    await page.goto("/agents");
    await hydrated(page, javaScript);
    const search = page.getByRole("search", { name: "Search agents by name" });
    await search.getByLabel("Search agents by name").fill(tag.toUpperCase());
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/q=PAGER/);
    // The export is of what the search finds.
    await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute("href", /^\/agents\/export\?q=PAGER/);
    const cards = page.getByRole("list", { name: "Agents" }).getByRole("listitem");
    const pager = page.getByRole("navigation", { name: "Agent pages" });
    await expect(cards).toHaveCount(50);
    // Newest first: the last one added leads.
    await expect(cards.first()).toHaveAccessibleName(`${tag} 52`);
    await expect(pager.getByRole("link", { name: "Newer" })).toHaveCount(0);

    await pager.getByRole("link", { name: "Older" }).click();
    await expect(page).toHaveURL(/cursor=/);
    await expect(page).toHaveURL(/q=PAGER/);
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toHaveAccessibleName(`${tag} 02`);
    await expect(search.getByLabel("Search agents by name")).toHaveValue(tag.toUpperCase());

    // A dialog opened on this page comes back to it.
    const onPageTwo = page.url();
    await cards
      .first()
      .getByRole("link", { name: `Edit ${tag} 02` })
      .click();
    const dialog = page.getByRole("dialog", { name: "Edit Agent" });
    await dialog.getByLabel("Contact").fill(`0803 ${width}`);
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(page.getByRole("status")).toContainText("Agent updated successfully");
    await expect(page).toHaveURL(onPageTwo);
    await expect(cards.first()).toContainText(`0803 ${width}`);
    await expect(cards).toHaveCount(2);

    await pager.getByRole("link", { name: "Newer" }).click();
    await expect(page).toHaveURL(/before=/);
    await expect(cards).toHaveCount(50);
    await pager.getByRole("link", { name: "Older" }).click();
    await expect(cards).toHaveCount(2);
    await pager.getByRole("link", { name: "First page" }).click();
    await expect(page).not.toHaveURL(/cursor=|before=/);
    await expect(page).toHaveURL(/q=PAGER/);
    await expect(cards).toHaveCount(50);

    await search.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/agents$/);
    await expect(search.getByLabel("Search agents by name")).toHaveValue("");
    await expect(cards).toHaveCount(50);
    await expect(pager.getByRole("link", { name: "Older" })).toBeVisible();
  }

  // Past the last page (nothing is older than the first agent): it says so, and leads back.
  await page.goto("/agents?cursor=1");
  await expect(page.getByText("Nothing more on this page")).toBeVisible();
  await expect(page.getByText("No Agents Yet")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Agent pages" }).getByRole("link", { name: "First page" }).click();
  await expect(page.getByRole("list", { name: "Agents" }).getByRole("listitem")).toHaveCount(50);

  await page.goto(`/agents?q=${encodeURIComponent(`${tag} no such`)}`);
  await expect(page.getByText(`No names contain “${tag} no such”`)).toBeVisible();
});

import { apiPoster, expect, hydrated, test, unique } from "./fixtures";

// Rate cards (docs/decisions/1230), with JavaScript on and off: an admin adds a client's selling
// card and a site's buying card on the Rates page, a staff member records a delivery at that site
// (typed in other capitals and spaces) and sees no money, and a manager sees the rates the
// delivery copied and where each came from. The client's card also names the run's own agent, so
// the runs of every project keep to their own cards (two cards of one scope from one day tie).

test("an admin's cards price a staff member's delivery, and a manager sees the rates and their source", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  test.slow();
  const tag = unique();
  const site = `Rate Yard ${tag}`;
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const agentName = `Rate Agent ${tag}`;
  await post("/api/agents", { name: agentName, contact: "08012345678" });

  await page.goto("/rates");
  await hydrated(page, javaScript);
  await page.getByRole("main").getByRole("link", { name: "Add Card" }).click();
  let dialog = page.getByRole("dialog", { name: "Add Rate Card" });
  await dialog.getByLabel("Kind *").selectOption({ label: "Selling rate" });
  await dialog.getByLabel("Rate (₦) *").fill("70000");
  await dialog.getByLabel("Client", { exact: true }).selectOption({ label: "Kodan Industries" });
  await dialog.getByLabel("Agent", { exact: true }).selectOption({ label: agentName });
  await dialog.getByRole("button", { name: "Add Card" }).click();
  await expect(page.getByRole("status")).toContainText("Rate card added");

  await hydrated(page, javaScript);
  await page.getByRole("main").getByRole("link", { name: "Add Card" }).click();
  dialog = page.getByRole("dialog", { name: "Add Rate Card" });
  await dialog.getByLabel("Kind *").selectOption({ label: "Buying rate" });
  await dialog.getByLabel("Rate (₦) *").fill("48500.50");
  await dialog.getByLabel("Pick-up site").fill(site);
  await dialog.getByRole("button", { name: "Add Card" }).click();
  await expect(page.getByRole("status")).toContainText("Rate card added");
  const cards = page.getByRole("region", { name: "Rate cards, newest first" });
  await expect(cards.getByRole("row").filter({ hasText: site })).toContainText("₦48,500.50");
  await expect(cards.getByRole("row").filter({ hasText: agentName })).toContainText("₦70,000.00");

  // The same client and agent card from the same day again: a tie, refused under the date.
  await hydrated(page, javaScript);
  await page.getByRole("main").getByRole("link", { name: "Add Card" }).click();
  dialog = page.getByRole("dialog", { name: "Add Rate Card" });
  await dialog.getByLabel("Kind *").selectOption({ label: "Selling rate" });
  await dialog.getByLabel("Rate (₦) *").fill("71000");
  await dialog.getByLabel("Client", { exact: true }).selectOption({ label: "Kodan Industries" });
  await dialog.getByLabel("Agent", { exact: true }).selectOption({ label: agentName });
  await dialog.getByRole("button", { name: "Add Card" }).click();
  dialog = page.getByRole("dialog", { name: "Add Rate Card" });
  await expect(dialog.getByLabel("Valid from *")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText(/would tie with Selling rate ₦70,000\.00/);

  await loginAs("staff");
  await page.goto("/deliveries/new");
  await hydrated(page, javaScript);
  const form = page.getByRole("dialog", { name: "New Delivery Entry" });
  await expect(form).not.toContainText("Rates that will apply");
  await form.getByLabel("Agent *").selectOption({ label: agentName });
  await form.getByLabel("Tons *").fill("10");
  await form.getByLabel("Location *").fill(`  rate yard   ${tag.toUpperCase()} `);
  await form.getByRole("button", { name: "Record Delivery" }).click();
  await expect(page.getByRole("status")).toContainText("Delivery Recorded");

  await loginAs("manager");
  await page.goto("/deliveries/new");
  await expect(page.getByRole("dialog", { name: "New Delivery Entry" })).toContainText("Rates that will apply");
  const deliveries = (await (await page.request.get("/api/deliveries")).json()) as {
    id: number;
    location: string;
    sellingRate: string;
    buyingRate: string;
  }[];
  const delivery = deliveries.find((d) => d.location.toLowerCase().includes(`rate yard   ${tag}`.toLowerCase()))!;
  expect(delivery).toMatchObject({ sellingRate: "70000.00", buyingRate: "48500.50" });
  await page.goto(`/deliveries/${delivery.id}/edit`);
  await hydrated(page, javaScript);
  const edit = page.getByRole("dialog");
  await expect(edit.getByLabel("Selling rate (₦/ton)")).toHaveValue(/70,?000/);
  const sources = edit.getByRole("region", { name: "Where the rates came from" });
  await expect(sources).toContainText(/Selling rate\s*Rate card: Selling rate ₦70,000\.00 for Kodan Industries/);
  await expect(sources).toContainText(/Buying rate\s*Rate card: Buying rate ₦48,500\.50 for Rate Yard/);
  await expect(sources).toContainText(/Offloading cost\s*System Settings' default/);
});

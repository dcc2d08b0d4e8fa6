import { expect, saveRates, test, unique } from "./fixtures";

test("a manager adds, edits and deletes an agent and a client", async ({ page, loginAs }) => {
  await loginAs("manager");
  const agent = `Agent ${unique()}`;
  await page.goto("/agents");
  await page.getByRole("link", { name: "Add Agent" }).click();
  let dialog = page.getByRole("dialog", { name: "Add Agent" });
  await dialog.getByRole("button", { name: "Add Agent" }).click();
  // The browser (or, with JavaScript, the server) insists on a name.
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Agent Name *").fill(agent);
  await dialog.getByLabel("Contact").fill("0803 000 1111");
  await dialog.getByRole("button", { name: "Add Agent" }).click();
  await expect(page.getByRole("status")).toContainText("Agent created successfully");
  // The rest works on a search for it (other journeys add agents meanwhile), which the dialogs keep.
  await page.getByRole("search", { name: "Search agents by name" }).getByLabel("Search agents by name").fill(agent);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  const card = page.getByRole("listitem", { name: agent });
  await expect(card).toContainText("0803 000 1111");

  await card.getByRole("link", { name: `Edit ${agent}` }).click();
  dialog = page.getByRole("dialog", { name: "Edit Agent" });
  await dialog.getByLabel("Agent Name *").fill(`${agent} Jr`);
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toContainText("Agent updated successfully");
  await expect(page).toHaveURL(/\/agents\?q=/);
  const renamed = page.getByRole("listitem", { name: `${agent} Jr` });
  await renamed.getByRole("link", { name: `Delete ${agent} Jr` }).click();
  dialog = page.getByRole("dialog", { name: "Delete Agent" });
  await expect(dialog).toContainText(`Are you sure you want to delete "${agent} Jr"? This action cannot be undone.`);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toContainText("Agent deleted successfully");
  await expect(renamed).toHaveCount(0);

  const client = `Client ${unique()}`;
  await page.goto("/clients");
  await page.getByRole("link", { name: "New Client" }).click();
  dialog = page.getByRole("dialog", { name: "New Client" });
  await expect(dialog.getByLabel("Payment Terms (days)")).toHaveValue("30");
  await dialog.getByLabel("Client Name *").fill(client);
  await dialog.getByLabel("Tax Rate (%)").fill("7.5");
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(page.getByRole("status")).toContainText("Client created successfully");
  const clientCard = page.getByRole("listitem", { name: client });
  await expect(clientCard).toContainText("Tax Rate: 7.50%");
  await expect(clientCard).toContainText("Payment Terms: 30 days");
  await clientCard.getByRole("link", { name: `Edit ${client}` }).click();
  dialog = page.getByRole("dialog", { name: "Edit Client" });
  await dialog.getByLabel("Payment Terms (days)").fill("45");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toContainText("Client updated successfully");
  await expect(clientCard).toContainText("Payment Terms: 45 days");
  await clientCard.getByRole("link", { name: `Delete ${client}` }).click();
  await page.getByRole("dialog", { name: "Delete Client" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toContainText("Client deleted successfully");
  await expect(clientCard).toHaveCount(0);
});

test("deleting an agent or client in use is refused with the reason", async ({ page, loginAs, javaScript }) => {
  await loginAs("manager");
  const agent = `Invoice Agent ${javaScript ? "js" : "nojs"}`;
  // Found by its name: other journeys add agents, so it may no longer be on the first page.
  await page.goto(`/agents?q=${encodeURIComponent(agent)}`);
  await page
    .getByRole("listitem", { name: agent, exact: true })
    .getByRole("link", { name: `Delete ${agent}` })
    .click();
  await page.getByRole("dialog", { name: "Delete Agent" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toContainText("Failed to delete agent");
  await expect(page.getByRole("status")).toContainText(/deliver(y|ies) refers? to this agent/);
  await expect(page.getByRole("listitem", { name: agent, exact: true })).toBeVisible();

  await page.goto("/clients?q=kodan");
  await page
    .getByRole("listitem", { name: "Kodan Industries" })
    .getByRole("link", { name: "Delete Kodan Industries" })
    .click();
  await page.getByRole("dialog", { name: "Delete Client" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status")).toContainText("Failed to delete client");
  await expect(page.getByRole("listitem", { name: "Kodan Industries" })).toBeVisible();
});

test("an admin changes a default rate: the next delivery carries it, an older one keeps its own", async ({
  page,
  loginAs,
  javaScript,
  baseURL,
}) => {
  // The two projects run at once on one server: each changes a different rate.
  const field = javaScript
    ? { label: "Selling Rate (₦ per ton)", key: "sellingRate" }
    : { label: "Buying Rate (₦ per ton)", key: "buyingRate" };
  await loginAs("admin");
  const post = async (location: string) => {
    const res = await page.request.post("/api/deliveries", {
      data: { agentId: 1, tons: "2.00", location },
      headers: { Origin: baseURL! },
    });
    expect(res.status()).toBe(201);
    return (await res.json()) as Record<string, string>;
  };
  const older = await post(`Before ${unique()}`);
  const value = `${60000 + Math.floor(Math.random() * 9000)}.25`;
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "How It Works" })).toBeVisible();
  await saveRates(page, () =>
    page.getByLabel(field.label).fill(Number(value.split(".")[0]).toLocaleString("en-US") + ".25"),
  );
  await expect(page.getByRole("status")).toContainText("Settings updated successfully");
  await expect(page.getByLabel(field.label)).toHaveValue(Number(value.split(".")[0]).toLocaleString("en-US") + ".25");
  const newer = await post(`After ${unique()}`);
  expect(newer[field.key]).toBe(value);
  const again = (await (await page.request.get(`/api/deliveries/${older.id}`)).json()) as Record<string, string>;
  expect(again[field.key]).toBe(older[field.key]);
  expect(again[field.key]).not.toBe(value);
});

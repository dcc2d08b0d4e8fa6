import type { Page } from "@playwright/test";
import { apiPoster, expect, hydrated, test, unique } from "./fixtures";
import { sidewaysScroll, WIDTHS, type Width } from "./walk";

// The office's weighbridge tickets (docs/decisions/1220), with JavaScript on and off, at desktop
// and phone widths: a manager records the client's ticket, with its photo, from the delivery's
// row; the list shows the three weights and the shortage; Edit Delivery shows them with the
// ticket and its photo, and records a loading ticket that replaces the loaded tons.

/** The smallest PNG: a 1×1 pixel. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

/** The toast said `text`; it is closed, so that on a phone it covers nothing below it. */
async function toastSays(page: Page, text: string | RegExp) {
  const toast = page.getByRole("status").filter({ hasText: text });
  await expect(toast).toBeVisible();
  await page.getByRole("button", { name: "Close notification" }).click();
  await expect(toast).toBeHidden();
}

for (const width of ["desktop", "phone"] as Width[]) {
  test(`a manager records the client's ticket from the delivery's row; the weights show (${width})`, async ({
    page,
    baseURL,
    loginAs,
    javaScript,
  }) => {
    await page.setViewportSize(WIDTHS[width]);
    await loginAs("manager");
    const tag = unique();
    const post = apiPoster(page.request, baseURL!);
    const agent = await post("/api/agents", { name: `Ticket Agent ${tag}` });
    const client = await post("/api/clients", { name: `Ticket Client ${tag}` });
    const location = `Ticket yard ${tag}`;
    await post("/api/deliveries", { agentId: agent.id, clientId: client.id, tons: "30.00", location });
    const number = `R-${tag}`.toUpperCase();

    await page.goto(`/deliveries?agentId=${agent.id}`);
    await hydrated(page, javaScript);
    const list = page.getByRole("region", { name: "Deliveries" });
    const row = list.getByRole("row").filter({ hasText: location });
    await expect(row).toContainText("30.00");
    await row.getByRole("link", { name: /^Record ticket for delivery of/ }).click();

    let dialog = page.getByRole("dialog", { name: "Record Ticket" });
    await expect(dialog.getByRole("link", { name: "Client's ticket (received)" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await dialog.getByLabel("Ticket number *").fill(number.toLowerCase());
    await dialog.getByLabel("Truck plate *").fill("lag 123 xy");
    await dialog.getByLabel("Gross (kg) *").fill("45120");
    await dialog.getByLabel("Tare (kg) *").fill("15000");
    await dialog.getByLabel("Weighed at").fill("2026-11-28T14:30");
    await dialog.getByLabel("Moisture (%)").fill("15.5");
    await dialog
      .getByLabel("Photo of the ticket")
      .setInputFiles({ name: "ticket.png", mimeType: "image/png", buffer: PNG });
    await dialog.getByRole("button", { name: "Record Ticket" }).click();
    await toastSays(page, new RegExp(`Received ticket ${number} recorded\\s*Received 30\\.12 t, accepted 30\\.12 t`));

    // Back on the list it came from, the row shows loaded, received, accepted and the shortage.
    await expect(page).toHaveURL(new RegExp(`/deliveries\\?agentId=${agent.id}$`));
    await expect(row).toContainText("30.12");
    await expect(row).toContainText("-0.12");
    // Its Tickets cell says R: the client's received ticket.
    await expect(row.getByRole("cell", { name: "R", exact: true })).toBeVisible();
    if (javaScript && width === "phone") expect(await sidewaysScroll(page)).toBeNull();

    // Edit Delivery shows the weights, the ticket and its photo.
    await row.getByRole("link", { name: /^Edit delivery of/ }).click();
    dialog = page.getByRole("dialog", { name: "Edit Delivery" });
    const weights = dialog.getByRole("region", { name: "Weights" });
    await expect(weights.getByTestId("weight-received")).toHaveText("30.12 t");
    await expect(weights.getByTestId("weight-shortage")).toHaveText("-0.12 t");
    await expect(weights.getByTestId("weight-moisture")).toHaveText("15.50%");
    const tickets = weights.getByRole("list", { name: "Tickets" });
    await expect(tickets).toContainText(`Received ticket ${number}`);
    await expect(tickets).toContainText("net 30,120 kg");
    await expect(tickets).toContainText("weighed Nov 28, 2026 14:30");
    const photo = tickets.getByRole("link", { name: `Photo of received ticket ${number}` });
    const photoResponse = await page.request.get((await photo.getAttribute("href"))!);
    expect(photoResponse.status()).toBe(200);
    expect(photoResponse.headers()["content-type"]).toBe("image/png");
    expect(Buffer.from(await photoResponse.body()).equals(PNG)).toBe(true);
    // The client's ticket came from this client's weighbridge: the client is shown, not chosen.
    await expect(dialog.getByTestId("readonly-client")).toHaveText(`Ticket Client ${tag}`);
    if (javaScript && width === "phone") expect(await sidewaysScroll(page)).toBeNull();

    // A loading ticket from Edit Delivery: its net becomes the loaded tons; back to Edit Delivery.
    await weights.getByRole("link", { name: "Record ticket" }).click();
    dialog = page.getByRole("dialog", { name: "Record Ticket" });
    await dialog.getByRole("link", { name: "Loading ticket" }).click();
    await expect(dialog.getByRole("link", { name: "Loading ticket" })).toHaveAttribute("aria-current", "page");
    await expect(dialog.getByLabel("Moisture (%)")).toHaveCount(0);
    await dialog.getByLabel("Ticket number *").fill(`L-${tag}`);
    await dialog.getByLabel("Truck plate *").fill("LAG 123 XY");
    await dialog.getByLabel("Gross (kg) *").fill("44551");
    await dialog.getByLabel("Tare (kg) *").fill("14000");
    await dialog.getByRole("button", { name: "Record Ticket" }).click();
    await toastSays(page, new RegExp(`Loading ticket L-${tag.toUpperCase()} recorded\\s*Loaded 30\\.551 t`));
    dialog = page.getByRole("dialog", { name: "Edit Delivery" });
    await expect(dialog.getByTestId("weight-loaded")).toHaveText("30.551 t");
    await expect(dialog.getByTestId("weight-shortage")).toHaveText("0.431 t");

    // A second client's ticket replaces the first: the dialog says which.
    await dialog.getByRole("region", { name: "Weights" }).getByRole("link", { name: "Record ticket" }).click();
    dialog = page.getByRole("dialog", { name: "Record Ticket" });
    await expect(dialog.getByRole("note")).toContainText(`This replaces Received ticket ${number}`);
    await expect(dialog.getByRole("button", { name: "Replace Ticket" })).toBeVisible();
    // A number another delivery has on this weighbridge is refused, naming that delivery.
    await dialog.getByLabel("Ticket number *").fill(number);
    await dialog.getByLabel("Truck plate *").fill("LAG 123 XY");
    await dialog.getByLabel("Gross (kg) *").fill("15000");
    await dialog.getByLabel("Tare (kg) *").fill("15000");
    await dialog.getByRole("button", { name: "Replace Ticket" }).click();
    await expect(dialog.getByLabel("Gross (kg) *")).toHaveAccessibleDescription(/Gross must be more than tare/);
    await expect(dialog.getByLabel("Ticket number *")).toHaveValue(number);
    if (javaScript && width === "phone") expect(await sidewaysScroll(page)).toBeNull();
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog", { name: "Edit Delivery" })).toBeVisible();
  });
}

test("staff see the weights of their deliveries but cannot record a ticket", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  await page.setViewportSize(WIDTHS.phone);
  await loginAs("staff");
  const location = `Staff ticket yard ${unique()}`;
  const made = await apiPoster(page.request, baseURL!)("/api/deliveries", { agentId: 1, tons: "12.00", location });
  await page.goto("/deliveries");
  await hydrated(page, javaScript);
  const row = page.getByRole("region", { name: "Deliveries" }).getByRole("row").filter({ hasText: location });
  await expect(row).toContainText("12.00");
  await expect(row.getByRole("link")).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Received t" })).toBeVisible();
  expect((await page.goto(`/deliveries/${made.id}/tickets/new`))?.status()).toBe(403);
  const refused = await page.request.post(`/api/deliveries/${made.id}/tickets`, {
    data: { kind: "received", ticketNo: "S-1", truckNo: "LAG 1", grossKg: 2000, tareKg: 1000 },
    headers: { Origin: baseURL! },
  });
  expect(refused.status()).toBe(403);
});

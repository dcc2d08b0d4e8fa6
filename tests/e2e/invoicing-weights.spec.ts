// What is invoiced and what is paid (decision 1220), in the browser with JavaScript on and off, at
// 1280 and 390 px: a delivery weighed at the client's gate is offered for invoicing only once the
// client's ticket is recorded, and its invoice shows the accepted tons and, on the line, what was
// received and deducted: on the invoice page, the printable invoice and the PDF. The client's
// setting and the agent's pay basis through their dialogs.
//
// The seed (tests/e2e/start-server.ts) records the client's tickets with the app's own
// recordTicket: a client of each project that invoices only on its ticket, a delivery per
// viewport with the ticket (30,120 kg at 18.5% moisture, 753 kg deducted: 29.367 t accepted,
// ₦1,762,020.00 at ₦60,000) and one still waiting for it.
import type { Page } from "@playwright/test";
import { ACCEPTED_TONS_NOTE } from "../../app/utils/weighing-words";
import { expect, hydrated, test, unique } from "./fixtures";
import { pdfToText } from "./pdf-text";
import { WIDTHS, type Width } from "./walk";

const WEIGHING = "Received 30.12 t · moisture 18.5% · deducted 0.753 t";

/** The page never scrolls sideways at phone width. */
async function fitsTheWidth(page: Page, width: Width) {
  if (width !== "phone") return;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTHS.phone.width);
}

/** Searches Generate Invoice's picker for `agent`'s deliveries. */
async function searchPicker(page: Page, agent: string) {
  const dialog = page.getByRole("dialog", { name: "Generate Invoice" });
  await dialog.getByLabel("Agent").fill(agent);
  await dialog.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get("agent") === agent);
  return dialog;
}

for (const width of ["desktop", "phone"] as const) {
  test(`a delivery weighed at the client's gate: invoiced on the accepted tons, the deduction on its line (${width})`, async ({
    page,
    loginAs,
    javaScript,
  }) => {
    const project = javaScript ? "js" : "nojs";
    await page.setViewportSize(WIDTHS[width]);
    await loginAs("manager");
    await page.goto("/invoices/new");
    await hydrated(page, javaScript);

    // The delivery still waiting for the client's ticket is not offered.
    let dialog = await searchPicker(page, `Weighed Waiting Agent ${project}`);
    await expect(dialog.getByText("No deliveries match the search")).toBeVisible();

    // The one with its ticket is, at its accepted tons.
    const agent = `Weighed ${width === "desktop" ? "Desk" : "Phone"} Agent ${project}`;
    dialog = await searchPicker(page, agent);
    const choice = dialog
      .getByRole("list", { name: "Deliveries to invoice" })
      .getByRole("link", { name: new RegExp(agent) });
    await expect(choice).toContainText("29.367 t");
    await choice.click();
    await expect(choice).toHaveAttribute("aria-current", "true");
    await expect(dialog.getByText("₦1,762,020.00")).toBeVisible();
    await fitsTheWidth(page, width);
    await dialog.getByRole("button", { name: "Generate Invoice" }).click();
    await expect(page.getByRole("status")).toContainText("Invoice created successfully");
    const number = /#(\d+)/.exec((await page.getByRole("status").textContent()) ?? "")![1];

    // The invoice page: the accepted tons, and on the line what was received and deducted.
    await page
      .getByRole("listitem", { name: `Invoice #${number}` })
      .getByRole("link", { name: `Invoice #${number}`, exact: true })
      .click();
    await expect(page.getByRole("heading", { name: `Invoice #${number}` })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Deliveries (1, 29.367 tons)" })).toBeVisible();
    const row = page
      .getByRole("region", { name: "Deliveries on this invoice" })
      .getByRole("row")
      .filter({ hasText: agent });
    await expect(row).toContainText("29.367");
    await expect(row).toContainText("₦1,762,020.00");
    await expect(row.getByTestId("line-weighing")).toHaveText(WEIGHING);
    await expect(page.getByText(ACCEPTED_TONS_NOTE)).toBeVisible();
    await fitsTheWidth(page, width);
    const invoicePath = new URL(page.url()).pathname;

    // The printable invoice says the same, on screen and on paper.
    await page.getByRole("link", { name: `Print invoice #${number}` }).click();
    await expect(page).toHaveURL(`${invoicePath}/print`);
    const doc = page.getByRole("article", { name: `Invoice ${number}` });
    const line = doc.getByRole("row").filter({ hasText: "Weighed yard" });
    await expect(line).toContainText("29.367");
    await expect(line).toContainText("60,000.00");
    await expect(line).toContainText("1,762,020.00");
    await expect(line).toContainText(WEIGHING);
    await expect(doc).toContainText(ACCEPTED_TONS_NOTE);
    await fitsTheWidth(page, width);
    await page.emulateMedia({ media: "print" });
    await expect(line.getByText(WEIGHING)).toBeVisible();
    await page.emulateMedia({ media: "screen" });

    // And so does the PDF.
    const pdf = await page.request.get(`${invoicePath}/pdf`);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    const text = pdfToText(Buffer.from(await pdf.body()));
    expect(text).toContain(WEIGHING);
    expect(text).toMatch(/Weighed yard\s+29\.367\s+60,000\.00\s+1,762,020\.00/);
    expect(text.replace(/\s+/g, " ")).toContain(ACCEPTED_TONS_NOTE);
  });
}

test("a client invoiced only on its ticket, and an agent paid on accepted tons, set in their dialogs", async ({
  page,
  loginAs,
  javaScript,
}) => {
  await loginAs("admin");
  await page.goto("/clients/new");
  await hydrated(page, javaScript);
  const client = `Gate Client ${unique()}`;
  let dialog = page.getByRole("dialog", { name: "New Client" });
  await dialog.getByLabel("Client Name *").fill(client);
  await dialog.getByLabel("Invoice only with the client's ticket").check();
  await dialog.getByRole("button", { name: "Create Client" }).click();
  await expect(page.getByRole("status")).toContainText("Client created successfully");
  await page.goto(`/clients?q=${encodeURIComponent(client)}`);
  await page.getByRole("listitem", { name: client }).getByRole("link", { name: client, exact: true }).click();
  const details = page.getByRole("region", { name: "Client details" });
  await expect(details).toContainText("Only with the client's ticket, on the accepted tons");
  // Edit shows it ticked; unticked and saved, the client no longer waits for it.
  await page.getByRole("link", { name: "Edit", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Edit Client" });
  await expect(dialog.getByLabel("Invoice only with the client's ticket")).toBeChecked();
  await dialog.getByLabel("Invoice only with the client's ticket").uncheck();
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByRole("status")).toContainText("Client updated successfully");
  await page.goto(`/clients?q=${encodeURIComponent(client)}`);
  await page.getByRole("listitem", { name: client }).getByRole("link", { name: client, exact: true }).click();
  await expect(page.getByRole("region", { name: "Client details" })).toContainText(
    "With or without the client's ticket",
  );

  const agent = `Gate Agent ${unique()}`;
  await page.goto("/agents/new");
  dialog = page.getByRole("dialog", { name: "Add Agent" });
  await expect(dialog.getByLabel("Paid on")).toHaveValue("loaded");
  await dialog.getByLabel("Agent Name *").fill(agent);
  await dialog.getByLabel("Paid on").selectOption({ label: "Accepted tons (after quality deduction)" });
  await dialog.getByRole("button", { name: "Add Agent" }).click();
  await expect(page.getByRole("status")).toContainText("Agent created successfully");
  await page.goto(`/agents?q=${encodeURIComponent(agent)}`);
  await page
    .getByRole("listitem", { name: agent })
    .getByRole("link", { name: `Edit ${agent}` })
    .click();
  dialog = page.getByRole("dialog", { name: "Edit Agent" });
  await expect(dialog.getByLabel("Paid on")).toHaveValue("accepted");
  const agentId = /\/agents\/(\d+)\/edit/.exec(page.url())![1];
  // The statement names what the agent is paid on, and its Tons column says it is the tons paid.
  await page.goto(`/agents/${agentId}/statement`);
  await expect(page.getByText("Paid on: Accepted tons (after quality deduction)")).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Tons paid" })).toBeVisible();
});

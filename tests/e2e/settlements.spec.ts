// Decision 0980: an admin settles with an agent. From the agent's card to its statement, a
// payout through the Record Payout dialog (a page of its own without JavaScript), the owed figure
// going down on the statement and on Agent Balances, and the balances CSV read back with a CSV
// parser, the formula guard on a hostile agent name.
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { todayIn } from "../../app/utils/dates";
import { add, formatNaira, sub, toFixed } from "../../app/utils/money";
import { apiPoster, expect, hydrated, test, unique } from "./fixtures";
import { pdfToText } from "./pdf-text";

test("an admin records a payout to an agent and sees what is still owed", async ({
  page,
  loginAs,
  baseURL,
  javaScript,
}) => {
  await loginAs("admin");
  const headers = { Origin: baseURL! };
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const today = todayIn("Africa/Lagos");
  // A hostile name: a spreadsheet must show it as text, never run it.
  const name = `=HYPERLINK("http://evil.test","Agent ${tag}")`;
  const agent = await post("/api/agents", { name });
  const delivery = await post("/api/deliveries", {
    agentId: agent.id,
    tons: "10.00",
    location: "Ikorodu yard",
    truckNo: `PO-${tag.slice(-4)}`,
    date: today,
  });
  // Net payable: 10 x 50,000.00 - the offloading cost it was created with - 2,500.00.
  const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
    data: { buyingRate: "50000.00", mobilizationPayment: "2500.00" },
    headers,
  });
  expect(priced.status(), await priced.text()).toBe(200);
  const { offloadingCost } = (await priced.json()) as { offloadingCost: string | null };
  const earned = toFixed(sub("497500.00", offloadingCost ?? "0"));
  const left = toFixed(sub(earned, "100000.50"));

  // Found by its name, as a person would once there are more agents than a page holds.
  await page.goto(`/agents?q=${encodeURIComponent(`Agent ${tag}`)}`);
  await hydrated(page, javaScript);
  await page.getByRole("link", { name: `Statement of ${name}` }).click();
  await expect(page).toHaveURL(`/agents/${agent.id}/statement`);
  await expect(page.getByRole("heading", { name: "Agent Statement" })).toBeVisible();
  const owed = page.getByRole("region", { name: "What is owed" });
  await expect(owed.getByText("Owed at end").locator("..")).toContainText(formatNaira(earned));

  await hydrated(page, javaScript);
  await page.getByRole("link", { name: "Record Payout" }).click();
  const dialog = page.getByRole("dialog", { name: "Record Payout" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("owed")).toHaveText(formatNaira(earned));
  // Too much first: refused under the amount, nothing recorded.
  await dialog.getByLabel("Amount (₦)").fill(toFixed(add(earned, "0.01")));
  await dialog.getByRole("button", { name: "Record Payout" }).click();
  await expect(page.getByText(/Amount exceeds what is owed/).first()).toBeVisible();
  await page.getByRole("dialog", { name: "Record Payout" }).getByLabel("Amount (₦)").fill("100000.50");
  await page.getByRole("dialog", { name: "Record Payout" }).getByLabel("Method").selectOption("cash");
  await page.getByRole("dialog", { name: "Record Payout" }).getByLabel("Reference (optional)").fill(`RCPT-${tag}`);
  await page.getByRole("dialog", { name: "Record Payout" }).getByRole("button", { name: "Record Payout" }).click();
  await expect(page).toHaveURL(`/agents/${agent.id}/statement`);
  await expect(page.getByText("Payout recorded")).toBeVisible();
  await expect(owed.getByText("Owed at end").locator("..")).toContainText(formatNaira(left));
  const lines = page.getByRole("region", { name: "Deliveries and payouts" });
  await expect(lines.getByRole("row").filter({ hasText: `RCPT-${tag}` })).toContainText(formatNaira(left));

  // The statement as a PDF, downloaded from its link.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "PDF" }).click();
  const pdfText = pdfToText(readFileSync((await (await downloading).path())!));
  expect(pdfText).toContain(`RCPT-${tag}`);
  expect(pdfText).toContain(formatNaira(left));

  await page.getByRole("link", { name: "Agent Balances" }).click();
  await expect(page).toHaveURL("/agents/owed");
  const row = page.getByRole("row").filter({ hasText: `Agent ${tag}` });
  await expect(row).toContainText(formatNaira(left));

  // The balances CSV, read back: the hostile name guarded, the amounts plain decimals.
  const csv = await page.request.get("/agents/owed/export");
  expect(csv.status()).toBe(200);
  const text = (await csv.text()).replace(/^\uFEFF/, "");
  const records = parse(text, { columns: true }) as Record<string, string>[];
  const mine = records.find((r) => r["Agent ID"] === String(agent.id));
  expect(mine?.Agent).toBe(`'${name}`);
  expect(mine?.Owed).toBe(left);
});

test("an admin reverses a payout recorded in error: it stays, marked, and the agent is owed the amount again", async ({
  page,
  baseURL,
  loginAs,
  javaScript,
}) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const agent = await post("/api/agents", { name: `Reversal Agent ${tag}` });
  const delivery = await post("/api/deliveries", { agentId: agent.id, tons: "4.00", location: "Aba yard" });
  const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
    data: { buyingRate: "50000.00", mobilizationPayment: "0" },
  });
  expect(priced.status(), await priced.text()).toBe(200);
  // Net payable: 4 x 50,000.00 less the offloading cost it was created with (the current
  // default rate, which other journeys change).
  const { offloadingCost } = (await priced.json()) as { offloadingCost: string | null };
  const earned = toFixed(sub("200000.00", offloadingCost ?? "0"));
  const payout = await post(`/api/agents/${agent.id}/payouts`, {
    amount: "75000.00",
    method: "bank_transfer",
    reference: `TRF-${tag}`,
  });

  await page.goto(`/agents/${agent.id}/statement`);
  await hydrated(page, javaScript);
  const owed = page.getByRole("region", { name: "What is owed" });
  await expect(owed.getByText("Owed at end").locator("..")).toContainText(formatNaira(sub(earned, "75000.00")));
  const lines = page.getByRole("region", { name: "Deliveries and payouts" });
  await lines.getByRole("link", { name: `Reverse payout #${payout.id}` }).click();
  const dialog = page.getByRole("dialog", { name: "Reverse Payout" });
  await expect(dialog).toContainText(`Reversal Agent ${tag}`);
  await expect(dialog.getByTestId("payout-amount")).toHaveText(formatNaira("75000.00"));
  // A reason is required: the form says so and nothing changes.
  await dialog.getByRole("button", { name: "Reverse Payout" }).click();
  await expect(page.getByText("Reason is required").first()).toBeVisible();
  await page
    .getByRole("dialog", { name: "Reverse Payout" })
    .getByLabel("Reason")
    .fill("Paid to the wrong account, refunded by the bank");
  await page.getByRole("dialog", { name: "Reverse Payout" }).getByRole("button", { name: "Reverse Payout" }).click();

  // Back on the statement, showing the period it showed before.
  await expect(page).toHaveURL(new RegExp(`/agents/${agent.id}/statement\\?from=\\d{4}-\\d{2}-01&to=`));
  await expect(page.getByText("Payout reversed")).toBeVisible();
  await expect(owed.getByText("Owed at end").locator("..")).toContainText(formatNaira(earned));
  const payoutRow = lines.getByRole("row").filter({ hasText: `TRF-${tag}` });
  await expect(payoutRow).toContainText("Reversed");
  await expect(lines.getByRole("link", { name: `Reverse payout #${payout.id}` })).toHaveCount(0);
  await expect(lines.getByRole("row").filter({ hasText: "Payout reversal" })).toContainText(
    `Reverses payout #${payout.id}: Paid to the wrong account, refunded by the bank`,
  );

  // Opened again, the dialog says it was already reversed and offers no form.
  await page.goto(`/agents/${agent.id}/statement/reverse/${payout.id}`);
  await expect(page.getByRole("dialog", { name: "Reverse Payout" })).toContainText(
    "This payout was already reversed on",
  );
  await expect(page.getByRole("button", { name: "Reverse Payout" })).toHaveCount(0);
});

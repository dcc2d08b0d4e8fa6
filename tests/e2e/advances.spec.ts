// Decision 1250: an admin advances an agent more than the approval limit; it waits, shown on the
// statement and counted in the navigation's badge; a second admin approves it from Pending
// Approvals (a dialog with JavaScript, a page without); the next deliveries recover it, and the
// statement's advance figures and Agent Balances say so. Runs with JavaScript on and off.
import { add, formatNaira, mul, sub, toFixed } from "../../app/utils/money";
import { apiPoster, expect, hydrated, signInContext, test, unique } from "./fixtures";

// Far above any other journey's payouts, so setting it changes nothing for them.
const LIMIT = "50000000.00";
const ADVANCE = "60000000.00";

test("a large advance waits for a second admin, then the next deliveries recover it", async ({
  page,
  browser,
  baseURL,
  loginAs,
  javaScript,
}, testInfo) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const headers = { Origin: baseURL! };
  const settings = (await (await page.request.get("/api/settings")).json()) as { payoutApprovalLimit: string | null };
  if (settings.payoutApprovalLimit !== LIMIT) {
    const set = await page.request.patch("/api/settings", { data: { payoutApprovalLimit: LIMIT }, headers });
    expect(set.status(), await set.text()).toBe(200);
  }
  const tag = unique();
  const name = `Advance Agent ${tag}`;
  const agent = await post("/api/agents", { name });

  // The maker records the advance through Record Payout.
  await page.goto(`/agents/${agent.id}/statement`);
  await hydrated(page, javaScript);
  await page.getByRole("link", { name: "Record Payout" }).click();
  const dialog = page.getByRole("dialog", { name: "Record Payout" });
  await expect(dialog).toContainText(`Above ${formatNaira(LIMIT)} a payout waits`);
  await dialog.getByLabel("Kind").selectOption("advance");
  await dialog.getByLabel("Amount (₦)").fill(ADVANCE);
  await dialog.getByLabel("Method").selectOption("bank_transfer");
  await dialog.getByLabel("Reference (optional)").fill(`ADV-${tag}`);
  await dialog.getByRole("button", { name: "Record Payout" }).click();
  await expect(page).toHaveURL(`/agents/${agent.id}/statement`);
  await expect(page.getByText("Payout awaiting approval")).toBeVisible();
  const lines = page.getByRole("region", { name: "Deliveries and payouts" });
  const line = lines.getByRole("row").filter({ hasText: `ADV-${tag}` });
  await expect(line).toContainText("Awaiting approval");
  await expect(page.getByRole("region", { name: "What is owed" }).getByText("Owed at end").locator("..")).toContainText(
    formatNaira("0"),
  );
  await expect(
    page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: /Payout Approvals/ })
      .getByTestId("nav-badge"),
  ).toBeVisible();
  // The maker may not decide it.
  await page.goto("/payouts/pending");
  const mine = page.getByRole("row").filter({ hasText: name });
  await expect(mine).toContainText("Yours: another admin decides");
  await expect(mine).toContainText(formatNaira(ADVANCE));

  // A second admin, at another desk, approves it.
  const other = testInfo.project.name === "js" ? "nojs" : "js";
  const context = await browser.newContext({ javaScriptEnabled: javaScript });
  try {
    await signInContext(context, baseURL!, other, "admin", { fresh: true });
    const second = await context.newPage();
    await second.goto("/payouts/pending");
    await hydrated(second, javaScript);
    const row = second.getByRole("row").filter({ hasText: name });
    await row.getByRole("link", { name: /^Approve payout/ }).click();
    const approve = second.getByRole("dialog", { name: "Approve Payout" });
    await expect(approve.getByTestId("payout-amount")).toHaveText(formatNaira(ADVANCE));
    await approve.getByLabel("Reason (optional)").fill("Agreed on the phone");
    await approve.getByRole("button", { name: "Approve Payout" }).click();
    await expect(second).toHaveURL("/payouts/pending");
    await expect(second.getByText("Payout approved")).toBeVisible();
    await expect(second.getByRole("row").filter({ hasText: name })).toHaveCount(0);
  } finally {
    await context.close();
  }

  // The next two deliveries recover part of it.
  let earned = "0";
  for (const tons of ["30.00", "20.00"]) {
    const delivery = await post("/api/deliveries", { agentId: agent.id, tons, location: "Ikorodu yard" });
    const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
      data: { buyingRate: "50000.00", mobilizationPayment: "0" },
      headers,
    });
    expect(priced.status(), await priced.text()).toBe(200);
    const { offloadingCost } = (await priced.json()) as { offloadingCost: string | null };
    // Net payable: tons × 50,000.00 less the offloading cost it was created with.
    earned = toFixed(add(earned, sub(mul(tons, "50000.00"), offloadingCost ?? "0")));
  }
  const carried = toFixed(sub(ADVANCE, earned));

  await page.goto(`/agents/${agent.id}/statement`);
  await hydrated(page, javaScript);
  const advances = page.getByRole("region", { name: "Advances" });
  await expect(advances.getByText("Advances paid").locator("..")).toContainText(formatNaira(ADVANCE));
  await expect(advances.getByText("Recovered").locator("..")).toContainText(formatNaira(earned));
  await expect(advances.getByText("Advance carried forward").locator("..")).toContainText(formatNaira(carried));
  await expect(lines.getByRole("row").filter({ hasText: `ADV-${tag}` })).not.toContainText("Awaiting approval");

  await page.goto("/agents/owed");
  const balance = page.getByRole("row").filter({ hasText: name });
  await expect(balance).toContainText(formatNaira(carried));
  await expect(page.getByRole("region", { name: "Totals" })).toContainText("Advances outstanding");
});

// Decision 0010: a statement shows money with the naira sign, as every table does; tons without.
import { todayIn } from "../../app/utils/dates";
import { formatNaira, sub, toFixed } from "../../app/utils/money";
import { apiPoster, expect, test, unique } from "./fixtures";

test("the agent statement's money cells carry the naira sign, its tons do not", async ({ page, loginAs, baseURL }) => {
  await loginAs("admin");
  const post = apiPoster(page.request, baseURL!);
  const tag = unique();
  const truckNo = `NS-${tag.slice(-4)}`;
  const agent = await post("/api/agents", { name: `Naira Agent ${tag}` });
  const delivery = await post("/api/deliveries", {
    agentId: agent.id,
    tons: "10.00",
    location: "Apapa yard",
    truckNo,
    date: todayIn("Africa/Lagos"),
  });
  const priced = await page.request.patch(`/api/deliveries/${delivery.id}`, {
    data: { buyingRate: "50000.00", mobilizationPayment: "2500.00" },
    headers: { Origin: baseURL! },
  });
  expect(priced.status(), await priced.text()).toBe(200);
  // The offloading cost is the default rate it was created with, which other journeys change.
  const offloading = ((await priced.json()) as { offloadingCost: string | null }).offloadingCost ?? "0";
  const earned = toFixed(sub(sub("500000.00", offloading), "2500.00"));
  const payout = await post(`/api/agents/${agent.id}/payouts`, {
    amount: "1234.50",
    method: "cash",
    reference: `NAIRA-${tag}`,
  });
  await post(`/api/agents/${agent.id}/payouts/${payout.id}/reversal`, { reason: "Counted twice" });

  await page.goto(`/agents/${agent.id}/statement`);
  const lines = page.getByRole("region", { name: "Deliveries and payouts" });
  const cells = lines.getByRole("row").filter({ hasText: truckNo }).getByRole("cell");
  await expect(cells.nth(3)).toHaveText("10.00");
  await expect(cells.nth(4)).toHaveText(formatNaira("50000.00"));
  await expect(cells.nth(5)).toHaveText(formatNaira("500000.00"));
  await expect(cells.nth(6)).toHaveText(formatNaira(offloading));
  await expect(cells.nth(7)).toHaveText(formatNaira("2500.00"));
  await expect(cells.nth(8)).toHaveText(formatNaira(earned));
  // Paid out on the payout's row and on its reversal's (the column before Owed).
  const paidOut = (hasText: string) => lines.getByRole("row").filter({ hasText }).getByRole("cell").nth(-2);
  await expect(paidOut(`NAIRA-${tag}`)).toHaveText(formatNaira("1234.50"));
  await expect(paidOut("Counted twice")).toHaveText(/^-?₦1,234\.50$/);
});

import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { expect, test, unique } from "./fixtures";

test("Export CSV downloads the agents list, opened back with a CSV parser, the hostile name guarded", async ({
  page,
  loginAs,
  baseURL,
}) => {
  await loginAs("manager");
  const hostile = `=HYPERLINK("x") ${unique()}`;
  const created = await page.request.post("/api/agents", {
    data: { name: hostile, contact: "@home" },
    headers: { Origin: baseURL! },
  });
  expect(created.status()).toBe(201);
  await page.goto("/agents");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^agents-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = await readFile((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(bytes, { bom: true }) as string[][];
  expect(rows[0]).toEqual(["Name", "Contact", "Phone", "Bank", "Account Name", "Account Number"]);
  expect(rows).toContainEqual([`'${hostile}`, "'@home", "", "", "", ""]);
});

test("the deliveries Export CSV link carries the page's filters", async ({ page, loginAs }) => {
  await loginAs("staff");
  await page.goto("/deliveries?from=2026-01-01&to=2026-01-31&cursor=2026-01-20_5");
  const link = page.getByRole("link", { name: "Export CSV" });
  await expect(link).toHaveAttribute("href", "/deliveries/export?from=2026-01-01&to=2026-01-31");
  const downloading = page.waitForEvent("download");
  await link.click();
  const rows = parse(await readFile((await (await downloading).path())!), { bom: true }) as string[][];
  // Staff: no rates, costs or profit.
  expect(rows[0]).not.toContain("Profit");
  expect(rows[0]).not.toContain("Selling Rate");
  for (const row of rows.slice(1)) expect(row[1] >= "2026-01-01" && row[1] <= "2026-01-31").toBe(true);
});

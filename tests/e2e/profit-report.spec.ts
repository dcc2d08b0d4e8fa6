// The profit and tonnage report (docs/decisions/1270), with JavaScript and without, at desktop and
// phone widths: a manager reaches it from the dashboard, groups by pick-up site, finds a site's
// row and its charts, drills down to that site's deliveries, and sees a bad period named. Its
// pages and the dashboard's trends have no serious axe violation in either theme; the PDF is
// rendered to an image (pdftoppm) and kept with the test's results to be looked at.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { formatNaira } from "../../app/utils/money";
import { todayIn } from "../../app/utils/dates";
import { expect, hydrated, invoiceThroughApi, test, unique } from "./fixtures";
import { checkPage, signIn, walkContext, WIDTHS, type Finding, type Theme, type Width } from "./walk";

for (const width of Object.keys(WIDTHS) as Width[]) {
  test.describe(`at ${WIDTHS[width].width} px`, () => {
    test.use({ viewport: WIDTHS[width] });

    test("a manager groups by pick-up site, reads the charts and drills down to the site's deliveries", async ({
      page,
      loginAs,
      baseURL,
      javaScript,
    }) => {
      await loginAs("manager");
      const tag = unique();
      const site = `Profit yard ${tag}`;
      // 10 t sold at 20,000,000 and bought at 50,000: revenue 200,000,000, buying cost 500,000. Sites
      // are in order of profit, 50 a page, and by the end of a full run other journeys have made
      // thousands of sites this year: a profit that large puts this one on the first page.
      await invoiceThroughApi(page.request, baseURL!, {
        label: "Profit",
        tag,
        delivery: { location: site },
        rates: { sellingRate: "20000000.00", buyingRate: "50000.00" },
      });
      await page.goto("/");
      await hydrated(page, javaScript);
      await expect(page.getByRole("region", { name: "Profit, last 12 months" }).locator("svg")).toBeVisible();
      await page.getByRole("navigation", { name: "Quick links" }).getByRole("link", { name: "Profit Report" }).click();
      await expect(page).toHaveURL("/reports/profit");
      await expect(page.getByRole("heading", { name: "Profit and Tonnage", level: 1 })).toBeVisible();

      await page.getByLabel("Group by").selectOption("site");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page).toHaveURL(/by=site/);
      const row = page
        .getByRole("region", { name: "Profit and tonnage figures" })
        .getByRole("row")
        .filter({ hasText: site });
      // The sites' page is on screen (with JavaScript the address can change before the new rows
      // do, and the first page, read too soon, would look empty of this site). Should the site
      // still be on a later page, the report's own "Next rows" link reaches it.
      await expect(page.getByRole("heading", { name: "Top ten pick-up sites by profit" })).toBeVisible();
      for (let pages = 1; (await row.count()) === 0 && pages < 40; pages++) {
        const next = await page.getByRole("link", { name: "Next rows" }).getAttribute("href");
        expect(next, `${site} is on no page of the report`).toBeTruthy();
        await page.goto(next!);
      }
      await expect(row).toContainText(formatNaira("200000000"));
      await expect(row).toContainText(formatNaira("500000"));

      for (const title of ["Profit and revenue by month", "Top ten pick-up sites by profit"]) {
        const chart = page.getByRole("region", { name: title, exact: true });
        await expect(chart.getByRole("img", { name: title })).toBeVisible();
        await expect(chart.getByRole("region", { name: `${title}: figures` })).toBeVisible();
      }
      await expect(page.getByRole("region", { name: /^Tons/ }).first().getByRole("img")).toBeVisible();

      await row.getByRole("link", { name: site }).click();
      await expect(page).toHaveURL(/\/deliveries\?.*site=/);
      await expect(page.getByText(`Pick-up site: ${site}`)).toBeVisible();
      await expect(page.getByRole("row").filter({ hasText: `Profit Agent ${tag}` })).toHaveCount(1);

      await page.goto("/reports/profit?from=2026-13");
      await expect(page.getByRole("alert")).toContainText("from must be a month");
      await expect(page.getByLabel("From month")).toHaveAttribute("aria-invalid", "true");
    });
  });
}

test("the report and the dashboard's trends: no serious axe violation in either theme, no sideways scroll", async ({
  browser,
  baseURL,
  javaScript,
}) => {
  test.slow();
  const findings: Finding[] = [];
  for (const theme of ["light", "dark"] as Theme[]) {
    for (const width of Object.keys(WIDTHS) as Width[]) {
      const context = await walkContext(browser, baseURL!, { theme, width, javaScript, axe: true });
      await signIn(context, baseURL!, "manager");
      const page = await context.newPage();
      for (const url of ["/", "/reports/profit", "/reports/profit?by=month&then=client", "/reports/profit?by=agent"]) {
        findings.push(...(await checkPage(page, url, { javaScript, width })));
      }
      await context.close();
    }
  }
  expect(findings).toEqual([]);
});

test("the PDF of the report with its charts, rendered to an image", async ({ page, loginAs, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== "js", "one PDF is enough");
  await loginAs("manager");
  await invoiceThroughApi(page.request, baseURL!, {
    label: "Pdf",
    rates: { sellingRate: "65000.00", buyingRate: "52000.00" },
  });
  const year = todayIn("Africa/Lagos").slice(0, 4);
  const res = await page.request.get(`/reports/profit/pdf?from=${year}-01&to=${year}-12&by=agent`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  const pdf = testInfo.outputPath("profit.pdf");
  writeFileSync(pdf, await res.body());
  const png = testInfo.outputPath("profit");
  execFileSync("pdftoppm", ["-png", "-r", "70", pdf, png]);
  await testInfo.attach("profit-1.png", { path: `${png}-1.png`, contentType: "image/png" });
  const text = execFileSync("pdftotext", ["-layout", pdf, "-"]).toString();
  expect(text).toContain("Profit and Tonnage");
  expect(text).toContain("Profit and revenue by month");
  expect(text).toContain("Top ten agents by profit");
  expect(text).toContain("Total");
});

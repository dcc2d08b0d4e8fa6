import type { Page } from "@playwright/test";
import { todayIn } from "../../app/utils/dates";
import { apiPoster, expect, invoiceThroughApi, test } from "./fixtures";

// Layout defects found by walking the app at 1280 and 390 px, with JavaScript on and off. Each
// test measures the layout where the defect was seen (decisions 0951, 0980, 0990).

const PHONE = { width: 390, height: 844 };

/** How far the page scrolls sideways (0 when it fits). */
async function sidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** The number of pages of a PDF, read from its page objects. */
function pdfPages(pdf: Buffer) {
  return (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
}

test.describe("the printable invoice", () => {
  test("fits a phone: no sideways scroll, the amount column inside the sheet, the totals on the right", async ({
    page,
    loginAs,
    baseURL,
  }) => {
    await loginAs("manager");
    const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
      label: "Layout",
      clientFields: { taxRate: "7.5" },
      delivery: { tons: "12.50", truckNo: "LAG-1234" },
      rates: { sellingRate: "65000.04" },
    });
    await apiPoster(page.request, baseURL!)("/api/payments", {
      invoiceId: invoice.id,
      amount: "0.50",
      paymentDate: todayIn("Africa/Lagos"),
    });
    await page.setViewportSize(PHONE);
    await page.goto(`/invoices/${invoice.id}/print`);
    const doc = page.getByRole("article", { name: `Invoice ${invoice.invoiceNo}` });
    expect(await sidewaysScroll(page)).toBe(0);
    const sheet = (await doc.boundingBox())!;
    const table = (await doc.getByRole("table").boundingBox())!;
    const amount = (await doc.getByRole("cell", { name: "812,500.50" }).first().boundingBox())!;
    // The whole amount column on the sheet, inside its margin, none of it scrolled out of sight.
    expect(amount.x + amount.width).toBeLessThanOrEqual(sheet.x + sheet.width - 8);
    expect(table.x + table.width).toBeLessThanOrEqual(sheet.x + sheet.width - 8);
    // The totals wrap under the amount in words and keep to the right edge, with the table's.
    const totals = (await doc.getByRole("definition").filter({ hasText: "₦812,500.00" }).boundingBox())!;
    expect(Math.abs(totals.x + totals.width - (table.x + table.width))).toBeLessThan(1);
  });

  test("prints on one A4 page", async ({ page, loginAs, baseURL }) => {
    await loginAs("manager");
    const { invoice } = await invoiceThroughApi(page.request, baseURL!, {
      label: "Layout",
      rates: { sellingRate: "65000" },
    });
    for (const size of [PHONE, { width: 1280, height: 900 }]) {
      await page.setViewportSize(size);
      await page.goto(`/invoices/${invoice.id}/print`);
      expect(pdfPages(await page.pdf({ format: "A4" })), `at ${size.width} px`).toBe(1);
      expect(pdfPages(await page.pdf({ preferCSSPageSize: true })), `at ${size.width} px`).toBe(1);
    }
  });
});

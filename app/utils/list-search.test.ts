import { describe, expect, it } from "vitest";
import { DELIVERY_LIST_PARAMS, INVOICE_LIST_PARAMS, keptSearch, listUrlFrom } from "./list-search";

describe("the list a dialog returns to", () => {
  it("keeps the deliveries' filters and page, in the list's order, and nothing else", () => {
    expect(keptSearch("?cursor=c1&agentId=7&dialog=x&status=confirmed&from=2026-01-01", DELIVERY_LIST_PARAMS)).toBe(
      "?from=2026-01-01&status=confirmed&agentId=7&cursor=c1",
    );
    expect(keptSearch("?agentId=", DELIVERY_LIST_PARAMS)).toBe("");
    expect(keptSearch("", DELIVERY_LIST_PARAMS)).toBe("");
  });

  it("keeps the invoices' filters and page", () => {
    expect(
      listUrlFrom(
        "/invoices",
        "http://x.test/invoices/5/pay?status=overdue&invoiceNo=12&q=nope&before=b",
        INVOICE_LIST_PARAMS,
      ),
    ).toBe("/invoices?status=overdue&invoiceNo=12&before=b");
  });
});

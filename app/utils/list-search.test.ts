import { describe, expect, it } from "vitest";
import { DELIVERY_LIST_PARAMS, INVOICE_LIST_PARAMS, keptSearch, listUrlFrom } from "./list-search";

describe("the list a dialog returns to", () => {
  it("keeps the deliveries' filters and page, in the URL's order, and nothing else", () => {
    expect(keptSearch("?cursor=c1&agentId=7&dialog=x&status=confirmed&from=2026-01-01", DELIVERY_LIST_PARAMS)).toBe(
      "?cursor=c1&agentId=7&status=confirmed&from=2026-01-01",
    );
    expect(keptSearch("", DELIVERY_LIST_PARAMS)).toBe("");
    expect(keptSearch("?dialog=x", DELIVERY_LIST_PARAMS)).toBe("");
  });

  it("keeps a filter form's empty fields, so the dialog's search is the list's own", () => {
    // What the deliveries filter sends with nothing chosen: the list must not load again when a
    // dialog opens over it (its search would change if the empty fields were dropped).
    const list = "?from=&to=&status=&agentId=";
    expect(keptSearch(list, DELIVERY_LIST_PARAMS)).toBe(list);
    expect(keptSearch("?status=paid&status=pending", INVOICE_LIST_PARAMS)).toBe("?status=paid");
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

import { describe, expect, it } from "vitest";
import { INVOICE_LIST_PARAMS, keptSearch } from "./list-search";
import { keepListBehindDialogs } from "./revalidate";

type Args = Parameters<ReturnType<typeof keepListBehindDialogs>>[0];
const at = (path: string) => new URL(path, "http://x.test");
const ask = (fn: ReturnType<typeof keepListBehindDialogs>, from: string, to: string, extra: Partial<Args> = {}) =>
  fn({
    currentUrl: at(from),
    nextUrl: at(to),
    currentParams: {},
    nextParams: {},
    defaultShouldRevalidate: true,
    ...extra,
  } as Args);

describe("a list behind its dialogs", () => {
  const deliveries = keepListBehindDialogs("/deliveries");

  it("is not loaded again when a dialog opens, moves to another, or closes without a change", () => {
    expect(ask(deliveries, "/deliveries?agentId=3", "/deliveries/5/edit?agentId=3")).toBe(false);
    expect(ask(deliveries, "/deliveries/5/edit?agentId=3", "/deliveries/5/delete?agentId=3")).toBe(false);
    expect(ask(deliveries, "/deliveries/5/edit?agentId=3", "/deliveries?agentId=3")).toBe(false);
    expect(ask(deliveries, "/deliveries?from=&to=&agentId=3", "/deliveries/5/edit?from=&to=&agentId=3")).toBe(false);
  });

  it("is loaded again after a submission, for another filter or page, the same address, or another page", () => {
    // The redirect after Save carries the submission's method.
    expect(ask(deliveries, "/deliveries/5/edit?agentId=3", "/deliveries?agentId=3", { formMethod: "POST" })).toBe(true);
    expect(ask(deliveries, "/deliveries?agentId=3", "/deliveries?agentId=4")).toBe(true);
    expect(ask(deliveries, "/deliveries?agentId=3", "/deliveries/5/edit")).toBe(true);
    expect(ask(deliveries, "/deliveries?agentId=3", "/deliveries?agentId=3")).toBe(true);
    expect(ask(deliveries, "/", "/deliveries/5/edit")).toBe(true);
    expect(ask(deliveries, "/deliveriesx", "/deliveries/5/edit")).toBe(true);
  });

  it("follows a page of one record by its id: another record's page loads", () => {
    const invoice = keepListBehindDialogs((params) => `/invoices/${params.id}`);
    expect(
      ask(invoice, "/invoices/7", "/invoices/7/void", { currentParams: { id: "7" }, nextParams: { id: "7" } }),
    ).toBe(false);
    expect(ask(invoice, "/invoices/7", "/invoices/8", { currentParams: { id: "7" }, nextParams: { id: "8" } })).toBe(
      true,
    );
  });

  it("loads again on the first plain navigation after a submission (it may have cut the reload short)", () => {
    const users = keepListBehindDialogs("/settings");
    // User Created: the action answered with data, and the list's reload began...
    expect(ask(users, "/settings/users/new", "/settings/users/new", { formMethod: "POST" })).toBe(true);
    // ...and Done, clicked meanwhile, must load it again; after that, dialogs open without it.
    expect(ask(users, "/settings/users/new", "/settings")).toBe(true);
    expect(ask(users, "/settings", "/settings/users/new")).toBe(false);
  });

  it("compares only the list's own query when told to (a dialog's search of its own)", () => {
    const invoices = keepListBehindDialogs(
      "/invoices",
      (a, b) => keptSearch(a.searchParams, INVOICE_LIST_PARAMS) === keptSearch(b.searchParams, INVOICE_LIST_PARAMS),
    );
    expect(ask(invoices, "/invoices/new?clientId=2", "/invoices/new?clientId=2&agent=Ade", { formMethod: "GET" })).toBe(
      false,
    );
    expect(ask(invoices, "/invoices/new?clientId=2", "/invoices/new?clientId=3")).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { isActive, mobileBarItemsFor, navItemsFor, navPath } from "./nav";

describe("navigation", () => {
  it("gives admins the spec's 8 items and the rest, managers 3 and Receipts and Withholding, staff 3", () => {
    expect(navItemsFor("admin").map((i) => i.label)).toEqual([
      "Dashboard",
      "Deliveries",
      "Reconciliation",
      "Tax Report",
      "Profit Report",
      "Invoices",
      "Payments",
      "Receipts",
      "Withholding",
      "Agents",
      "Payout Approvals",
      "Clients",
      "Trucks",
      "Rates",
      "Audit Trail",
      "Settings",
    ]);
    expect(navItemsFor("manager").map((i) => i.label)).toEqual([
      "Dashboard",
      "Deliveries",
      "Receipts",
      "Withholding",
      "Settings",
    ]);
    expect(navItemsFor("staff").map((i) => i.label)).toEqual(["Dashboard", "Deliveries", "Settings"]);
    // Grouped under Payments for admins, whose list is long; a manager's stand on their own.
    const sub = (role: "admin" | "manager") =>
      navItemsFor(role)
        .filter((i) => i.sub)
        .map((i) => i.to);
    expect(sub("admin")).toEqual(["/receipts", "/withholdings"]);
    expect(sub("manager")).toEqual([]);
  });

  it("matches the root exactly and the others by path prefix", () => {
    expect(isActive("/", "/")).toBe(true);
    expect(isActive("/", "/deliveries")).toBe(false);
    expect(isActive("/deliveries", "/deliveries/new")).toBe(true);
    expect(isActive("/deliveries", "/deliveriesX")).toBe(false);
  });

  it("shows Invoices in the phone bar to admins only", () => {
    const labels = (role: "admin" | "staff") =>
      mobileBarItemsFor(role).map((i) => (i.kind === "menu" ? "Menu" : i.label));
    expect(labels("admin")).toEqual(["Dashboard", "Deliveries", "Menu", "Invoices", "More"]);
    expect(labels("staff")).toEqual(["Dashboard", "Deliveries", "Menu", "More"]);
  });
});

describe("navPath", () => {
  it("gives New Delivery opened from the dashboard to the dashboard, and any other page its own path", () => {
    expect(navPath({ pathname: "/deliveries/new", search: "?from=dashboard" })).toBe("/");
    expect(navPath({ pathname: "/deliveries/new", search: "" })).toBe("/deliveries/new");
    expect(navPath({ pathname: "/deliveries", search: "?from=dashboard" })).toBe("/deliveries");
  });
});

import { describe, expect, it } from "vitest";
import { isActive, mobileBarItemsFor, navItemsFor, navPath } from "./nav";

describe("navigation", () => {
  it("gives admins the spec's 8 items, the Tax Report, Trucks, Rates and the Audit Trail, and staff and managers 3", () => {
    expect(navItemsFor("admin").map((i) => i.label)).toEqual([
      "Dashboard",
      "Deliveries",
      "Reconciliation",
      "Tax Report",
      "Profit Report",
      "Invoices",
      "Payments",
      "Agents",
      "Payout Approvals",
      "Clients",
      "Trucks",
      "Rates",
      "Audit Trail",
      "Settings",
    ]);
    expect(navItemsFor("manager").map((i) => i.label)).toEqual(["Dashboard", "Deliveries", "Settings"]);
    expect(navItemsFor("staff")).toHaveLength(3);
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

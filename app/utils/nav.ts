import type { Role } from "../../db/schema";

/** How long the sidebar remembers being open or closed (decision 0005), written by the browser and by /resources/sidebar. */
export const SIDEBAR_COOKIE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export type NavItem = {
  to: string;
  label: string;
  icon:
    "home" | "truck" | "calendar" | "file" | "wallet" | "users" | "building" | "settings" | "chart" | "more" | "shield";
  /** A count shown beside the label, from the app layout's loader. */
  badge?: "pendingApprovals";
  /** Shown indented under the item before it (Receipts and Withholding under Payments). */
  sub?: boolean;
};

const DASHBOARD: NavItem = { to: "/", label: "Dashboard", icon: "home" };
const DELIVERIES: NavItem = { to: "/deliveries", label: "Deliveries", icon: "truck" };
const SETTINGS: NavItem = { to: "/settings", label: "Settings", icon: "settings" };
// Money in (docs/decisions/1240): receipts over several invoices and what clients withheld.
const RECEIPTS: NavItem = { to: "/receipts", label: "Receipts", icon: "wallet" };
const WITHHOLDING: NavItem = { to: "/withholdings", label: "Withholding", icon: "file" };

const ADMIN_ITEMS: NavItem[] = [
  DASHBOARD,
  DELIVERIES,
  { to: "/reconciliation", label: "Reconciliation", icon: "calendar" },
  // The monthly tax report (docs/decisions/0990); managers reach it from their dashboard.
  { to: "/tax", label: "Tax Report", icon: "chart" },
  // Profit and tonnage by month, agent, client or site (docs/decisions/1270); managers reach it from their dashboard.
  { to: "/reports/profit", label: "Profit Report", icon: "chart" },
  { to: "/invoices", label: "Invoices", icon: "file" },
  { to: "/payments", label: "Payments", icon: "wallet" },
  { ...RECEIPTS, sub: true },
  { ...WITHHOLDING, sub: true },
  { to: "/agents", label: "Agents", icon: "users" },
  // Payouts awaiting a second admin, with their count (docs/decisions/1250).
  { to: "/payouts/pending", label: "Payout Approvals", icon: "wallet", badge: "pendingApprovals" },
  { to: "/clients", label: "Clients", icon: "building" },
  // The truck register (docs/decisions/1200); managers reach it from their dashboard.
  { to: "/trucks", label: "Trucks", icon: "truck" },
  // Rate cards (docs/decisions/1230); managers reach them from their dashboard.
  { to: "/rates", label: "Rates", icon: "wallet" },
  // The Audit Trail: who changed what, and when (admins only, capability audit.view).
  { to: "/audit", label: "Audit Trail", icon: "shield" },
  SETTINGS,
];

/**
 * Spec section 2: admins see 8 items (and the Profit Report, Tax Report, Receipts, Withholding,
 * Payout Approvals, Trucks, Rates and the Audit Trail); staff see 3; managers the same 3 and the
 * receipts they record and the withholding they follow (decision 1240).
 */
export function navItemsFor(role: Role): NavItem[] {
  if (role === "admin") return ADMIN_ITEMS;
  if (role === "manager") return [DASHBOARD, DELIVERIES, RECEIPTS, WITHHOLDING, SETTINGS];
  return [DASHBOARD, DELIVERIES, SETTINGS];
}

/**
 * The address the nav marks: New Delivery opened from the dashboard belongs to the dashboard
 * (it returns there), not to Deliveries.
 */
export function navPath({ pathname, search }: { pathname: string; search: string }) {
  return pathname === "/deliveries/new" && new URLSearchParams(search).get("from") === "dashboard" ? "/" : pathname;
}

/** Active on exact match for the root, on path prefix for the others. */
export function isActive(to: string, pathname: string) {
  if (to === "/") return pathname === "/";
  return pathname === to || pathname.startsWith(to + "/");
}

type MobileBarItem = ({ kind: "link" } & NavItem) | { kind: "menu" };

/** Below 768px: Dashboard, Deliveries, Menu, Invoices (admins only), More. */
export function mobileBarItemsFor(role: Role): MobileBarItem[] {
  const items: MobileBarItem[] = [{ kind: "link", ...DASHBOARD }, { kind: "link", ...DELIVERIES }, { kind: "menu" }];
  if (role === "admin") items.push({ kind: "link", to: "/invoices", label: "Invoices", icon: "file" });
  items.push({ kind: "link", to: "/settings", label: "More", icon: "more" });
  return items;
}

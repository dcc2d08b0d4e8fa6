import type { User } from "~/db.server";

// Issue 5 fills this in: the four stat cards, Recent Deliveries with financials, Pending Invoices.
export async function loadManagerDashboard(user: User) {
  return { role: user.role };
}

export type ManagerDashboardData = Awaited<ReturnType<typeof loadManagerDashboard>>;

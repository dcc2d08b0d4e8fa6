import type { User } from "~/db.server";

// Issue 3 fills this in: the three stat cards and Recent Deliveries (no financial columns).
export async function loadStaffDashboard(user: User) {
  return { userId: user.id };
}

export type StaffDashboardData = Awaited<ReturnType<typeof loadStaffDashboard>>;

import type { StaffDashboardData } from "~/models/staff-dashboard.server";

export function StaffDashboard(_props: { data: StaffDashboardData }) {
  return (
    <div>
      <h1 className="page-title">Staff Dashboard</h1>
      <p className="page-subtitle">Record and track your deliveries</p>
    </div>
  );
}

import type { ManagerDashboardData } from "~/models/manager-dashboard.server";

export function ManagerDashboard(_props: { data: ManagerDashboardData }) {
  return (
    <div>
      <h1 className="page-title">Manager Dashboard</h1>
      <p className="page-subtitle">Overview of operations and finances</p>
    </div>
  );
}

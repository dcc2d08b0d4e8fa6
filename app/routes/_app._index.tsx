import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useRouteError } from "@remix-run/react";
import { ManagerDashboard } from "~/components/dashboard/manager-dashboard";
import { StaffDashboard } from "~/components/dashboard/staff-dashboard";
import { ErrorView } from "~/components/error-view";
import { MANAGER_RECENT_COLUMNS, STAFF_RECENT_COLUMNS, toDeliveryRow } from "~/components/deliveries/deliveries-table";
import { loadManagerDashboard } from "~/presenters/manager-dashboard.server";
import { loadStaffDashboard } from "~/presenters/staff-dashboard.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Management" }];

// Staff see the Staff Dashboard; managers and admins the Manager Dashboard (spec section 2).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  // The recent deliveries carry only the fields their table shows into the hydration data.
  if (user.role === "staff") {
    const staff = await loadStaffDashboard(user);
    return {
      kind: "staff" as const,
      staff: { ...staff, recent: staff.recent.map((d) => toDeliveryRow(d, STAFF_RECENT_COLUMNS)) },
      manager: null,
    };
  }
  const manager = await loadManagerDashboard(user);
  return {
    kind: "manager" as const,
    staff: null,
    manager: { ...manager, recent: manager.recent.map((d) => toDeliveryRow(d, MANAGER_RECENT_COLUMNS)) },
  };
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "staff" ? <StaffDashboard data={data.staff!} /> : <ManagerDashboard data={data.manager!} />;
}

// Spec section 8: the dashboard's own load-failure text, with Try Again.
export function ErrorBoundary() {
  return (
    <ErrorView
      error={useRouteError()}
      failure="Failed to load dashboard data. Please check your connection and try again."
    />
  );
}

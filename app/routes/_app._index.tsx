import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ManagerDashboard } from "~/components/dashboard/manager-dashboard";
import { StaffDashboard } from "~/components/dashboard/staff-dashboard";
import { loadManagerDashboard } from "~/presenters/manager-dashboard.server";
import { loadStaffDashboard } from "~/presenters/staff-dashboard.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Management" }];

// Staff see the Staff Dashboard; managers and admins the Manager Dashboard (spec section 2).
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role === "staff") return { kind: "staff" as const, staff: await loadStaffDashboard(user), manager: null };
  return { kind: "manager" as const, staff: null, manager: await loadManagerDashboard(user) };
}

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "staff" ? <StaffDashboard data={data.staff!} /> : <ManagerDashboard data={data.manager!} />;
}

import { Link } from "@remix-run/react";
import { CountUp } from "~/components/count-up";
import { DeliveriesTable, STAFF_RECENT_COLUMNS, type DeliveryRow } from "~/components/deliveries/deliveries-table";
import { CalendarIcon, PlusIcon, TruckIcon } from "~/components/icons";
import type { StaffDashboardData } from "~/presenters/staff-dashboard.server";
import { formatTons } from "~/utils/money";

/** The loader sends of the recent deliveries only what the table shows. */
type StaffDashboardView = Omit<StaffDashboardData, "recent"> & { recent: DeliveryRow[] };

export function StaffDashboard({ data }: { data: StaffDashboardView }) {
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Staff Dashboard</h1>
          <p className="page-subtitle">Record and track your deliveries</p>
        </div>
        <Link to="/deliveries/new?from=dashboard" className="btn-primary">
          <PlusIcon width={16} height={16} /> Add Delivery
        </Link>
      </header>
      <section className="grid gap-4 sm:grid-cols-3" aria-label="Your numbers">
        <Stat label="Today's Deliveries" icon={<TruckIcon />} testId="stat-today">
          <CountUp name="staff-today" value={data.today} />
        </Stat>
        <Stat label="This Week" icon={<CalendarIcon />} testId="stat-week">
          <CountUp name="staff-week" value={data.week} />
        </Stat>
        <Stat label="Total Tons (Week)" icon={<TruckIcon />} testId="stat-tons">
          {formatTons(data.weekTons)}
        </Stat>
      </section>
      <section className="space-y-3">
        <h2 className="text-lg font-semibold">Recent Deliveries</h2>
        {data.recent.length === 0 ? (
          <div className="card p-8 text-center">
            <p className="font-semibold">No Deliveries</p>
            <p className="page-subtitle mt-1">Your recorded deliveries will appear here.</p>
          </div>
        ) : (
          <DeliveriesTable rows={data.recent} columns={STAFF_RECENT_COLUMNS} label="Recent deliveries" compact />
        )}
      </section>
    </div>
  );
}

function Stat({
  label,
  icon,
  testId,
  children,
}: {
  label: string;
  icon: React.ReactNode;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className="card p-5">
      <div className="flex items-center justify-between text-sm text-slate-500 dark:text-slate-400">
        <span>{label}</span>
        {icon}
      </div>
      <p className="mt-2 text-3xl font-bold tabular-nums" data-testid={testId}>
        {children}
      </p>
    </div>
  );
}

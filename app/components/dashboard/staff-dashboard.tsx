import { Link } from "@remix-run/react";
import { TableScroll } from "~/components/table-scroll";
import { CountUp } from "~/components/count-up";
import { DeliveryStatusBadge } from "~/components/deliveries/status-badge";
import { CalendarIcon, PlusIcon, TruckIcon } from "~/components/icons";
import type { StaffDashboardData } from "~/presenters/staff-dashboard.server";
import { formatDeliveryDate } from "~/utils/dates";
import { formatAmount } from "~/utils/money";

export function StaffDashboard({ data }: { data: StaffDashboardData }) {
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
          <CountUp value={data.today} />
        </Stat>
        <Stat label="This Week" icon={<CalendarIcon />} testId="stat-week">
          <CountUp value={data.week} />
        </Stat>
        <Stat label="Total Tons (Week)" icon={<TruckIcon />} testId="stat-tons">
          {formatAmount(data.weekTons)}
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
          <TableScroll label="Recent deliveries">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs uppercase text-slate-500 dark:bg-slate-800 dark:text-slate-300">
                <tr>
                  <th className="px-2 py-2 sm:px-3">Date</th>
                  <th className="px-2 py-2 sm:px-3">Agent</th>
                  <th className="px-2 py-2 text-right sm:px-3">Tons</th>
                  <th className="hidden px-2 py-2 sm:table-cell sm:px-3">Location</th>
                  <th className="px-2 py-2 sm:px-3">Status</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {data.recent.map((d) => (
                  <tr key={d.id}>
                    <td className="whitespace-nowrap px-2 py-2 sm:px-3">{formatDeliveryDate(d.date)}</td>
                    <td className="px-2 py-2 [overflow-wrap:anywhere] sm:px-3">
                      {d.agentName}
                      {/* On a phone the location rides under the agent, so Status stays on screen. */}
                      <span className="block text-xs text-slate-500 sm:hidden">{d.location}</span>
                    </td>
                    <td className="px-2 py-2 text-right tabular-nums sm:px-3">{formatAmount(d.tons)}</td>
                    <td className="hidden px-2 py-2 sm:table-cell sm:px-3">{d.location}</td>
                    <td className="px-2 py-2 sm:px-3"><DeliveryStatusBadge status={d.status} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}

function Stat({ label, icon, testId, children }: { label: string; icon: React.ReactNode; testId: string; children: React.ReactNode }) {
  return (
    <div className="card p-5">
      <div className="flex items-center justify-between text-sm text-slate-500 dark:text-slate-400">
        <span>{label}</span>
        {icon}
      </div>
      <p className="mt-2 text-3xl font-bold tabular-nums" data-testid={testId}>{children}</p>
    </div>
  );
}

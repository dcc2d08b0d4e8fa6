import { Link } from "@remix-run/react";
import { RowLink } from "~/components/row-link";
import { CountUp } from "~/components/count-up";
import { DeliveriesTable, MANAGER_RECENT_COLUMNS, type DeliveryRow } from "~/components/deliveries/deliveries-table";
import { PaymentStatusBadge } from "~/components/invoices/status-badge";
import type { ManagerDashboardData } from "~/presenters/manager-dashboard.server";
import { formatDate } from "~/utils/dates";
import { SummaryAmount } from "~/components/money";
import { compare, formatNaira } from "~/utils/money";
import { Sparkline } from "./sparkline";
import { ChartFigure } from "~/components/reports/chart";

const QUICK_LINKS = [
  { to: "/invoices", label: "Invoices" },
  { to: "/payments", label: "Payments" },
  { to: "/receivables", label: "Receivables" },
  { to: "/reminders", label: "Reminders" },
  { to: "/reconciliation", label: "Reconciliation" },
  { to: "/tax", label: "Tax Report" },
  { to: "/reports/profit", label: "Profit Report" },
  { to: "/agents", label: "Agents" },
  { to: "/clients", label: "Clients" },
  { to: "/trucks", label: "Trucks" },
  { to: "/rates", label: "Rates" },
];

/** The loader sends of the recent deliveries only what the table shows. */
type ManagerDashboardView = Omit<ManagerDashboardData, "recent"> & { recent: DeliveryRow[] };

export function ManagerDashboard({ data }: { data: ManagerDashboardView }) {
  return (
    <div className="space-y-6">
      <header>
        <h1 className="page-title">Manager Dashboard</h1>
        <p className="page-subtitle">Overview of operations and finances</p>
      </header>
      <nav aria-label="Quick links" className="flex flex-wrap gap-2">
        {QUICK_LINKS.map((l) => (
          <Link key={l.to} to={l.to} className="btn-outline btn-sm">
            {l.label}
          </Link>
        ))}
      </nav>
      <section className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Key figures">
        <Card
          label="Total Deliveries"
          testId="stat-deliveries"
          value={<CountUp name="manager-deliveries" value={data.totalDeliveries} />}
        >
          <Progress value={String(data.deliveriesProgress)} label={`${data.deliveriesProgress}% invoiced`} />
        </Card>
        <Card label="Total Profit (All time)" testId="stat-profit" value={<SummaryAmount value={data.totalProfit} />}>
          <p className="page-subtitle mt-2">
            <Link to="/reports/profit" className="underline">
              Profit and tonnage report
            </Link>
          </p>
        </Card>
        <Card label="Outstanding" testId="stat-outstanding" value={<SummaryAmount value={data.outstanding} />}>
          <Progress value={data.outstandingProgress} label={`${data.outstandingProgress}% of invoiced paid`} />
          <Sparkline values={data.outstandingSeries} label="Owed on invoices of the last 7 days" />
        </Card>
        <Card label="Overdue" testId="stat-overdue" value={<CountUp name="manager-overdue" value={data.overdue} />}>
          <p className="page-subtitle mt-2">invoices past their due date</p>
        </Card>
      </section>
      <section className="grid gap-4 2xl:grid-cols-2" aria-label="Trends">
        {data.trends.map((chart) => (
          <ChartFigure key={chart.id} chart={chart} />
        ))}
      </section>
      <div className="grid gap-6 lg:grid-cols-3">
        <section className="space-y-3 lg:col-span-2">
          <h2 className="text-lg font-semibold">Recent Deliveries</h2>
          {data.recent.length === 0 ? (
            <div className="card p-8 text-center">
              <p className="font-semibold">No Deliveries</p>
            </div>
          ) : (
            <DeliveriesTable
              rows={data.recent}
              columns={MANAGER_RECENT_COLUMNS}
              label="Recent deliveries"
              minWidth="560"
            />
          )}
        </section>
        <section className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold">Pending Invoices</h2>
            {data.unpaidCount > data.pendingInvoices.length ? (
              <p className="text-sm">
                <Link to="/invoices?status=overdue" className="underline">
                  Overdue ({data.overdue})
                </Link>
                {" · "}
                <Link to="/invoices?status=pending" className="underline">
                  All pending
                </Link>
              </p>
            ) : null}
          </div>
          {data.pendingInvoices.length === 0 ? (
            <div className="card p-6 text-center">
              <p className="page-subtitle">No invoices waiting for payment.</p>
            </div>
          ) : (
            <ul className="space-y-2">
              {data.pendingInvoices.map((inv) => (
                <li key={inv.id} className="card flex items-center justify-between gap-2 p-3">
                  <div>
                    <p className="font-medium">
                      <RowLink to={`/invoices/${inv.id}`} className="underline-offset-2 hover:underline">
                        #{inv.invoiceNo}
                      </RowLink>{" "}
                      · {inv.clientName}
                    </p>
                    <p className="page-subtitle">
                      Due {formatDate(inv.expectedPaymentDate)} · {formatNaira(inv.balance)} left
                    </p>
                  </div>
                  <PaymentStatusBadge status={inv.paymentStatus} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

function Card({
  label,
  value,
  testId,
  children,
}: {
  label: string;
  value: React.ReactNode;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="card p-5">
      <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
      <p className="mt-1 text-2xl font-bold tabular-nums" data-testid={testId}>
        {value}
      </p>
      {children}
    </div>
  );
}

/** A bar for a percent given as an exact decimal string ("1.7"), held within 0-100. */
function Progress({ value, label }: { value: string; label: string }) {
  const clamped = compare(value, 0) < 0 ? "0" : compare(value, 100) > 0 ? "100" : value;
  return (
    <div className="mt-2">
      <div
        className="h-1.5 rounded-full bg-slate-100 dark:bg-slate-800"
        role="progressbar"
        aria-valuenow={Number(clamped)}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-label={label}
      >
        <div className="h-1.5 rounded-full bg-green-600" style={{ width: `${clamped}%` }} />
      </div>
      <p className="page-subtitle mt-1 text-xs">{label}</p>
    </div>
  );
}

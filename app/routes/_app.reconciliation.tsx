import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { DeliveryStatusBadge } from "~/components/deliveries/status-badge";
import { createInvoicesForMonth } from "~/models/invoice.server";
import { listMonths, monthDetails } from "~/models/reconciliation.server";
import { requireRole } from "~/utils/auth.server";
import { formatDayMonthYear, formatMonth } from "~/utils/dates";
import { formatAmount, formatNaira } from "~/utils/money";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Monthly Reconciliation · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const open = new URL(request.url).searchParams.get("month");
  const [months, details] = await Promise.all([listMonths(), open ? monthDetails(open) : Promise.resolve([])]);
  return { months, open, details };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, ["manager", "admin"]);
  const month = String((await request.formData()).get("month") ?? "");
  const result = await createInvoicesForMonth(user, month);
  if (!result.ok) {
    return redirectWithToast("/reconciliation", { title: "Failed to create invoice", description: result.message, variant: "destructive" });
  }
  const numbers = result.invoices.map((i) => `#${i.invoiceNo}`).join(", ");
  return redirectWithToast(`/reconciliation?month=${month}`, { title: "Invoice created successfully", description: `${formatMonth(month)}: ${numbers}` });
}

export default function ReconciliationPage() {
  const { months, open, details } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  return (
    <div className="space-y-4">
      <header>
        <h1 className="page-title">Monthly Reconciliation</h1>
        <p className="page-subtitle">Deliveries by month, and what is left to invoice</p>
      </header>
      {months.length === 0 ? (
        <div className="card p-10 text-center"><p className="font-semibold">No deliveries found</p></div>
      ) : (
        <ul className="space-y-3">
          {months.map((m) => {
            const expanded = open === m.month;
            const toggle = new URLSearchParams(params);
            if (expanded) toggle.delete("month");
            else toggle.set("month", m.month);
            return (
              <li key={m.month} className="card p-4" aria-label={formatMonth(m.month)}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 className="font-semibold">{formatMonth(m.month)}</h2>
                    <p className="page-subtitle">
                      {m.count} deliveries · {m.confirmedCount} confirmed
                    </p>
                    <p className="mt-1 text-sm">
                      {m.invoiced ? (
                        <span>Invoices: {m.invoiceNumbers.map((n) => `#${n}`).join(", ")}</span>
                      ) : m.prospectiveNumber ? (
                        <span className="badge bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">Prospective: #{m.prospectiveNumber}</span>
                      ) : m.invoiceNumbers.length ? (
                        <span>Invoices: {m.invoiceNumbers.map((n) => `#${n}`).join(", ")}</span>
                      ) : null}
                    </p>
                  </div>
                  <dl className="grid grid-cols-3 gap-4 text-sm">
                    <div><dt className="text-slate-500">Total Tons</dt><dd className="tabular-nums">{formatAmount(m.totalTons)}</dd></div>
                    <div><dt className="text-slate-500">Revenue</dt><dd className="tabular-nums">{formatNaira(m.revenue)}</dd></div>
                    <div><dt className="text-slate-500">Status</dt><dd>{m.invoiced ? "Invoiced" : "Pending"}</dd></div>
                  </dl>
                </div>
                <div className="mt-3 flex flex-wrap gap-2">
                  <Link to={`?${toggle}`} preventScrollReset className="btn-ghost btn-sm" aria-expanded={expanded}>
                    {expanded ? "Hide Details" : "View Details"}
                  </Link>
                  {m.canGenerate && m.prospectiveNumber ? (
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="month" value={m.month} />
                      <button type="submit" className="btn-primary btn-sm" disabled={busy}>Generate Invoice #{m.prospectiveNumber}</button>
                    </Form>
                  ) : null}
                </div>
                {expanded ? (
                  <div className="mt-3 overflow-x-auto">
                    <table className="w-full min-w-[520px] text-left text-sm">
                      <thead className="text-xs uppercase text-slate-500">
                        <tr>
                          <th className="px-2 py-1">Date</th>
                          <th className="px-2 py-1">Agent</th>
                          <th className="px-2 py-1 text-right">Tons</th>
                          <th className="px-2 py-1">Location</th>
                          <th className="px-2 py-1">Status</th>
                          <th className="px-2 py-1 text-right">Revenue</th>
                        </tr>
                      </thead>
                      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                        {details.map((d) => (
                          <tr key={d.id}>
                            <td className="px-2 py-1">{formatDayMonthYear(d.date)}</td>
                            <td className="px-2 py-1">{d.agentName}</td>
                            <td className="px-2 py-1 text-right tabular-nums">{formatAmount(d.tons)}</td>
                            <td className="px-2 py-1">{d.location}</td>
                            <td className="px-2 py-1"><DeliveryStatusBadge status={d.status} /></td>
                            <td className="px-2 py-1 text-right tabular-nums">{d.revenue ? formatNaira(d.revenue) : "-"}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

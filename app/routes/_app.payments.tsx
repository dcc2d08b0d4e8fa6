import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { listPayments, paymentTotals } from "~/models/payment.server";
import { requireRole } from "~/utils/auth.server";
import { formatDeliveryDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";
import { SummaryAmount } from "~/components/money";

export const meta: MetaFunction = () => [{ title: "Payments · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ["manager", "admin"]);
  const [payments, totals] = await Promise.all([listPayments(), paymentTotals()]);
  return { payments, totals };
}

export default function PaymentsPage() {
  const { payments, totals } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <header>
        <h1 className="page-title">Payments</h1>
        <p className="page-subtitle">Track payment records</p>
      </header>
      <section className="grid grid-cols-2 gap-3">
        <div className="card p-4">
          <p className="text-sm text-slate-500">Total Payments</p>
          <p className="text-2xl font-bold tabular-nums" data-testid="total-payments">{totals.count}</p>
        </div>
        <div className="card p-4">
          <p className="text-sm text-slate-500">Total Amount</p>
          <p className="text-2xl font-bold tabular-nums" data-testid="total-amount"><SummaryAmount value={totals.total} /></p>
        </div>
      </section>
      <section className="space-y-3" aria-labelledby="history">
        <h2 id="history" className="text-lg font-semibold">Payment History</h2>
        {navigation.state === "loading" && navigation.location.pathname === "/payments" ? <p className="page-subtitle">Loading payments...</p> : null}
        {payments.length === 0 ? (
          <div className="card p-10 text-center">
            <p className="font-semibold">No Payments Yet</p>
            <p className="page-subtitle mt-1">Payments will appear here once recorded via Record Payment on pending invoices.</p>
          </div>
        ) : (
          <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
            {payments.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-4">
                <div>
                  <p className="font-semibold tabular-nums">{formatNaira(p.amount)}</p>
                  <p className="page-subtitle">
                    {formatDeliveryDate(p.paymentDate)} · Invoice #{p.invoiceNo} · {p.clientName}
                  </p>
                </div>
                {p.reference ? <p className="text-sm text-slate-600 dark:text-slate-300">Ref: {p.reference}</p> : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

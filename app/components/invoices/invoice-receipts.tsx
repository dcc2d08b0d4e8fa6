import { Link } from "@remix-run/react";
import { formatDate } from "~/utils/dates";
import { formatNaira } from "~/utils/money";

type ReceiptOnInvoice = {
  id: number;
  date: string;
  reference: string | null;
  reversed: boolean;
  allocations: { amount: string; cash: string; wht: string; vatWithheld: string }[];
};

/** The receipts that settled an invoice, cash and what was withheld apart (docs/decisions/1240). */
export function InvoiceReceipts({ receipts }: { receipts: ReceiptOnInvoice[] }) {
  if (receipts.length === 0) return null;
  return (
    <section aria-labelledby="invoice-receipts" className="space-y-2">
      <h2 id="invoice-receipts" className="text-lg font-semibold">
        {`Receipts (${receipts.length})`}
      </h2>
      <ul className="card divide-y divide-slate-100 dark:divide-slate-800">
        {receipts.map((r) => {
          const a = r.allocations[0] ?? { amount: "0.00", cash: "0.00", wht: "0.00", vatWithheld: "0.00" };
          return (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm">
              <Link to={`/receipts/${r.id}`} className="font-semibold underline">
                {`Receipt #${r.id}`}
              </Link>
              <span>
                {formatDate(r.date)}
                {r.reference ? ` · Ref: ${r.reference}` : ""}
                {r.reversed ? " · Reversed" : ""}
              </span>
              <span className="basis-full tabular-nums">
                {`Settled ${formatNaira(a.amount)}: cash ${formatNaira(a.cash)}, WHT ${formatNaira(a.wht)}`}
                {a.vatWithheld !== "0.00" ? `, VAT withheld ${formatNaira(a.vatWithheld)}` : ""}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

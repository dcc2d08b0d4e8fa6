import { Link } from "@remix-run/react";
import { TableScroll } from "~/components/table-scroll";
import type { ProfitReportView } from "~/presenters/reports/profit-page.server";
import type { ProfitRow } from "~/presenters/reports/profit-report.server";
import { formatMonth } from "~/utils/dates";
import { ACCEPTED_NOTE, formatProfitCell, GROUP_WORDS, profitColumns, unpricedNote } from "~/utils/profit-report-words";
import { firstDayOfMonth, lastDayOfMonth } from "~/utils/year-month";

/**
 * The deliveries behind a row (docs/decisions/1270): the list filtered to the row's agent,
 * client or site and its month, or the report's period. Deliveries without a client have no
 * filter of their own: their row has no link.
 */
export function drillDownTo(view: Pick<ProfitReportView, "query">, row: ProfitRow): string | null {
  const params = new URLSearchParams({
    from: firstDayOfMonth(row.month ?? view.query.from),
    to: lastDayOfMonth(row.month ?? view.query.to),
  });
  if (row.agentId !== null) params.set("agentId", String(row.agentId));
  else if (row.clientId !== null) params.set("clientId", String(row.clientId));
  else if (row.site !== null) params.set("site", row.site);
  else if (row.clientName !== null) return null;
  return `/deliveries?${params}`;
}

export function ProfitTable({ view }: { view: ProfitReportView }) {
  const columns = profitColumns(view.withTickets);
  const byMonth = view.query.by === "month";
  const dimension = byMonth ? view.query.then : view.query.by;
  const nameHeads = [...(byMonth ? [GROUP_WORDS.month] : []), ...(dimension ? [GROUP_WORDS[dimension]] : [])];
  const note = unpricedNote(view.totals.unpricedDeliveries);
  return (
    <section aria-labelledby="profit-table-title" className="space-y-2">
      <h2 id="profit-table-title" className="text-lg font-semibold">
        Figures
      </h2>
      {view.rows.length === 0 ? (
        <div className="card p-8 text-center">
          <p className="font-semibold">No counted deliveries in this period</p>
          <p className="page-subtitle">Confirmed and invoiced deliveries count; drafts do not.</p>
        </div>
      ) : (
        <TableScroll label="Profit and tonnage figures">
          <table className="w-full min-w-[900px] text-sm">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                {nameHeads.map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 text-left">
                    {h}
                  </th>
                ))}
                {columns.map((c) => (
                  <th key={c.key} scope="col" className="px-3 py-2 text-right">
                    {c.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.rows.map((row, i) => {
                const to = drillDownTo(view, row);
                const name = row.agentName ?? row.clientName ?? row.site;
                return (
                  <tr key={i} className="border-b border-slate-100 dark:border-slate-800">
                    {byMonth ? (
                      <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                        {dimension || !to ? (
                          formatMonth(row.month!)
                        ) : (
                          <Link to={to} className="underline">
                            {formatMonth(row.month!)}
                          </Link>
                        )}
                      </th>
                    ) : null}
                    {dimension ? (
                      <NameCell header={!byMonth}>
                        {to ? (
                          <Link to={to} className="underline">
                            {name}
                          </Link>
                        ) : (
                          name
                        )}
                      </NameCell>
                    ) : null}
                    {columns.map((c) => (
                      <td key={c.key} className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                        {formatProfitCell(c, row)}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr className="border-t-2 border-slate-300 font-semibold dark:border-slate-600">
                <th scope="row" colSpan={nameHeads.length} className="px-3 py-2 text-left">
                  Total
                </th>
                {columns.map((c) => (
                  <td key={c.key} className="whitespace-nowrap px-3 py-2 text-right tabular-nums" data-total={c.key}>
                    {formatProfitCell(c, view.totals)}
                  </td>
                ))}
              </tr>
            </tfoot>
          </table>
        </TableScroll>
      )}
      <p className="page-subtitle text-xs">
        Confirmed and invoiced deliveries count, by their delivery date. Margin is the total profit over the total
        revenue. {view.withTickets ? ACCEPTED_NOTE : null} {note}
      </p>
    </section>
  );
}

function NameCell({ header, children }: { header: boolean; children: React.ReactNode }) {
  const className = "px-3 py-2 text-left font-medium";
  return header ? (
    <th scope="row" className={className}>
      {children}
    </th>
  ) : (
    <td className={className}>{children}</td>
  );
}

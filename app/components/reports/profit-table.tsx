import { Link } from "@remix-run/react";
import { Pager } from "~/components/pager";
import { TableScroll } from "~/components/table-scroll";
import type { ProfitTableView } from "~/presenters/reports/profit-page.server";
import { ACCEPTED_NOTE } from "~/utils/profit-report-words";

// The report's table as its loader shaped it (docs/decisions/1270): cells already in the app's
// format, so the page's data carries each figure once; cell styles are set once on the table.
const CELLS =
  "[&_td]:whitespace-nowrap [&_td]:px-3 [&_td]:py-2 [&_td]:text-right [&_td]:tabular-nums [&_th]:px-3 [&_th]:py-2 [&_th]:text-left";

export function ProfitTable({ table }: { table: ProfitTableView }) {
  return (
    <section aria-labelledby="profit-table-title" className="space-y-2">
      <h2 id="profit-table-title" className="text-lg font-semibold">
        Figures
      </h2>
      {table.rows.length === 0 ? (
        <div className="card p-8 text-center">
          <p className="font-semibold">No counted deliveries in this period</p>
          <p className="page-subtitle">Confirmed and invoiced deliveries count; drafts do not.</p>
        </div>
      ) : (
        <TableScroll label="Profit and tonnage figures">
          <table className={`w-full min-w-[900px] text-sm ${CELLS}`}>
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                {table.nameHeads.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
                {table.heads.map((h) => (
                  <th key={h} scope="col" className="!text-right">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="[&_tr]:border-b [&_tr]:border-slate-100 dark:[&_tr]:border-slate-800">
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.month !== null ? (
                    <th scope="row" className="whitespace-nowrap font-medium">
                      {row.name === null && row.to ? (
                        <Link to={row.to} className="underline">
                          {row.month}
                        </Link>
                      ) : (
                        row.month
                      )}
                    </th>
                  ) : null}
                  {row.name !== null ? (
                    <NameCell header={row.month === null}>
                      {row.to ? (
                        <Link to={row.to} className="underline">
                          {row.name}
                        </Link>
                      ) : (
                        row.name
                      )}
                    </NameCell>
                  ) : null}
                  {row.cells.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t-2 border-slate-300 font-semibold dark:border-slate-600">
                <th scope="row" colSpan={table.nameHeads.length}>
                  Total
                </th>
                {table.totals.map((cell, c) => (
                  <td key={c}>{cell}</td>
                ))}
              </tr>
            </tfoot>
          </table>
        </TableScroll>
      )}
      {table.part ? <p className="page-subtitle text-sm">{table.part}</p> : null}
      <Pager label="Report pages" olderCursor={table.nextCursor} newerCursor={null} olderLabel="Next rows" />
      <p className="page-subtitle text-xs">
        Confirmed and invoiced deliveries count, by their delivery date. Margin is the total profit over the total
        revenue. {table.withTickets ? ACCEPTED_NOTE : null} {table.note}
      </p>
    </section>
  );
}

function NameCell({ header, children }: { header: boolean; children: React.ReactNode }) {
  return header ? (
    <th scope="row" className="font-medium">
      {children}
    </th>
  ) : (
    <td className="!text-left font-medium">{children}</td>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ExportCsvLink } from "~/components/export-link";
import { Pager } from "~/components/pager";
import { TableScroll } from "~/components/table-scroll";
import { readMonthPage } from "~/presenters/reconciliation.server";
import {
  listTaxMonths,
  taxMonth,
  taxMonthCreditNotes,
  taxMonthInvoices,
  type TaxFigures,
} from "~/presenters/tax-report.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate, formatMonth } from "~/utils/dates";
import { isYearMonth } from "~/utils/year-month";
import { formatAmount, formatNaira } from "~/utils/money";
import { readPageRequest, type PageRequest } from "~/utils/params";
import { PageHeader } from "~/components/page-header";

export const meta: MetaFunction = () => [{ title: "Tax Report · Management" }];

const FIRST: PageRequest = { cursor: null, direction: "older" };

/** One of the month's two lists: its own cursor parameters; a bad cursor shows the first page. */
function listPage(params: URLSearchParams, cursor: string, before: string): PageRequest {
  const asked = readPageRequest(
    new URLSearchParams({ cursor: params.get(cursor) ?? "", before: params.get(before) ?? "" }),
    "date",
  );
  return asked.invalid ? FIRST : asked;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "tax.view");
  const params = new URL(request.url).searchParams;
  const asked = params.get("month");
  const [page, month] = await Promise.all([
    listTaxMonths(user, readMonthPage(params)),
    asked ? taxMonth(user, asked) : Promise.resolve(null),
  ]);
  const [invoices, creditNotes] = month
    ? await Promise.all([
        taxMonthInvoices(user, month.month, listPage(params, "invoicesCursor", "invoicesBefore")),
        taxMonthCreditNotes(user, month.month, listPage(params, "creditsCursor", "creditsBefore")),
      ])
    : [null, null];
  return { ...page, asked, month, invoices, creditNotes };
}

const NUM = "px-3 py-2 text-right tabular-nums";
const HEAD = "px-3 py-2";

export default function TaxReportPage() {
  const { months, olderCursor, newerCursor, asked, month, invoices, creditNotes } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const linkTo = (m: string | null) => {
    const next = new URLSearchParams(params);
    for (const name of ["invoicesCursor", "invoicesBefore", "creditsCursor", "creditsBefore"]) next.delete(name);
    if (m) next.set("month", m);
    else next.delete("month");
    return next.size ? `?${next}` : "/tax";
  };
  return (
    <div className="space-y-4">
      <PageHeader
        title="Tax Report"
        subtitle="Tax contained in the month's invoices, less the tax in its credit notes (rates include tax)"
      >
        <ExportCsvLink to="/tax/export" keep={["month"]} />
      </PageHeader>
      {asked && !month ? (
        <p role="status" className="card p-4 text-sm">
          {isYearMonth(asked)
            ? `${formatMonth(asked)} has no invoices or credit notes.`
            : `"${String(asked).slice(0, 20)}" is not a month: choose one from the list.`}
        </p>
      ) : null}
      {month && invoices && creditNotes ? (
        <section className="space-y-4" aria-labelledby="tax-month-title">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="tax-month-title" className="text-lg font-semibold">
              {formatMonth(month.month)} <MonthState closed={month.closed} />
            </h2>
            <Link to={linkTo(null)} preventScrollReset className="btn-ghost btn-sm">
              Hide Details
            </Link>
          </div>
          {/* On a phone one figure a line, label and amount side by side: three amounts in millions do
              not fit across 390 px (decision 0990). */}
          <dl className="grid gap-2 text-sm sm:grid-cols-3 sm:gap-3">
            <div className="card flex flex-wrap items-baseline justify-between gap-x-3 p-3 sm:block">
              <dt className="text-slate-500">Tax on sales</dt>
              <dd className="tabular-nums">{formatNaira(month.total.invoiceTax)}</dd>
            </div>
            <div className="card flex flex-wrap items-baseline justify-between gap-x-3 p-3 sm:block">
              <dt className="text-slate-500">Tax credited</dt>
              <dd className="tabular-nums">{formatNaira(month.total.creditTax)}</dd>
            </div>
            <div className="card flex flex-wrap items-baseline justify-between gap-x-3 p-3 sm:block">
              <dt className="text-slate-500">Net tax</dt>
              <dd className="font-semibold tabular-nums">{formatNaira(month.total.netTax)}</dd>
            </div>
          </dl>
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="tax-month-withheld">
            Withheld by clients from receipts dated in the month (net of reversals): WHT{" "}
            <span className="tabular-nums">{formatNaira(month.withheld.whtWithheld)}</span>, VAT{" "}
            <span className="tabular-nums">{formatNaira(month.withheld.vatWithheld)}</span>.{" "}
            <Link to="/withholdings" className="underline">
              Withholding
            </Link>
          </p>
          <TableScroll label={`${formatMonth(month.month)} by tax rate`}>
            <table className="w-full min-w-[760px] text-left text-sm">
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th className={HEAD}>Tax rate</th>
                  <FigureHeads />
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {month.rates.map((r) => (
                  <tr key={r.taxRate}>
                    <td className={HEAD}>{formatAmount(r.taxRate)}%</td>
                    <FigureCells figures={r} />
                  </tr>
                ))}
              </tbody>
              {month.rates.length > 1 ? (
                <tfoot className="font-semibold">
                  <tr>
                    <td className={HEAD}>Total</td>
                    <FigureCells figures={month.total} />
                  </tr>
                </tfoot>
              ) : null}
            </table>
          </TableScroll>
          {month.total.voidCount > 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {month.total.voidCount === 1 ? "1 invoice" : `${month.total.voidCount} invoices`} of the month{" "}
              {month.total.voidCount === 1 ? "was" : "were"} voided: listed below, counted in no figure.
            </p>
          ) : null}
          <h3 className="font-semibold">Invoices issued</h3>
          {invoices.items.length ? (
            <TableScroll label={`Invoices issued in ${formatMonth(month.month)}`}>
              <table className="w-full min-w-[640px] text-left text-sm">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th className={HEAD}>Invoice</th>
                    <th className={HEAD}>Date</th>
                    <th className={HEAD}>Client</th>
                    <th className={`${HEAD} text-right`}>Amount</th>
                    <th className={`${HEAD} text-right`}>Rate</th>
                    <th className={`${HEAD} text-right`}>Tax</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {invoices.items.map((i) => (
                    <tr key={i.id}>
                      <td className={HEAD}>
                        <Link to={`/invoices/${i.id}`} className="underline">
                          #{i.invoiceNo}
                        </Link>
                        {i.isVoid ? <span className="badge ml-2">Void</span> : null}
                      </td>
                      <td className={HEAD}>{formatDate(i.issueDate)}</td>
                      <td className={HEAD}>{i.clientName}</td>
                      <td className={NUM}>{i.isVoid ? <s>{formatNaira(i.amount)}</s> : formatNaira(i.amount)}</td>
                      <td className={NUM}>{formatAmount(i.taxRate)}%</td>
                      <td className={NUM}>{i.isVoid ? "-" : formatNaira(i.tax)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : (
            <p className="text-sm">No invoices were issued this month.</p>
          )}
          <Pager
            label="Invoice pages"
            olderCursor={invoices.olderCursor}
            newerCursor={invoices.newerCursor}
            names={{ cursor: "invoicesCursor", before: "invoicesBefore" }}
          />
          <h3 className="font-semibold">Credit notes</h3>
          {creditNotes.items.length ? (
            <TableScroll label={`Credit notes of ${formatMonth(month.month)}`}>
              <table className="w-full min-w-[640px] text-left text-sm">
                <thead className="text-xs uppercase text-slate-500">
                  <tr>
                    <th className={HEAD}>Credit note</th>
                    <th className={HEAD}>Date</th>
                    <th className={HEAD}>Invoice</th>
                    <th className={HEAD}>Client</th>
                    <th className={`${HEAD} text-right`}>Amount</th>
                    <th className={`${HEAD} text-right`}>Tax</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {creditNotes.items.map((c) => (
                    <tr key={c.id}>
                      <td className={HEAD}>{c.creditNoteNo ?? `Reversal of ${c.reversesCreditNoteNo}`}</td>
                      <td className={HEAD}>{formatDate(c.issueDate)}</td>
                      <td className={HEAD}>
                        <Link to={`/invoices/${c.invoiceId}`} className="underline">
                          #{c.invoiceNo}
                        </Link>
                      </td>
                      <td className={HEAD}>{c.clientName}</td>
                      <td className={NUM}>{formatNaira(c.amount)}</td>
                      <td className={NUM}>{formatNaira(c.tax)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : (
            <p className="text-sm">No credit notes were dated this month.</p>
          )}
          <Pager
            label="Credit note pages"
            olderCursor={creditNotes.olderCursor}
            newerCursor={creditNotes.newerCursor}
            names={{ cursor: "creditsCursor", before: "creditsBefore" }}
          />
        </section>
      ) : null}
      {month ? <h2 className="text-lg font-semibold">By month</h2> : null}
      {months.length === 0 ? (
        <div className="card p-10 text-center">
          <p className="font-semibold">No invoices yet</p>
          <p className="page-subtitle">A month shows here once it has an invoice, a credit note or a withholding.</p>
        </div>
      ) : (
        <TableScroll label="Tax by month">
          <table className="w-full min-w-[1060px] text-left text-sm">
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th className={HEAD}>Month</th>
                <FigureHeads />
                <th className={`${HEAD} text-right`}>WHT withheld</th>
                <th className={`${HEAD} text-right`}>VAT withheld</th>
                <th className={HEAD}>Books</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {months.map((m) => (
                <tr key={m.month} aria-current={month?.month === m.month ? "true" : undefined}>
                  <td className={HEAD}>
                    <Link to={linkTo(m.month)} preventScrollReset className="underline">
                      {formatMonth(m.month)}
                    </Link>
                  </td>
                  <FigureCells figures={m} />
                  <td className={NUM}>{formatNaira(m.whtWithheld)}</td>
                  <td className={NUM}>{formatNaira(m.vatWithheld)}</td>
                  <td className={HEAD}>
                    <MonthState closed={m.closed} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager label="Month pages" olderCursor={olderCursor} newerCursor={newerCursor} />
    </div>
  );
}

function FigureHeads() {
  return (
    <>
      <th className={`${HEAD} text-right`}>Invoices</th>
      <th className={`${HEAD} text-right`}>Sales</th>
      <th className={`${HEAD} text-right`}>Tax on sales</th>
      <th className={`${HEAD} text-right`}>Credit notes</th>
      <th className={`${HEAD} text-right`}>Credited</th>
      <th className={`${HEAD} text-right`}>Tax credited</th>
      <th className={`${HEAD} text-right`}>Net tax</th>
    </>
  );
}

function FigureCells({ figures: f }: { figures: TaxFigures }) {
  return (
    <>
      <td className={NUM}>{f.invoiceCount}</td>
      <td className={NUM}>{formatNaira(f.invoiced)}</td>
      <td className={NUM}>{formatNaira(f.invoiceTax)}</td>
      <td className={NUM}>
        {f.creditNoteCount}
        {f.reversalCount ? ` + ${f.reversalCount} ${f.reversalCount === 1 ? "reversal" : "reversals"}` : ""}
      </td>
      <td className={NUM}>{formatNaira(f.credited)}</td>
      <td className={NUM}>{formatNaira(f.creditTax)}</td>
      <td className={`${NUM} font-semibold`}>{formatNaira(f.netTax)}</td>
    </>
  );
}

function MonthState({ closed }: { closed: boolean }) {
  return closed ? (
    <span className="badge bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">Closed</span>
  ) : (
    <span className="badge bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">Open</span>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { DeliveryStatusBadge } from "~/components/deliveries/status-badge";
import { createInvoicesForMonth, numbersMovedOn } from "~/services/invoices/create-month-invoices.server";
import { Dialog } from "~/components/dialog";
import { ExportCsvLink } from "~/components/export-link";
import { Pager } from "~/components/pager";
import { TableScroll } from "~/components/table-scroll";
import {
  isMonth,
  listMonths,
  monthDetails,
  monthInvoicePreview,
  readMonthPage,
} from "~/presenters/reconciliation.server";
import { closedMonthReason, isInClosedMonth } from "~/models/period.server";
import { requireCapability } from "~/rules/capabilities.server";
import { formatDate, formatMonth } from "~/utils/dates";
import { add, formatNaira, formatTons, toFixed } from "~/utils/money";
import { keyOf } from "~/utils/idempotency.server";
import { readPageRequest } from "~/utils/params";
import { redirectWithToast } from "~/utils/toast.server";
import { PageHeader } from "~/components/page-header";
import { readForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Monthly Reconciliation · Management" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireCapability(request, "reconciliation.view");
  const params = new URL(request.url).searchParams;
  const open = isMonth(params.get("month")) ? params.get("month") : null;
  const confirm = isMonth(params.get("confirm")) ? params.get("confirm") : null;
  const asked = readPageRequest(
    new URLSearchParams({ cursor: params.get("detailsCursor") ?? "", before: params.get("detailsBefore") ?? "" }),
    "date",
  );
  const detailsPage = asked.invalid ? { cursor: null, direction: "older" as const } : asked;
  const [page, details, preview] = await Promise.all([
    listMonths(user, readMonthPage(params)),
    open ? monthDetails(user, open, detailsPage) : Promise.resolve({ items: [], olderCursor: null, newerCursor: null }),
    confirm ? monthInvoicePreview(user, confirm) : Promise.resolve(null),
  ]);
  const closed = confirm !== null && isInClosedMonth(confirm, page.closedThrough);
  return {
    ...page,
    open,
    details,
    confirm:
      confirm && preview
        ? {
            month: confirm,
            clients: closed ? [] : preview.clients,
            // Left out until their client's ticket is recorded (docs/decisions/1220).
            waitingForTicket: closed ? 0 : preview.waitingForTicket,
            // The number the counter gives next: the action refuses if another invoice took it meanwhile.
            firstNo: page.nextInvoiceNo,
            closedReason: closed && page.closedThrough ? closedMonthReason(page.closedThrough) : null,
            // One key per confirmation shown: the button posted twice makes the month's invoices once.
            idempotencyKey: crypto.randomUUID(),
          }
        : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireCapability(request, "invoice.manage");
  const form = await readForm(request);
  const month = String(form.get("month") ?? "");
  const back = safeReturn(form.get("returnTo"));
  const result = await createInvoicesForMonth(user, month, {
    idempotencyKey: keyOf(null, form.get("idempotencyKey")),
    expectedFirstNo: form.get("expectedNo"),
  });
  if (!result.ok && numbersMovedOn(result)) {
    // Another invoice took the number shown: ask again, showing the numbers the invoices will now take.
    const again = new URL(back, "http://x");
    again.searchParams.set("confirm", month);
    return redirectWithToast(`${again.pathname}${again.search}`, {
      title: "The invoice numbers have moved on",
      description: `${result.message} Check the new numbers and confirm again.`,
      variant: "destructive",
    });
  }
  if (!result.ok) {
    return redirectWithToast(back, {
      title: "Failed to create invoice",
      description: result.message,
      variant: "destructive",
    });
  }
  const numbers = result.invoices.map((i) => `#${i.invoiceNo}`).join(", ");
  const next = new URL(back, "http://x");
  next.searchParams.set("month", month);
  return redirectWithToast(`${next.pathname}${next.search}`, {
    title: "Invoice created successfully",
    description: `${formatMonth(month)}: ${numbers}`,
  });
}

/** Only a reconciliation page of this app is a place to come back to. */
function safeReturn(value: FormDataEntryValue | null) {
  const text = typeof value === "string" ? value : "";
  return /^\/reconciliation(\?[\w=&%.-]*)?$/.test(text) ? text : "/reconciliation";
}

export default function ReconciliationPage() {
  const { months, olderCursor, newerCursor, open, details, confirm, nextInvoiceNo } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const withoutConfirm = new URLSearchParams(params);
  withoutConfirm.delete("confirm");
  const back = `/reconciliation${withoutConfirm.size ? `?${withoutConfirm}` : ""}`;
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/reconciliation";
  return (
    <div className="space-y-4">
      <PageHeader
        title="Monthly Reconciliation"
        subtitle={`Deliveries by month, and what is left to invoice. The next invoice is #${nextInvoiceNo}, whichever month is invoiced first.`}
      >
        <ExportCsvLink to="/reconciliation/export" keep={["month"]} />
      </PageHeader>
      {loading ? <p className="page-subtitle">Loading reconciliation...</p> : null}
      {months.length === 0 ? (
        <div className="card p-10 text-center">
          <p className="font-semibold">No deliveries found</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {months.map((m) => {
            const expanded = open === m.month;
            const toggle = new URLSearchParams(params);
            toggle.delete("detailsCursor");
            toggle.delete("detailsBefore");
            if (expanded) toggle.delete("month");
            else toggle.set("month", m.month);
            const ask = new URLSearchParams(withoutConfirm);
            ask.set("confirm", m.month);
            return (
              <li key={m.month} className="card p-4" aria-label={formatMonth(m.month)}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <h2 className="font-semibold">{formatMonth(m.month)}</h2>
                    <p className="page-subtitle">
                      {m.count} deliveries · {m.confirmedCount} confirmed
                    </p>
                    <p className="mt-1 flex flex-wrap gap-2 text-sm">
                      {m.invoiceCount ? <span>Invoices: {invoiceNumbers(m)}</span> : null}
                      {m.closed ? (
                        <span className="badge bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100">
                          Closed
                        </span>
                      ) : !m.invoiced && m.canGenerate ? (
                        <span className="badge bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-200">
                          To invoice
                        </span>
                      ) : null}
                    </p>
                  </div>
                  {/* Two columns on a phone: a long Revenue figure never runs into Status. */}
                  <dl className="grid w-full grid-cols-2 gap-x-4 gap-y-2 text-sm sm:w-auto sm:grid-cols-3">
                    <div>
                      <dt className="text-slate-500">Total Tons</dt>
                      <dd className="tabular-nums">{formatTons(m.totalTons)}</dd>
                    </div>
                    <div>
                      <dt className="text-slate-500">Revenue</dt>
                      <dd className="tabular-nums">{formatNaira(m.revenue)}</dd>
                    </div>
                    <div>
                      <dt className="text-slate-500">Status</dt>
                      <dd>{m.invoiced ? "Invoiced" : "Pending"}</dd>
                    </div>
                  </dl>
                </div>
                {m.closed ? (
                  <p className="page-subtitle mt-2">
                    {formatMonth(m.month)} is closed: its deliveries can no longer be invoiced or changed.
                  </p>
                ) : null}
                <div className="mt-3 flex flex-wrap gap-2">
                  <Link to={`?${toggle}`} preventScrollReset className="btn-ghost btn-sm" aria-expanded={expanded}>
                    {expanded ? "Hide Details" : "View Details"}
                  </Link>
                  {m.canGenerate ? (
                    <Link to={`?${ask}`} preventScrollReset className="btn-primary btn-sm">
                      Generate Invoice
                    </Link>
                  ) : null}
                </div>
                {expanded ? (
                  <div className="mt-3 overflow-x-auto">
                    <table className="w-full min-w-[520px] text-left text-sm">
                      <thead className="text-xs uppercase text-slate-500">
                        <HeadingRow
                          labels={["Date", "Agent", "Tons", "Location", "Status", "Invoice", "Revenue"]}
                          right={["Tons", "Revenue"]}
                        />
                      </thead>
                      <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                        {details.items.map((d) => (
                          <tr key={d.id}>
                            <td className="px-2 py-1">{formatDate(d.date)}</td>
                            <td className="px-2 py-1">{d.agentName}</td>
                            <td className="px-2 py-1 text-right tabular-nums">{formatTons(d.tons)}</td>
                            <td className="px-2 py-1">{d.location}</td>
                            <td className="px-2 py-1">
                              <DeliveryStatusBadge status={d.status} />
                            </td>
                            <td className="px-2 py-1 tabular-nums">{d.invoiceNo ? `#${d.invoiceNo}` : ""}</td>
                            <td className="px-2 py-1 text-right tabular-nums">
                              {d.revenue ? formatNaira(d.revenue) : "-"}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    <Pager
                      label={`${formatMonth(m.month)} detail pages`}
                      olderCursor={details.olderCursor}
                      newerCursor={details.newerCursor}
                      names={{ cursor: "detailsCursor", before: "detailsBefore" }}
                    />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <Pager label="Month pages" olderCursor={olderCursor} newerCursor={newerCursor} />
      {confirm ? <ConfirmGenerate confirm={confirm} back={back} /> : null}
    </div>
  );
}

/** The heading row of the page's small tables: figures (`right`) sit right-aligned over their column. */
function HeadingRow({ labels, right }: { labels: string[]; right: string[] }) {
  return (
    <tr>
      {labels.map((l) => (
        <th key={l} className={right.includes(l) ? "px-2 py-1 text-right" : "px-2 py-1"}>
          {l}
        </th>
      ))}
    </tr>
  );
}

function invoiceNumbers(m: { invoiceCount: number; firstInvoiceNo: string | null; lastInvoiceNo: string | null }) {
  if (m.invoiceCount === 1 || m.firstInvoiceNo === m.lastInvoiceNo) return `#${m.firstInvoiceNo}`;
  if (m.invoiceCount === 2) return `#${m.firstInvoiceNo}, #${m.lastInvoiceNo}`;
  return `${m.invoiceCount} invoices, #${m.firstInvoiceNo} to #${m.lastInvoiceNo}`;
}

type Confirm = {
  month: string;
  firstNo: number;
  closedReason: string | null;
  idempotencyKey: string;
  waitingForTicket: number;
  clients: { clientId: number; clientName: string; deliveries: number; tons: string; amount: string }[];
};

/** "#131", "#131 and #132" or "#131 to #133": the numbers `count` invoices take from `first`. */
function numbersFrom(first: number, count: number) {
  if (count <= 1) return `#${first}`;
  return count === 2 ? `#${first} and #${first + 1}` : `#${first} to #${first + count - 1}`;
}

/**
 * Asks before invoicing a month: a dialog with JavaScript, the same markup as a page without.
 * Shows each client's deliveries, tons and amount, and the numbers the invoices will take: the
 * next ones, whichever month this is. The button posts the first of them, and the action
 * refuses if another invoice has taken it since (decision 0501).
 */
function ConfirmGenerate({ confirm, back }: { confirm: Confirm; back: string }) {
  const busy = useNavigation().state === "submitting";
  const count = confirm.clients.length;
  const numbers = numbersFrom(confirm.firstNo, count);
  const title =
    count > 1 ? `Generate Invoices ${numbers}` : count === 1 ? `Generate Invoice ${numbers}` : "Generate Invoice";
  const total = { deliveries: 0, tons: [] as string[], amount: [] as string[] };
  for (const c of confirm.clients) {
    total.deliveries += c.deliveries;
    total.tons.push(c.tons);
    total.amount.push(c.amount);
  }
  return (
    <Dialog title={title} description={`${formatMonth(confirm.month)}: one invoice per client`} closeTo={back}>
      {confirm.closedReason ? (
        <p className="text-sm" role="note">
          {confirm.closedReason}
        </p>
      ) : count === 0 ? (
        <>
          <p className="text-sm">This month has no confirmed deliveries with a client left to invoice.</p>
          <WaitingNote count={confirm.waitingForTicket} />
        </>
      ) : (
        <Form method="post" className="space-y-4" preventScrollReset>
          <p className="text-sm">
            {count === 1 ? (
              <>
                This will be invoice <strong>{numbers}</strong>, the next number.
              </>
            ) : (
              <>
                These will be invoices <strong>{numbers}</strong>, the next numbers, in the order below.
              </>
            )}{" "}
            Invoice numbers follow the order invoices are made in, whichever month they cover.
          </p>
          <input type="hidden" name="month" value={confirm.month} />
          <input type="hidden" name="expectedNo" value={confirm.firstNo} />
          <input type="hidden" name="idempotencyKey" value={confirm.idempotencyKey} />
          <input type="hidden" name="returnTo" value={back} />
          <TableScroll label="What will be invoiced">
            <table className="w-full text-left text-sm">
              <thead className="text-xs uppercase text-slate-500">
                <HeadingRow
                  labels={["Client", "Deliveries", "Tons", "Amount"]}
                  right={["Deliveries", "Tons", "Amount"]}
                />
              </thead>
              <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                {confirm.clients.map((c) => (
                  <tr key={c.clientId}>
                    <td className="px-2 py-1">{c.clientName}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{c.deliveries}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatTons(c.tons)}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatNaira(c.amount)}</td>
                  </tr>
                ))}
              </tbody>
              {confirm.clients.length > 1 ? (
                <tfoot className="font-semibold">
                  <tr>
                    <td className="px-2 py-1">Total</td>
                    <td className="px-2 py-1 text-right tabular-nums">{total.deliveries}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatTons(add(...total.tons))}</td>
                    <td className="px-2 py-1 text-right tabular-nums">{formatNaira(toFixed(add(...total.amount)))}</td>
                  </tr>
                </tfoot>
              ) : null}
            </table>
          </TableScroll>
          <WaitingNote count={confirm.waitingForTicket} />
          <div className="flex flex-wrap justify-end gap-2">
            <Link to={back} preventScrollReset className="btn-ghost" data-autofocus>
              Cancel
            </Link>
            <button type="submit" className="btn-primary" disabled={busy}>
              {busy ? "Generating..." : `Create ${count === 1 ? "invoice" : `${count} invoices`}`}
            </button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}

/** The month's deliveries left out because their client invoices only on its own ticket (docs/decisions/1220). */
function WaitingNote({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p className="text-sm" role="note">
      {count === 1 ? "1 delivery waits" : `${count} deliveries wait`} for the client&apos;s ticket and{" "}
      {count === 1 ? "is" : "are"} not included: record the client&apos;s ticket to invoice{" "}
      {count === 1 ? "it" : "them"}.
    </p>
  );
}

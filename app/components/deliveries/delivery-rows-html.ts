// The deliveries table's rows, written as one HTML string (docs/decisions/0507, as the invoice
// cards): 50 rows of up to 10 cells with no state and no handler. Every value is escaped by the
// `html` tag; the Edit link is a RowLink written as HTML (rowLinkHtml, decision 0505).
import { deliveryStatusBadgeClass } from "~/components/deliveries/status-badge";
import type { DeliveryColumn, DeliveryRow } from "~/components/deliveries/deliveries-table";
import { rowLinkHtml } from "~/components/row-link-html";
import { formatDate } from "~/utils/dates";
import { html, type Html } from "~/utils/html";
import { formatAmount, formatNaira } from "~/utils/money";

function cell(
  d: DeliveryRow,
  column: DeliveryColumn,
  compact: boolean,
  listSearch: string,
  closedThrough: string | null,
): Html {
  switch (column) {
    case "date":
      return html`<td class="nowrap">${formatDate(d.date)}</td>`;
    case "agent":
      // On a phone the location rides under the agent, so Status stays on screen.
      return compact
        ? html`<td class="wrap-any">${d.agentName}<span class="block text-xs text-slate-500 sm:hidden">${d.location}</span></td>`
        : html`<td>${d.agentName}</td>`;
    case "client":
      return html`<td>${d.clientName ?? "-"}</td>`;
    case "tons":
      return html`<td class="num">${formatAmount(d.tons)}</td>`;
    case "truck":
      return html`<td>${d.truckNo ?? "-"}</td>`;
    case "location":
      return compact ? html`<td class="phone-hidden">${d.location}</td>` : html`<td>${d.location}</td>`;
    case "status":
      return html`<td><span class="${deliveryStatusBadgeClass(d.status)}">${d.status}</span></td>`;
    case "profit":
      return html`<td class="num">${d.profit ? formatNaira(d.profit) : "-"}</td>`;
    case "net":
      return html`<td class="num">${d.netPaymentToAgent ? formatNaira(d.netPaymentToAgent) : "-"}</td>`;
    case "edit": {
      // A delivery of a closed month opens read-only (decision 0901): its link says View.
      const verb = closedThrough !== null && d.date <= closedThrough ? "View" : "Edit";
      const label = `${verb} delivery of ${formatDate(d.date)} from ${d.agentName}`;
      return html`<td>${rowLinkHtml(`/deliveries/${d.id}/edit${listSearch}`, verb, { className: "btn-ghost btn-sm", label, keepScroll: true })}</td>`;
    }
  }
}

/**
 * The `<tr>` rows of the table, as HTML for its `<tbody>`'s `dangerouslySetInnerHTML`. The Edit
 * links carry the list's filters and page (`listSearch`, "" or "?…"), so the dialog returns there;
 * rows dated on or before `closedThrough` say View instead.
 */
export function deliveryRowsHtml(
  rows: DeliveryRow[],
  columns: readonly DeliveryColumn[],
  compact: boolean,
  listSearch = "",
  closedThrough: string | null = null,
): string {
  return html`${rows.map((d) => html`<tr>${columns.map((c) => cell(d, c, compact, listSearch, closedThrough))}</tr>`)}`
    .value;
}

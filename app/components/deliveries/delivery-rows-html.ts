// The deliveries table's rows written as one HTML string (docs/decisions/0507): with the three
// weights and the tickets (decision 1220) a page of 50 is about 800 cells, and as React elements
// they put the Deliveries page under the performance bar. The rows have no React state or
// handlers: their links are plain anchors that the app shell's one click handler turns into
// client-side navigations (decision 0505). React hydrates one <tbody>.
// Every value is escaped by the `html` tag (app/utils/html.ts): an agent's name or a location is
// text, never markup.
import { deliveryStatusBadgeClass } from "~/components/deliveries/status-badge";
import type { DeliveryColumn, DeliveryRow } from "~/components/deliveries/deliveries-table";
import { rowLinkHtml } from "~/components/row-link-html";
import { formatDate } from "~/utils/dates";
import { html, type Html } from "~/utils/html";
import { formatNaira, formatTons } from "~/utils/money";

export type RowOptions = {
  columns: readonly DeliveryColumn[];
  /** On a phone: the location under the agent instead of its own column. */
  compact: boolean;
  /** The list's filters and page ("" or "?…"), carried by each row's Edit link. */
  listSearch?: string;
  /** Rows dated on or before it say View instead of Edit (decision 0901). */
  closedThrough?: string | null;
};

const ticketLetter = (kind: "loading" | "received") => (kind === "loading" ? "L" : "R");

// The markup is written without whitespace between tags (none is sent); Prettier leaves the
// templates of `*-html.ts` files as written (.prettierrc.json).
const tonsCell = (value: string | null | undefined) =>
  html`<td class="num">${value == null ? "-" : formatTons(value)}</td>`;

function cell(d: DeliveryRow, column: DeliveryColumn, o: RowOptions): Html {
  switch (column) {
    case "tons":
    case "loaded":
      return tonsCell(d.tons);
    case "received":
      return tonsCell(d.receivedTons);
    case "accepted":
      return tonsCell(d.acceptedTons);
    case "shortage":
      return tonsCell(d.shortageTons);
    case "date":
      return html`<td class="nowrap">${formatDate(d.date)}</td>`;
    case "agent":
      // On a phone the location rides under the agent, so Status stays on screen.
      return o.compact
        ? html`<td class="wrap-any">${d.agentName}<span class="block text-xs text-slate-500 sm:hidden">${d.location}</span></td>`
        : html`<td>${d.agentName}</td>`;
    case "client":
      return html`<td>${d.clientName ?? "-"}</td>`;
    case "tickets":
      // L and R; the column's header says what the letters stand for.
      return html`<td class="nowrap">${d.ticketKinds?.length ? d.ticketKinds.map(ticketLetter).join(" ") : "-"}</td>`;
    case "truck":
      return html`<td>${d.truckNo ?? "-"}</td>`;
    case "location":
      return o.compact ? html`<td class="phone-hidden">${d.location}</td>` : html`<td>${d.location}</td>`;
    case "status":
      return html`<td><span class="${deliveryStatusBadgeClass(d.status)}">${d.status}</span></td>`;
    case "profit":
      return html`<td class="num">${d.profit ? formatNaira(d.profit) : "-"}</td>`;
    case "net":
      return html`<td class="num">${d.netPaymentToAgent ? formatNaira(d.netPaymentToAgent) : "-"}</td>`;
    case "edit":
      return html`<td class="nowrap">${actions(d, o)}</td>`;
  }
}

/**
 * Edit, or View for a delivery of a closed month (decision 0901), and Record Ticket while its
 * tickets can still change (not invoiced, decision 1220). Both open dialogs over the list and
 * keep its scroll position and search.
 */
function actions(d: DeliveryRow, { listSearch = "", closedThrough = null }: RowOptions) {
  const verb = closedThrough !== null && d.date <= closedThrough ? "View" : "Edit";
  const of = `delivery of ${formatDate(d.date)} from ${d.agentName}`;
  const options = { className: "btn-ghost btn-sm", keepScroll: true };
  const edit = rowLinkHtml(`/deliveries/${d.id}/edit${listSearch}`, verb, { ...options, label: `${verb} ${of}` });
  const ticket =
    verb === "Edit" &&
    d.status !== "invoiced" &&
    rowLinkHtml(`/deliveries/${d.id}/tickets/new${listSearch}`, "Ticket", {
      ...options,
      label: `Record ticket for ${of}`,
    });
  return html`${edit}${ticket}`;
}

/** The table's `<tr>` rows, one per delivery, cells in the order of `columns`, as HTML for its `<tbody>`. */
export function deliveryRowsHtml(rows: readonly DeliveryRow[], options: RowOptions): string {
  return html`${rows.map((d) => html`<tr>${options.columns.map((c) => cell(d, c, options))}</tr>`)}`.value;
}

// The one deliveries table: the Deliveries page and both dashboards' Recent Deliveries. Cell
// padding, alignment and row borders come from the `data-table` rules in tailwind.css, so a row
// is its text and little else, and the loaders send only the fields a column shows
// (`toDeliveryRow`). The rows are React components (decision 0507) with a plain Edit link
// (RowLink, decision 0505). The Deliveries page shows the three weights and which weighbridge
// tickets a delivery has (docs/decisions/1220), read from the delivery row.
import type { ReactNode } from "react";
import { DeliveryStatusBadge } from "~/components/deliveries/status-badge";
import { RowLink } from "~/components/row-link";
import { TableScroll } from "~/components/table-scroll";
import { formatDate } from "~/utils/dates";
import { formatNaira, formatTons } from "~/utils/money";

export type DeliveryColumn =
  | "date"
  | "agent"
  | "client"
  | "tons"
  | "loaded"
  | "received"
  | "accepted"
  | "shortage"
  | "tickets"
  | "truck"
  | "location"
  | "status"
  | "profit"
  | "net"
  | "edit";

/** What the table shows of a delivery; money stays a decimal string. */
export type DeliveryRow = {
  id: number;
  date: string;
  agentName: string | null;
  clientName?: string | null;
  tons: string;
  receivedTons?: string | null;
  acceptedTons?: string | null;
  shortageTons?: string | null;
  /** The kinds of ticket it has, loading first. */
  ticketKinds?: ("loading" | "received")[];
  truckNo?: string | null;
  location: string;
  status: string;
  profit?: string | null;
  netPaymentToAgent?: string | null;
};

type Source = DeliveryRow & {
  clientName?: string | null;
  truckNo?: string | null;
  profit?: string | null;
  netPaymentToAgent?: string | null;
};

/** The fields `columns` show, nothing else: what goes into the page's hydration data. */
export function toDeliveryRow(d: Source, columns: readonly DeliveryColumn[]): DeliveryRow {
  const row: DeliveryRow = {
    id: d.id,
    date: d.date,
    agentName: d.agentName,
    tons: d.tons,
    location: d.location,
    status: d.status,
  };
  if (columns.includes("client")) row.clientName = d.clientName ?? null;
  if (columns.includes("received")) row.receivedTons = d.receivedTons ?? null;
  if (columns.includes("accepted")) row.acceptedTons = d.acceptedTons ?? null;
  if (columns.includes("shortage")) row.shortageTons = d.shortageTons ?? null;
  if (columns.includes("tickets")) row.ticketKinds = d.ticketKinds ?? [];
  if (columns.includes("truck")) row.truckNo = d.truckNo ?? null;
  if (columns.includes("profit")) row.profit = d.profit ?? null;
  if (columns.includes("net")) row.netPaymentToAgent = d.netPaymentToAgent ?? null;
  return row;
}

/**
 * The Deliveries page's columns for a role: the weights and tickets for everyone, money for
 * managers and admins, net payment for admins.
 */
export function deliveryPageColumns(role: string): DeliveryColumn[] {
  const financial = role === "manager" || role === "admin";
  return [
    "date",
    "agent",
    "client",
    "loaded",
    "received",
    "accepted",
    "shortage",
    "tickets",
    "truck",
    "location",
    "status",
    ...(financial ? (["profit"] as const) : []),
    ...(role === "admin" ? (["net"] as const) : []),
    ...(financial ? (["edit"] as const) : []),
  ];
}

/** The dashboards' Recent Deliveries: the manager's with profit, the staff's with the location. */
export const MANAGER_RECENT_COLUMNS = [
  "date",
  "agent",
  "tons",
  "status",
  "profit",
] as const satisfies readonly DeliveryColumn[];
export const STAFF_RECENT_COLUMNS = [
  "date",
  "agent",
  "tons",
  "location",
  "status",
] as const satisfies readonly DeliveryColumn[];

const HEADERS: Record<DeliveryColumn, ReactNode> = {
  date: "Date",
  agent: "Agent",
  client: "Client",
  tons: "Tons",
  loaded: "Loaded t",
  received: "Received t",
  accepted: "Accepted t",
  shortage: "Shortage t",
  tickets: "Tickets",
  truck: "Truck No.",
  location: "Location",
  status: "Status",
  profit: "Profit",
  net: "Net Payment to Agent",
  edit: <span className="sr-only">Actions</span>,
};
/** The columns of tons, and the field each shows. */
const TONS: Partial<Record<DeliveryColumn, "tons" | "receivedTons" | "acceptedTons" | "shortageTons">> = {
  tons: "tons",
  loaded: "tons",
  received: "receivedTons",
  accepted: "acceptedTons",
  shortage: "shortageTons",
};
const NUMERIC = new Set<DeliveryColumn>(["tons", "loaded", "received", "accepted", "shortage", "profit", "net"]);

export function DeliveriesTable({
  rows,
  columns,
  label,
  compact = false,
  minWidth,
  className = "",
  busy,
  before,
  listSearch,
  closedThrough = null,
}: {
  rows: DeliveryRow[];
  columns: readonly DeliveryColumn[];
  label: string;
  /** On a phone: tighter cells, and the location under the agent instead of its own column. */
  compact?: boolean;
  /** A table wider than a phone scrolls in its own box instead of squeezing its columns. */
  minWidth?: "560" | "640";
  className?: string;
  busy?: boolean;
  before?: ReactNode;
  /** The list's filters and page ("?…"), carried by each row's Edit link. */
  listSearch?: string;
  /** The last closed day: rows on or before it are read-only (decision 0901). */
  closedThrough?: string | null;
}) {
  const width = minWidth === "640" ? "min-w-[640px]" : minWidth === "560" ? "min-w-[560px]" : "";
  return (
    <TableScroll label={label} className={className} busy={busy}>
      {before}
      <table className={`data-table${compact ? " compact" : ""} ${width}`}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} className={NUMERIC.has(c) ? "num" : c === "location" && compact ? "phone-hidden" : undefined}>
                {HEADERS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <DeliveryRows
            rows={rows}
            columns={columns}
            compact={compact}
            listSearch={listSearch}
            closedThrough={closedThrough}
          />
        </tbody>
      </table>
    </TableScroll>
  );
}

export type RowOptions = {
  columns: readonly DeliveryColumn[];
  compact: boolean;
  /** The list's filters and page ("" or "?…"), carried by each row's Edit link. */
  listSearch?: string;
  /** Rows dated on or before it say View instead of Edit (decision 0901). */
  closedThrough?: string | null;
};

/** The table's `<tr>` rows, one per delivery, cells in the order of `columns`. */
export function DeliveryRows({ rows, ...options }: RowOptions & { rows: DeliveryRow[] }) {
  return rows.map((d) => (
    <tr key={d.id}>
      {options.columns.map((c) => (
        <DeliveryCell key={c} d={d} column={c} {...options} />
      ))}
    </tr>
  ));
}

function DeliveryCell({
  d,
  column,
  compact,
  listSearch = "",
  closedThrough = null,
}: Omit<RowOptions, "columns"> & { d: DeliveryRow; column: DeliveryColumn }) {
  const tons = TONS[column];
  if (tons) {
    const value = d[tons];
    return <td className="num">{value == null ? "-" : formatTons(value)}</td>;
  }
  switch (column) {
    case "date":
      return <td className="nowrap">{formatDate(d.date)}</td>;
    case "agent":
      // On a phone the location rides under the agent, so Status stays on screen.
      return compact ? (
        <td className="wrap-any">
          {d.agentName}
          <span className="block text-xs text-slate-500 sm:hidden">{d.location}</span>
        </td>
      ) : (
        <td>{d.agentName}</td>
      );
    case "client":
      return <td>{d.clientName ?? "-"}</td>;
    case "tickets":
      // L and R, each with its name for screen readers.
      return (
        <td className="nowrap">
          {d.ticketKinds?.length
            ? d.ticketKinds.map((kind) => (
                <span key={kind} className="badge tone-slate mr-1">
                  <span aria-hidden="true">{kind[0].toUpperCase()}</span>
                  <span className="sr-only">{kind} ticket</span>
                </span>
              ))
            : "-"}
        </td>
      );
    case "truck":
      return <td>{d.truckNo ?? "-"}</td>;
    case "location":
      return <td className={compact ? "phone-hidden" : undefined}>{d.location}</td>;
    case "status":
      return (
        <td>
          <DeliveryStatusBadge status={d.status} />
        </td>
      );
    case "profit":
      return <td className="num">{d.profit ? formatNaira(d.profit) : "-"}</td>;
    case "net":
      return <td className="num">{d.netPaymentToAgent ? formatNaira(d.netPaymentToAgent) : "-"}</td>;
    case "edit": {
      // A delivery of a closed month opens read-only (decision 0901): its link says View. An
      // invoiced one's tickets can no longer change (docs/decisions/1220).
      const verb = closedThrough !== null && d.date <= closedThrough ? "View" : "Edit";
      const of = `delivery of ${formatDate(d.date)} from ${d.agentName}`;
      return (
        <td className="nowrap">
          <RowLink
            to={`/deliveries/${d.id}/edit${listSearch}`}
            className="btn-ghost btn-sm"
            aria-label={`${verb} ${of}`}
            preventScrollReset
          >
            {verb}
          </RowLink>
          {verb === "Edit" && d.status !== "invoiced" ? (
            <RowLink
              to={`/deliveries/${d.id}/tickets/new${listSearch}`}
              className="btn-ghost btn-sm"
              aria-label={`Record ticket for ${of}`}
              preventScrollReset
            >
              Ticket
            </RowLink>
          ) : null}
        </td>
      );
    }
  }
}

// The one deliveries table: the Deliveries page and both dashboards' Recent Deliveries. Cell
// padding, alignment and row borders come from the `data-table` rules in tailwind.css, so a row
// is its text and little else, and the loaders send only the fields a column shows
// (`toDeliveryRow`). The rows are one HTML string (delivery-rows-html.ts, decision 0507) with plain
// Edit and Ticket links (decision 0505). The Deliveries page shows the three weights and which
// weighbridge tickets a delivery has (docs/decisions/1220), read from the delivery row.
import type { ReactNode } from "react";
import { deliveryRowsHtml } from "~/components/deliveries/delivery-rows-html";
import { TableScroll } from "~/components/table-scroll";

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
  tickets: (
    <>
      Tickets<span className="sr-only"> (L loading, R received)</span>
    </>
  ),
  truck: "Truck No.",
  location: "Location",
  status: "Status",
  profit: "Profit",
  net: "Net Payment to Agent",
  edit: <span className="sr-only">Actions</span>,
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
        <tbody
          dangerouslySetInnerHTML={{ __html: deliveryRowsHtml(rows, { columns, compact, listSearch, closedThrough }) }}
        />
      </table>
    </TableScroll>
  );
}

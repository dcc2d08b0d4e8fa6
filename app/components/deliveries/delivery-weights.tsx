// A delivery's three weights, shortage, moisture and deduction, and its weighbridge tickets with
// their photos (docs/decisions/1220): Edit Delivery, a closed month's delivery and Record Ticket.
import { Link } from "@remix-run/react";
import type { ShownTicket, ShownWeights } from "~/presenters/delivery-weights.server";
import { formatDateTime } from "~/utils/dates";
import { formatAmount, formatTons } from "~/utils/money";

export const TICKET_KIND_LABEL = { loading: "Loading ticket", received: "Received ticket" } as const;

const tons = (value: string | null) => (value === null ? "-" : `${formatTons(value)} t`);
export const kg = (value: number) => `${formatAmount(String(value), 0)} kg`;

/** One ticket in a line: number, truck, weights, when; with a link to its photo. */
export function TicketSummary({ ticket }: { ticket: ShownTicket }) {
  return (
    <>
      <span className="font-medium">
        {TICKET_KIND_LABEL[ticket.kind]} {ticket.ticketNo}
      </span>
      {" · "}
      {ticket.truckNo} · gross {kg(ticket.grossKg)}, tare {kg(ticket.tareKg)}, net <strong>{kg(ticket.netKg)}</strong>
      {ticket.moisture !== null ? ` · moisture ${ticket.moisture}%` : ""}
      {ticket.weighedAt ? ` · weighed ${formatDateTime(ticket.weighedAt)}` : ""}
      {` · recorded ${formatDateTime(ticket.recordedAt)}`}
      {ticket.photoUrl ? (
        <>
          {" · "}
          <a href={ticket.photoUrl} className="underline" target="_blank" rel="noreferrer">
            Photo of {ticket.kind} ticket {ticket.ticketNo}
          </a>
        </>
      ) : null}
    </>
  );
}

export function DeliveryWeights({
  weights,
  recordTicketTo,
}: {
  weights: ShownWeights;
  /** Record Ticket's address, or null where no ticket can be recorded (invoiced, closed month, staff). */
  recordTicketTo: string | null;
}) {
  const facts: [string, string][] = [
    ["Loaded", tons(weights.loadedTons)],
    ["Received", weights.receivedTons === null ? "No client's ticket yet" : tons(weights.receivedTons)],
    ["Accepted", tons(weights.acceptedTons)],
    ["Shortage", tons(weights.shortageTons)],
    ["Moisture", weights.moisture === null ? "-" : `${weights.moisture}%`],
    ["Quality deduction", tons(weights.qualityDeductionTons)],
  ];
  return (
    <section
      aria-labelledby="delivery-weights"
      className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="delivery-weights" className="font-semibold">
          Weights
        </h3>
        {recordTicketTo ? (
          <Link to={recordTicketTo} className="btn-outline btn-sm" preventScrollReset>
            Record ticket
          </Link>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="tabular-nums" data-testid={`weight-${label.toLowerCase().replace(" ", "-")}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {weights.tickets.length ? (
        <ul className="space-y-1 text-sm" aria-label="Tickets">
          {weights.tickets.map((t) => (
            <li key={t.kind} className="break-words">
              <TicketSummary ticket={t} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500 dark:text-slate-400">No weighbridge tickets yet.</p>
      )}
    </section>
  );
}

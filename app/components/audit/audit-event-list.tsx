// One list of audit events (docs/decisions/0900): when, who, what, and each changed field
// before → after. Used by /audit and by a delivery's or an invoice's own history.
import type { ReactNode } from "react";
import { formatDateTime } from "~/utils/dates";

export type AuditEventItem = {
  id: number;
  time: string;
  actorEmail: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  changes: { field: string; before: unknown; after: unknown }[];
  requestId: string | null;
  clientAddress: string | null;
};

function show(value: unknown): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="text-slate-400">—</span>;
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

export function AuditEventList({
  events,
  showEntity = true,
  emptyText,
}: {
  events: AuditEventItem[];
  showEntity?: boolean;
  emptyText: string;
}) {
  if (events.length === 0) return <p className="page-subtitle">{emptyText}</p>;
  return (
    <ol className="space-y-3" aria-label="Audit events">
      {events.map((event) => (
        <li key={event.id} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
          <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
            <strong className="font-mono">{event.action}</strong>
            {showEntity ? <span>{`${event.entityType}${event.entityId ? ` #${event.entityId}` : ""}`}</span> : null}
            <span className="text-slate-600 dark:text-slate-300">{`by ${event.actorEmail ?? "anonymous"}`}</span>
            <time dateTime={event.time} className="text-slate-500">
              {formatDateTime(event.time)}
            </time>
          </p>
          {event.changes.length ? (
            <table className="mt-2 w-full text-left text-sm">
              <caption className="sr-only">{`What changed in ${event.action}`}</caption>
              <thead className="text-xs text-slate-500">
                <tr>
                  <th scope="col" className="pr-3 font-medium">
                    Field
                  </th>
                  <th scope="col" className="pr-3 font-medium">
                    Before
                  </th>
                  <th scope="col" className="font-medium">
                    After
                  </th>
                </tr>
              </thead>
              <tbody>
                {event.changes.map((c) => (
                  <tr key={c.field} className="align-top">
                    <th scope="row" className="pr-3 font-mono font-normal">
                      {c.field}
                    </th>
                    <td className="break-all pr-3 tabular-nums">{show(c.before)}</td>
                    <td className="break-all tabular-nums">
                      <span aria-hidden="true">→ </span>
                      {show(c.after)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {event.requestId || event.clientAddress ? (
            <p className="mt-1 text-xs text-slate-500">
              {[
                event.clientAddress ? `from ${event.clientAddress}` : null,
                event.requestId ? `request ${event.requestId}` : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

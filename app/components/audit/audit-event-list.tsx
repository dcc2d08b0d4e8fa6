// One list of audit events (docs/decisions/0900), in plain words: what happened, to what, by
// whom, when (business time zone), and each changed field before → after. The loader words
// every event (presenters/audit-events.server.ts); this only lays them out. Used by /audit and
// by a delivery's or an invoice's own history.
import type { AuditEventLine } from "~/utils/audit-words.server";

export type { AuditEventLine };

function Value({ value }: { value: string | null }) {
  return value === null ? <span className="text-slate-400">—</span> : <>{value}</>;
}

export function AuditEventList({
  events,
  showEntity = true,
  showAddress = true,
  emptyText,
  label = "Audit events",
}: {
  events: AuditEventLine[];
  /** False in one entity's own history, where the subject is the page itself. */
  showEntity?: boolean;
  /** Where a change came from matters in the whole trail, not in one record's history. */
  showAddress?: boolean;
  emptyText: string;
  label?: string;
}) {
  if (events.length === 0) return <p className="page-subtitle">{emptyText}</p>;
  return (
    <ol className="space-y-3" aria-label={label}>
      {events.map((event) => {
        // A create (or a sign-in) has only an "after", a delete only a "before": one column.
        const created = event.changes.every((c) => c.before === null);
        const deleted = !created && event.changes.every((c) => c.after === null);
        const single = created || deleted;
        return (
          <li key={event.id} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm">
              <strong>{event.title}</strong>
              {showEntity && event.subject ? <span>{event.subject}</span> : null}
            </p>
            <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-600 dark:text-slate-300">
              <span>{`by ${event.actor}`}</span>
              <time dateTime={event.time}>{event.when}</time>
              {showAddress && event.from ? <span>{`from ${event.from}`}</span> : null}
            </p>
            {event.changes.length ? (
              <table className="mt-2 w-full table-fixed text-left text-sm">
                <caption className="sr-only">{`What changed: ${event.title}`}</caption>
                <thead className="text-xs text-slate-500">
                  <tr>
                    <th scope="col" className="w-2/5 pr-3 font-medium">
                      Field
                    </th>
                    {single ? (
                      <th scope="col" className="font-medium">
                        {deleted ? "Was" : "Value"}
                      </th>
                    ) : (
                      <>
                        <th scope="col" className="pr-3 font-medium">
                          Before
                        </th>
                        <th scope="col" className="font-medium">
                          After
                        </th>
                      </>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {event.changes.map((c) => (
                    <tr key={c.field} className="align-top">
                      <th scope="row" className="break-words pr-3 font-normal text-slate-600 dark:text-slate-300">
                        {c.field}
                      </th>
                      {single ? (
                        <td className="break-words tabular-nums">
                          <Value value={deleted ? c.before : c.after} />
                        </td>
                      ) : (
                        <>
                          <td className="break-words pr-3 tabular-nums">
                            <Value value={c.before} />
                          </td>
                          <td className="break-words tabular-nums">
                            <span aria-hidden="true">→ </span>
                            <Value value={c.after} />
                          </td>
                        </>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

import { Link, Outlet } from "@remix-run/react";
import type { ReactNode } from "react";
import { ExportCsvLink } from "~/components/export-link";
import { PlusIcon } from "~/components/icons";

export type DirectoryEntry = { id: number; name: string; detail: ReactNode; detailTitle?: string };

/**
 * The Agents and Clients screens: a title, an add link, the cards (each with Edit and Delete
 * links) or an empty state, and the outlet where the add/edit/delete dialogs open.
 */
export function DirectoryPage({
  title,
  subtitle,
  addLabel,
  emptyIcon,
  emptyTitle,
  emptyHint,
  entries,
  truncateDetail = false,
  exportTo,
  statementOf,
  headerLinks,
}: {
  title: string;
  subtitle: string;
  addLabel: string;
  /** The empty state's icon, e.g. `<UsersIcon className="mx-auto text-slate-400" />`. */
  emptyIcon: ReactNode;
  emptyTitle: string;
  emptyHint: string;
  entries: DirectoryEntry[];
  /** One line per detail, cut with an ellipsis (the full text in its title). */
  truncateDetail?: boolean;
  /** The list's CSV export, e.g. "/agents/export". */
  exportTo: string;
  /** Each card's statement of account, e.g. (id) => `/clients/${id}/statement`. */
  statementOf?: (id: number) => string;
  /** More links beside Export CSV, e.g. the agents' balances for admins. */
  headerLinks?: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">{title}</h1>
          <p className="page-subtitle">{subtitle}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {headerLinks}
          <ExportCsvLink to={exportTo} />
          <Link to="new" className="btn-primary" preventScrollReset>
            <PlusIcon width={16} height={16} /> {addLabel}
          </Link>
        </div>
      </header>
      {entries.length === 0 ? (
        <div className="card p-10 text-center">
          {emptyIcon}
          <p className="mt-2 font-semibold">{emptyTitle}</p>
          <p className="page-subtitle">{emptyHint}</p>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {entries.map((entry) => (
            <li key={entry.id} className="card flex items-start justify-between gap-2 p-4" aria-label={entry.name}>
              <div className="min-w-0">
                <p className="truncate font-semibold" title={entry.name}>
                  {entry.name}
                </p>
                <p className={truncateDetail ? "page-subtitle truncate" : "page-subtitle"} title={entry.detailTitle}>
                  {entry.detail}
                </p>
              </div>
              <div className="flex shrink-0 gap-1">
                {statementOf ? (
                  <Link
                    to={statementOf(entry.id)}
                    className="btn-ghost btn-sm"
                    aria-label={`Statement of ${entry.name}`}
                  >
                    Statement
                  </Link>
                ) : null}
                <Link
                  to={`${entry.id}/edit`}
                  className="btn-ghost btn-sm"
                  preventScrollReset
                  aria-label={`Edit ${entry.name}`}
                >
                  Edit
                </Link>
                <Link
                  to={`${entry.id}/delete`}
                  className="btn-ghost btn-sm text-red-600"
                  preventScrollReset
                  aria-label={`Delete ${entry.name}`}
                >
                  Delete
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Outlet />
    </div>
  );
}

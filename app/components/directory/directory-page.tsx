import { Form, Link, Outlet, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ExportCsvLink } from "~/components/export-link";
import { PlusIcon } from "~/components/icons";
import { PageHeader } from "~/components/page-header";
import { Pager } from "~/components/pager";
import { listSearch } from "./list-url";

type DirectoryEntry = { id: number; name: string; detail: ReactNode; detailTitle?: string };

/**
 * The Agents and Clients screens: a title, an add link, a search by name, a page of cards (each
 * with Edit and Delete links, newest first, 50 a page) or an empty state, the pager, and the
 * outlet where the add/edit/delete dialogs open.
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
  pageOf,
  ratesOf,
  headerLinks,
  search,
  searchLabel,
  listLabel,
  pagerLabel,
  olderCursor,
  newerCursor,
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
  /** Each entry's own page, linked from its name, e.g. (id) => `/clients/${id}`. */
  pageOf?: (id: number) => string;
  /** Each entry's rate cards, e.g. (id) => `/rates?agentId=${id}` (managers and admins, decision 1230). */
  ratesOf?: (id: number) => string;
  /** More links beside Export CSV, e.g. the agents' balances for admins. */
  headerLinks?: ReactNode;
  /** The name searched for (`?q=`), or null. */
  search: string | null;
  /** What the search box is called, e.g. "Search agents by name". */
  searchLabel: string;
  /** What the list of cards is called, e.g. "Agents". */
  listLabel: string;
  /** What the pager is called, e.g. "Agent pages". */
  pagerLabel: string;
  olderCursor: string | null;
  newerCursor: string | null;
}) {
  const { search: query } = useLocation();
  // The dialogs open over this same page of the list and come back to it.
  const list = listSearch(query);
  const params = new URLSearchParams(query);
  const laterPage = Boolean(params.get("cursor") || params.get("before"));
  return (
    <div className="space-y-4">
      <PageHeader title={title} subtitle={subtitle}>
        {headerLinks}
        <ExportCsvLink to={exportTo} />
        <Link to="new" className="btn-primary" preventScrollReset>
          <PlusIcon width={16} height={16} /> {addLabel}
        </Link>
      </PageHeader>
      <DirectorySearch search={search} label={searchLabel} />
      {entries.length === 0 && search !== null ? (
        <div className="card p-10 text-center">
          <p className="font-semibold">No names contain &ldquo;{search}&rdquo;</p>
          <p className="page-subtitle">Check the spelling, or search for part of the name.</p>
        </div>
      ) : entries.length === 0 && laterPage ? (
        // Past the end (the last ones deleted meanwhile): the pager leads back to the first page.
        <div className="card p-10 text-center">
          <p className="font-semibold">Nothing more on this page</p>
        </div>
      ) : entries.length === 0 ? (
        <div className="card p-10 text-center">
          {emptyIcon}
          <p className="mt-2 font-semibold">{emptyTitle}</p>
          <p className="page-subtitle">{emptyHint}</p>
        </div>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={listLabel}>
          {entries.map((entry) => (
            <li key={entry.id} className="card flex items-start justify-between gap-2 p-4" aria-label={entry.name}>
              <div className="min-w-0">
                <p className="truncate font-semibold" title={entry.name}>
                  {pageOf ? (
                    <Link to={pageOf(entry.id)} className="hover:underline">
                      {entry.name}
                    </Link>
                  ) : (
                    entry.name
                  )}
                </p>
                <p className={truncateDetail ? "page-subtitle truncate" : "page-subtitle"} title={entry.detailTitle}>
                  {entry.detail}
                </p>
              </div>
              <div className="flex shrink-0 gap-1">
                {ratesOf ? (
                  <Link to={ratesOf(entry.id)} className="btn-ghost btn-sm" aria-label={`Rates of ${entry.name}`}>
                    Rates
                  </Link>
                ) : null}
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
                  to={`${entry.id}/edit${list}`}
                  className="btn-ghost btn-sm"
                  preventScrollReset
                  aria-label={`Edit ${entry.name}`}
                >
                  Edit
                </Link>
                <Link
                  to={`${entry.id}/delete${list}`}
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
      <Pager label={pagerLabel} olderCursor={olderCursor} newerCursor={newerCursor} />
      <Outlet />
    </div>
  );
}

/**
 * A list's search box: a plain GET form, so the search lives in the URL and works without
 * JavaScript. Keyed on the search, so Clear empties the box.
 */
export function DirectorySearch({
  search,
  label,
  hint,
  maxLength = 100,
}: {
  /** What is searched for (`?q=`), or null. */
  search: string | null;
  /** What the search box is called, e.g. "Search agents by name". */
  label: string;
  /** A line under the box saying how the search reads what is typed. */
  hint?: string;
  maxLength?: number;
}) {
  return (
    <Form key={search ?? ""} method="get" role="search" aria-label={label} className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1 sm:max-w-sm">
        <label className="label" htmlFor="directory-search">
          {label}
        </label>
        <input
          id="directory-search"
          name="q"
          type="search"
          className="input"
          maxLength={maxLength}
          defaultValue={search ?? ""}
          aria-describedby={hint ? "directory-search-hint" : undefined}
        />
      </div>
      <button type="submit" className="btn-outline">
        Search
      </button>
      {search !== null ? (
        <Link to="." className="btn-ghost">
          Clear
        </Link>
      ) : null}
      {hint ? (
        <p id="directory-search-hint" className="page-subtitle w-full">
          {hint}
        </p>
      ) : null}
    </Form>
  );
}

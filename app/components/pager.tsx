import { Link, useSearchParams } from "@remix-run/react";

/**
 * First / Newer / Older links for a keyset-paged list. Plain links that keep the list's
 * filters: they work without JavaScript and are prefetched-free (a page is one request).
 */
export function Pager({
  label,
  olderCursor,
  newerCursor,
  names = { cursor: "cursor", before: "before" },
  keep,
  olderLabel = "Older",
}: {
  label: string;
  olderCursor: string | null;
  newerCursor: string | null;
  /** Query parameters of this list's cursors, when a page has more than one list. */
  names?: { cursor: string; before: string };
  /** Extra parameters every link sets (e.g. the open month). */
  keep?: Record<string, string>;
  /** The forward link's words, for a list not ordered by time (Receivables: "Next clients"). */
  olderLabel?: string;
}) {
  const [current] = useSearchParams();
  const params = new URLSearchParams(current);
  for (const [k, v] of Object.entries(keep ?? {})) params.set(k, v);
  const onFirstPage = !params.get(names.cursor) && !params.get(names.before);
  if (onFirstPage && !olderCursor) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap justify-center gap-2">
      {!onFirstPage ? (
        <Link
          to={`?${withPage(params, names, null)}`}
          className="btn-ghost"
          preventScrollReset={names.cursor !== "cursor"}
        >
          First page
        </Link>
      ) : null}
      {newerCursor ? (
        <Link
          to={`?${withPage(params, names, { before: newerCursor })}`}
          className="btn-outline"
          rel="prev"
          preventScrollReset={names.cursor !== "cursor"}
        >
          Newer
        </Link>
      ) : null}
      {olderCursor ? (
        <Link
          to={`?${withPage(params, names, { cursor: olderCursor })}`}
          className="btn-outline"
          rel="next"
          preventScrollReset={names.cursor !== "cursor"}
        >
          {olderLabel}
        </Link>
      ) : null}
    </nav>
  );
}

function withPage(
  params: URLSearchParams,
  names: { cursor: string; before: string },
  page: { cursor: string } | { before: string } | null,
) {
  const copy = new URLSearchParams(params);
  copy.delete(names.cursor);
  copy.delete(names.before);
  if (page && "cursor" in page) copy.set(names.cursor, page.cursor);
  if (page && "before" in page) copy.set(names.before, page.before);
  return copy.toString();
}

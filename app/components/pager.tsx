import { Link, useSearchParams } from "@remix-run/react";

/**
 * First / Newer / Older links for a keyset-paged list. Plain links that keep the list's
 * filters: they work without JavaScript and are prefetched-free (a page is one request).
 */
export function Pager({
  label,
  olderCursor,
  newerCursor,
}: {
  label: string;
  olderCursor: string | null;
  newerCursor: string | null;
}) {
  const [params] = useSearchParams();
  const onFirstPage = !params.get("cursor") && !params.get("before");
  if (onFirstPage && !olderCursor) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap justify-center gap-2">
      {!onFirstPage ? (
        <Link to={`?${withPage(params, null)}`} className="btn-ghost">
          First page
        </Link>
      ) : null}
      {newerCursor ? (
        <Link to={`?${withPage(params, { before: newerCursor })}`} className="btn-outline" rel="prev">
          Newer
        </Link>
      ) : null}
      {olderCursor ? (
        <Link to={`?${withPage(params, { cursor: olderCursor })}`} className="btn-outline" rel="next">
          Older
        </Link>
      ) : null}
    </nav>
  );
}

function withPage(params: URLSearchParams, page: { cursor: string } | { before: string } | null) {
  const copy = new URLSearchParams(params);
  copy.delete("cursor");
  copy.delete("before");
  if (page && "cursor" in page) copy.set("cursor", page.cursor);
  if (page && "before" in page) copy.set("before", page.before);
  return copy.toString();
}

import { useSearchParams } from "@remix-run/react";

// Paging and dialog parameters are the page's position, not its filter: the export is the whole
// filtered list.
const NOT_FILTERS = ["cursor", "before", "detailsCursor", "detailsBefore", "confirm"];

/** "Export CSV" for a list: a plain download link carrying the page's current filters. */
export function ExportCsvLink({ to, keep }: { to: string; keep?: string[] }) {
  const [params] = useSearchParams();
  const query = new URLSearchParams();
  for (const [name, value] of params) {
    if (NOT_FILTERS.includes(name) || (keep && !keep.includes(name)) || value === "") continue;
    query.append(name, value);
  }
  const href = query.size ? `${to}?${query}` : to;
  return (
    <a href={href} className="btn-outline" download>
      Export CSV
    </a>
  );
}

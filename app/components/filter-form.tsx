import type { ReactNode } from "react";
import { Form, Link, useSearchParams } from "@remix-run/react";

// The filter bar of a paged list (deliveries, invoices, payments, the audit trail): a plain GET
// form, so the filters live in the URL, survive a reload and work without JavaScript.

/**
 * The filter card. On a phone it is a `<details>`, closed unless a filter is active, so the list
 * starts on the first screen; it opens and closes without JavaScript. From 640 px it is always
 * open and its summary hidden (`.filter-card` in tailwind.css). `names` are the query parameters
 * its fields set: any of them in the URL opens it.
 */
export function FilterForm({
  label,
  clearTo,
  names,
  className = "sm:grid-cols-3 lg:grid-cols-6",
  children,
}: {
  label: string;
  clearTo: string;
  names: string[];
  /** The grid's columns from 640 px. */
  className?: string;
  children: ReactNode;
}) {
  const [params] = useSearchParams();
  const active = names.filter((name) => params.get(name)).length;
  return (
    // Keyed on the query so Clear and the summary links reset what the fields show, and the
    // card opens or closes with the filters.
    <details key={params.toString()} open={active > 0} className="filter-card card">
      <summary className="flex cursor-pointer items-center justify-between gap-3 px-4 py-3 text-sm font-medium sm:hidden">
        <span>
          Filters
          {active ? <span className="page-subtitle font-normal"> · {active} active</span> : null}
        </span>
        <span aria-hidden="true" className="filter-card-mark text-slate-500" />
      </summary>
      <Form method="get" className={`grid gap-3 p-4 pt-0 sm:items-start sm:pt-4 ${className}`} aria-label={label}>
        {children}
        {/* Level with the fields' inputs: a label's height of space above the buttons. */}
        <div className="flex gap-2 sm:self-end">
          <button type="submit" className="btn-outline flex-1">
            Filter
          </button>
          <Link to={clearTo} className="btn-ghost">
            Clear
          </Link>
        </div>
      </Form>
    </details>
  );
}

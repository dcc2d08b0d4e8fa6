import type { ReactNode } from "react";

/**
 * The box a wide table scrolls in, so the page itself never scrolls sideways on a phone. It is
 * a named region that takes focus, so keyboard users can scroll it too. It is positioned, so that
 * text only screen readers see (`sr-only`, absolutely placed) in a cell far to the right stays
 * inside it instead of widening the page.
 */
export function TableScroll({
  label,
  className = "",
  children,
  busy,
}: {
  label: string;
  className?: string;
  children: ReactNode;
  busy?: boolean;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      aria-busy={busy || undefined}
      tabIndex={0}
      className={`card relative overflow-auto focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-green-600 ${className}`}
    >
      {children}
    </div>
  );
}

/**
 * A card holding one list's table: a heading for screen readers, the scrolling region, the
 * column heads, the rows, and a line saying so when there are none (the balance lists).
 */
export function TableCard({
  id,
  heading,
  label,
  head,
  empty,
  children,
}: {
  id: string;
  heading: string;
  label: string;
  head: ReactNode;
  /** What to say when the list has no rows; null when it has some. */
  empty: string | null;
  children: ReactNode;
}) {
  return (
    <section className="card p-4" aria-labelledby={id}>
      <h2 id={id} className="sr-only">
        {heading}
      </h2>
      <TableScroll label={label}>
        <table className="data-table">
          <thead>
            <tr>{head}</tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </TableScroll>
      {empty ? <p className="page-subtitle mt-2">{empty}</p> : null}
    </section>
  );
}

/** A run of column heads; figures' heads take the figures' alignment (`num` in a data table). */
export function ColumnHeads({ labels, className }: { labels: readonly string[]; className?: string }) {
  return labels.map((label) => (
    <th key={label} scope="col" className={className}>
      {label}
    </th>
  ));
}
